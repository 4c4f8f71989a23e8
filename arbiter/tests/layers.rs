//! The arbiter's layering, held: no import circle between the modules of
//! any of its crates (nor of the engine's), and the core builds without the
//! network's or the arena's crates. Cargo already refuses a circle between
//! crates; this test covers what it does not see.
//!
//! A module's imports are the `crate::…` and `super::…` paths in its file
//! (comments, strings and its `#[cfg(test)] mod tests` left out), each
//! resolved to the longest module path that is a file of the crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `src`, by module path (`a::b` for `a/b.rs` or
/// `a/b/mod.rs`; the crate root is the empty path).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                parts.clear();
            }
            found.insert(parts, path);
        }
    }
    found
}

/// The text without comments, string literals and a trailing test module.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    for marker in [
        "#[cfg(test)]\nmod tests",
        "#[cfg(test)]\npub(crate) mod tests",
    ] {
        if let Some(at) = out.find(marker) {
            out.truncate(at);
        }
    }
    out
}

/// The module paths `code` (the file of module `at`) names: `crate::a::b…`
/// and `super::…`.
fn named_paths(code: &str, at: &[String]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut paths = Vec::new();
    for (start, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        if code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == '$')
        {
            continue;
        }
        let mut words = code[start..].split("::");
        let mut path: Vec<String> = match words.next() {
            Some("crate") => Vec::new(),
            // why: `super` in `a/b.rs` (or `a/b/mod.rs`), module `a::b`, is `a`.
            _ => at[..at.len().saturating_sub(1)].to_vec(),
        };
        for word in words {
            let ident: String = word.chars().take_while(|&c| is_ident(c)).collect();
            if ident.is_empty() {
                break;
            }
            let whole = ident.len() == word.len();
            if ident == "super" {
                path.pop();
            } else {
                path.push(ident);
            }
            if !whole {
                break;
            }
        }
        paths.push(path);
    }
    paths
}

/// The module graph of the crate at `src`: each module's edges to the
/// other modules it names.
fn graph(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mods = modules(src);
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &mods {
        let text = std::fs::read_to_string(file).expect("a source file");
        let code = code_of(&text);
        let targets = edges.entry(module.clone()).or_default();
        for mut path in named_paths(&code, module) {
            while !path.is_empty() && !mods.contains_key(&path) {
                path.pop();
            }
            if !path.is_empty() && &path != module {
                targets.insert(path);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.join("::"));
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

#[test]
fn no_crate_of_the_arbiter_or_the_engine_has_an_import_circle() {
    let root = manifest_dir();
    let crates = [
        root.join("src"),
        root.join("core/src"),
        root.join("net/src"),
        root.join("board/src"),
        root.join("arena/src"),
        root.join("../engine/src"),
    ];
    for src in crates {
        let edges = graph(&src);
        assert!(edges.len() > 5, "{}: no modules read", src.display());
        let found = circles(&edges);
        assert!(
            found.is_empty(),
            "{}: modules that import each other in a circle: {found:?}",
            src.display()
        );
    }
}

#[test]
fn the_circle_check_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("arbiter-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(
        dir.join("a/mod.rs"),
        "pub mod c;\n// crate::b::X in a comment\n",
    )
    .unwrap();
    std::fs::write(dir.join("a/c.rs"), "use crate::b::Thing;\n").unwrap();
    std::fs::write(dir.join("b.rs"), "fn f() { super::a::c::g(); }\n").unwrap();
    for n in ["d", "e", "f"] {
        std::fs::write(dir.join(format!("{n}.rs")), "").unwrap();
    }
    let found = circles(&graph(&dir));
    assert_eq!(found, vec![vec!["a::c".to_owned(), "b".to_owned()]]);
    // A test module's imports are not the module's.
    std::fs::write(
        dir.join("b.rs"),
        "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::super::a::c;\n}\n",
    )
    .unwrap();
    assert!(circles(&graph(&dir)).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
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
