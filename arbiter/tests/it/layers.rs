//! The workspace's layering, held: no import circle between the modules of
//! any of its crates, and the arbiter's core builds without the network's or
//! the arena's crates. Cargo already refuses a circle between crates; this
//! test covers what it does not see.
//!
//! A module's imports are what a reader of its file sees: every `use`
//! (relative ones, `self::`, `super::`, `crate::`) and every path in its
//! code, resolved through re-exports and globs to the module that defines
//! what is named ([`graph`]); the whole file is read, only its
//! `#[cfg(test)]` items left out ([`tree`], [`lexer`]). The check of the
//! real tree is its own test, apart from the tests that plant circles in a
//! scratch crate and see the check find each.

mod graph;
mod lexer;
mod tree;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::Scratch;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's folder.
fn workspace() -> PathBuf {
    manifest_dir()
        .parent()
        .expect("the arbiter in a workspace")
        .to_path_buf()
}

/// The workspace's member folders, as its `Cargo.toml` lists them.
fn members() -> Vec<PathBuf> {
    let root = workspace();
    let text =
        std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace's Cargo.toml");
    let list = text
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("a members list");
    list.split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m))
        .collect()
}

/// The crate roots of a member: `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`.
fn roots(member: &Path) -> Vec<PathBuf> {
    let src = member.join("src");
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .filter(|f| f.exists())
        .collect();
    if let Ok(bins) = std::fs::read_dir(src.join("bin")) {
        let mut bins: Vec<PathBuf> = bins
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        bins.sort();
        roots.extend(bins);
    }
    roots
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The circles of the crate rooted at `root`, each told as its modules and
/// one way round it, an edge a line with the file and line that make it.
fn circles_of(root: &Path) -> Vec<String> {
    let krate = tree::read_crate(root);
    let edges = graph::edges(&krate);
    let workspace = workspace();
    let shown = |p: &Path| {
        p.strip_prefix(&workspace)
            .unwrap_or(p)
            .display()
            .to_string()
    };
    graph::circles(&edges)
        .iter()
        .map(|circle| {
            let names: Vec<String> = circle.iter().map(graph::name).collect();
            let way = graph::way_round(&edges, circle)
                .into_iter()
                .map(|edge| edge.replace(&format!("{}/", workspace.display()), ""));
            let mut text = format!("{}: {}", shown(root), names.join(", "));
            for edge in way {
                text.push_str(&format!("\n    {edge}"));
            }
            text
        })
        .collect()
}

/// The circles still standing, one a line as the check names them (the crate
/// and the modules in it). A ratchet: a circle not listed fails the test, and
/// so does a listed one that is gone (take its line out), so the list only
/// shrinks. Issue 37 asks for none; these are the ones left to cut.
const KNOWN_CIRCLES: &str = include_str!("layers/known_circles.txt");

#[test]
fn no_crate_of_the_workspace_has_an_import_circle_but_the_known_ones() {
    let found: Vec<String> = members()
        .iter()
        .flat_map(|member| roots(member))
        .flat_map(|root| circles_of(&root))
        .collect();
    let known: BTreeSet<&str> = KNOWN_CIRCLES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let new: Vec<&String> = found
        .iter()
        .filter(|c| !known.contains(c.lines().next().unwrap_or_default()))
        .collect();
    let heads: BTreeSet<&str> = found.iter().filter_map(|c| c.lines().next()).collect();
    let gone: Vec<&&str> = known.iter().filter(|k| !heads.contains(**k)).collect();
    assert!(
        new.is_empty(),
        "{} new import circle(s): the crate and the modules of each, then one way round it:\n{}",
        new.len(),
        new.iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        gone.is_empty(),
        "circle(s) no longer found: take them out of tests/it/layers/known_circles.txt: {gone:?}"
    );
}

#[test]
fn the_circle_check_reads_every_file_of_every_crate() {
    let members = members();
    assert!(members.len() >= 10, "workspace members read: {members:?}");
    for member in members {
        let roots = roots(&member);
        assert!(!roots.is_empty(), "{}: no crate root", member.display());
        let mut read = BTreeSet::new();
        let mut tests = BTreeSet::new();
        for root in &roots {
            let krate = tree::read_crate(root);
            assert!(
                krate.missing.is_empty(),
                "{}: modules with no file found: {:?}",
                root.display(),
                krate.missing
            );
            let edges = graph::edges(&krate);
            assert_eq!(edges.len(), krate.files().len(), "{}", root.display());
            read.extend(krate.files().into_iter().map(Path::to_path_buf));
            tests.extend(krate.test_files);
        }
        for file in rust_files(&member.join("src")) {
            // why: a test module's file, and files in its folder, are no
            // production code; everything else must have been read.
            let test = tests.iter().any(|t| file.starts_with(t));
            assert!(
                test || read.contains(&file),
                "{} is in no module tree the check read",
                file.display()
            );
        }
    }
}

/// Plants the crate `files` (path, text) in a scratch folder and returns
/// its circles by module names.
fn plant(test: &str, files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = Scratch::new("layers", test);
    for (path, text) in files {
        let at = dir.path(path);
        std::fs::create_dir_all(at.parent().expect("a folder")).expect("a folder made");
        std::fs::write(&at, text).expect("a file written");
    }
    let krate = tree::read_crate(&dir.path("lib.rs"));
    assert!(krate.missing.is_empty(), "{:?}", krate.missing);
    graph::circles(&graph::edges(&krate))
        .iter()
        .map(|circle| circle.iter().map(graph::name).collect())
        .collect()
}

fn names(circle: &[&str]) -> Vec<String> {
    circle.iter().map(|s| (*s).to_owned()).collect()
}

/// The board's circle before issue 37: the hub takes from the replay, the
/// replay from the state, and the state the hub through `live`'s re-export.
#[test]
fn the_circle_check_sees_a_circle_through_a_relative_re_export() {
    let mut files = vec![
        ("lib.rs", "pub mod live;\npub mod replay;\npub mod state;\n"),
        (
            "live.rs",
            "pub mod hub;\n\npub use hub::{LiveHub, Snapshot};\n\npub struct LiveState;\n",
        ),
        (
            "live/hub.rs",
            "pub struct LiveHub;\npub struct Snapshot;\n\nfn replay() {\n    crate::replay::view();\n}\n",
        ),
        ("replay.rs", "use crate::state::AppState;\n\npub fn view() {}\n"),
        (
            "state.rs",
            "use crate::live::{LiveHub, LiveState};\n\npub struct AppState(LiveHub, LiveState);\n",
        ),
    ];
    assert_eq!(
        plant("re-export", &files),
        vec![names(&["live::hub", "replay", "state"])]
    );
    // The state taking only what `live` defines itself: no circle.
    files[4].1 = "use crate::live::LiveState;\n\npub struct AppState(LiveState);\n";
    assert_eq!(plant("re-export-none", &files), Vec::<Vec<String>>::new());
    // A relative path from a module the file imports, in the code.
    files[4].1 = "use crate::live;\n\npub struct AppState(live::LiveHub);\n";
    assert_eq!(
        plant("re-export-alias", &files),
        vec![names(&["live::hub", "replay", "state"])]
    );
}

/// `play::game` and `play::game::ponder` before issue 37: the parent takes
/// from its child by a relative path, the child from its parent.
#[test]
fn the_circle_check_sees_a_parent_child_circle() {
    let game = "mod ponder;\n\nuse ponder::Ponder;\n\npub struct Game(Ponder);\n";
    let ponder = "use super::Game;\n\npub struct Ponder;\n\nfn f(_: &Game) {}\n";
    let lib = "pub mod play;\n";
    let play = "pub mod game;\n";
    let flat = [
        ("lib.rs", lib),
        ("play.rs", play),
        ("play/game.rs", game),
        ("play/game/ponder.rs", ponder),
    ];
    let circle = vec![names(&["play::game", "play::game::ponder"])];
    assert_eq!(plant("parent-child", &flat), circle);
    // The same in `mod.rs` files and an inline parent module.
    let nested = [
        ("lib.rs", "pub mod play {\n    pub mod game;\n}\n"),
        ("play/game/mod.rs", game),
        ("play/game/ponder.rs", ponder),
    ];
    assert_eq!(plant("parent-child-mod-rs", &nested), circle);
    // A glob of the parent is an import of it too.
    let glob = [
        ("lib.rs", lib),
        ("play.rs", play),
        ("play/game.rs", game),
        (
            "play/game/ponder.rs",
            "use super::*;\n\npub struct Ponder;\n",
        ),
    ];
    assert_eq!(plant("parent-child-glob", &glob), circle);
    // The child naming only its parent's parent: no circle.
    let apart = [
        ("lib.rs", lib),
        ("play.rs", "pub mod game;\npub struct Clock;\n"),
        ("play/game.rs", game),
        (
            "play/game/ponder.rs",
            "pub struct Ponder(super::super::Clock);\n",
        ),
    ];
    assert_eq!(
        plant("parent-child-apart", &apart),
        Vec::<Vec<String>>::new()
    );
}

/// Only `#[cfg(test)]` items are left out: production code after a test
/// module is read, and comments, strings and char literals are no code.
#[test]
fn the_circle_check_skips_test_items_and_literals_only() {
    let lib = "pub mod a;\npub mod b;\n";
    let a = "pub struct A;\n\nfn f() {\n    crate::b::g();\n}\n";
    let test_only = "pub fn g() {}\n\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n\n\
                     #[cfg(test)]\nuse crate::a::A;\n\n#[cfg(all(test, unix))]\nfn h(_: crate::a::A) {}\n\n\
                     #[cfg(test)]\nmod more;\n";
    let none = Vec::<Vec<String>>::new();
    let circle = vec![names(&["a", "b"])];
    assert_eq!(
        plant(
            "test-items",
            &[
                ("lib.rs", lib),
                ("a.rs", a),
                ("b.rs", test_only),
                ("b/more.rs", "use crate::a::A;\n")
            ]
        ),
        none
    );
    let after_tests = format!("{test_only}\npub struct Late(crate::a::A);\n");
    assert_eq!(
        plant(
            "after-tests",
            &[("lib.rs", lib), ("a.rs", a), ("b.rs", &after_tests)]
        ),
        circle
    );
    let literals = "pub fn g() {}\n// crate::a::A\n/* crate::a::A /* nested */ crate::a::A */\n\
                    const Q: char = '\"';\nconst E: char = '\\'';\nconst B: u8 = b'\"';\n\
                    const S: &str = \"crate::a::A \\\" crate::a::A\";\n\
                    const R: &str = r#\"crate::a::A \" crate::a::A\"#;\nfn l<'a>(x: &'a str) -> &'a str { x }\n";
    assert_eq!(
        plant(
            "literals",
            &[("lib.rs", lib), ("a.rs", a), ("b.rs", literals)]
        ),
        none
    );
    let then_code = format!("{literals}use crate::a::A;\n");
    assert_eq!(
        plant(
            "literals-then-code",
            &[("lib.rs", lib), ("a.rs", a), ("b.rs", &then_code)]
        ),
        circle
    );
}

/// The packages `manifest` depends on (its `[dependencies]` table only).
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("a Cargo.toml");
    let mut names = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                names.push(name.trim().to_owned());
            }
        }
    }
    names
}

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let root = manifest_dir();
    let arbiter_crates = [
        "arbiter-core",
        "arbiter-net",
        "arbiter-board",
        "arbiter-arena",
    ];
    // The layers, bottom up: each may use those before it, none after.
    let layers = [
        ("core", "arbiter-core"),
        ("net", "arbiter-net"),
        ("board", "arbiter-board"),
        ("arena", "arbiter-arena"),
    ];
    for (i, (dir, _)) in layers.iter().enumerate() {
        let deps = dependencies(&root.join(dir).join("Cargo.toml"));
        for dep in &deps {
            if let Some(j) = arbiter_crates.iter().position(|c| c == dep) {
                assert!(
                    j < i,
                    "arbiter/{dir} depends on {dep}, a layer above or beside it"
                );
            }
        }
    }
    // The crate that runs matches: no HTTP, TLS or database, directly or
    // through the workspace crates it uses.
    let heavy = [
        "axum",
        "hyper",
        "hyper-util",
        "tower-http",
        "rustls",
        "tokio-rustls",
        "rusqlite",
    ];
    let mut todo = vec![root.join("core/Cargo.toml")];
    let mut seen = BTreeSet::new();
    while let Some(manifest) = todo.pop() {
        for dep in dependencies(&manifest) {
            assert!(
                !heavy.contains(&dep.as_str()),
                "{} (under arbiter-core) depends on {dep}",
                manifest.display()
            );
            let local = match dep.as_str() {
                "mancala-rules" => Some("../rules"),
                "mancala-tablebase" => Some("../tablebase"),
                "umi" => Some("../protocol"),
                _ => None,
            };
            if let Some(dir) = local {
                if seen.insert(dir) {
                    todo.push(root.join(dir).join("Cargo.toml"));
                }
            }
        }
    }
    assert_eq!(
        seen.len(),
        3,
        "the core's workspace dependencies read: {seen:?}"
    );
}
