//! The module tree of one crate as rustc finds it: from the crate's root
//! file through each `mod x;` (`x.rs` or `x/mod.rs`, or its `#[path]`) and
//! each inline `mod x { … }`, every file read whole. For each module: its
//! children, the items it defines, its `use` declarations (relative ones
//! and re-exports included) and the other paths its code names. Items
//! under `#[cfg(test)]` (a test module, a test-only `use` or function) are
//! left out, and only they: the production code after them is read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::lexer::{tokens, Token};

/// A module's path from the crate root (`[]` is the root).
pub type ModPath = Vec<String>;

/// One name (or glob) a `use` declaration brings in.
#[derive(Clone, Debug)]
pub struct Use {
    /// The path as written (`super`, `self`, `crate` kept; `::` first for
    /// a path from the extern prelude).
    pub path: Vec<String>,
    /// The name it binds (`None` for a glob).
    pub alias: Option<String>,
    /// A re-export (`pub use`, `pub(crate) use`): a way through to what it
    /// names, no import of the module's own.
    pub public: bool,
    pub line: usize,
}

/// A path of two or more segments in the code (`a::b::f`).
#[derive(Clone, Debug)]
pub struct Named {
    pub path: Vec<String>,
    pub line: usize,
}

/// One module of the crate.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The file its code is in (its parent's, for an inline module).
    pub file: PathBuf,
    /// Whether it has a file of its own (not an inline `mod x { … }`).
    pub own_file: bool,
    pub children: BTreeSet<String>,
    /// The names of what it defines: functions, types, traits, consts,
    /// statics, macros.
    pub items: BTreeSet<String>,
    pub uses: Vec<Use>,
    pub named: Vec<Named>,
}

/// A crate's modules, and what the walk could not read.
#[derive(Debug, Default)]
pub struct Crate {
    pub modules: BTreeMap<ModPath, Module>,
    /// The files of `#[cfg(test)] mod x;` modules (not read), and their
    /// folders.
    pub test_files: BTreeSet<PathBuf>,
    /// `mod x;` declarations with no file found: `(declaring file, x)`.
    pub missing: Vec<(PathBuf, String)>,
    /// `#[macro_export]` macros, at the crate's root by name: the module
    /// that defines each.
    pub exported_macros: BTreeMap<String, ModPath>,
}

impl Crate {
    /// Every file the walk read.
    pub fn files(&self) -> BTreeSet<&Path> {
        self.modules.values().map(|m| m.file.as_path()).collect()
    }
}

/// The crate whose root file is `root` (`lib.rs`, `main.rs`).
pub fn read_crate(root: &Path) -> Crate {
    let mut krate = Crate::default();
    let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut todo = vec![(Vec::new(), root.to_path_buf(), dir)];
    while let Some((path, file, child_dir)) = todo.pop() {
        let Ok(text) = std::fs::read_to_string(&file) else {
            krate.missing.push((file.clone(), path.join("::")));
            continue;
        };
        krate.modules.insert(
            path.clone(),
            Module {
                file: file.clone(),
                own_file: true,
                ..Module::default()
            },
        );
        read_file(&mut krate, &path, &file, &child_dir, &text, &mut todo);
    }
    krate
}

type Todo = Vec<(ModPath, PathBuf, PathBuf)>;

/// The folder where the file modules declared in `file` live: its own
/// folder for a crate root, a `mod.rs` or a `#[path]` file; `a/b/` for `a/b.rs`.
fn child_dir_of(file: &Path, mod_rs: bool) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
    if mod_rs || file.file_name().is_some_and(|n| n == "mod.rs") {
        dir
    } else {
        dir.join(file.file_stem().unwrap_or_default())
    }
}

/// Where `mod name;` declared in `file` (inside the inline modules
/// `inline`) finds its file, and the folder of that file's own children.
fn module_file(
    file: &Path,
    child_dir: &Path,
    inline: &[String],
    name: &str,
    path_attr: Option<&str>,
) -> (PathBuf, PathBuf) {
    let mut base = child_dir.to_path_buf();
    for part in inline {
        base.push(part);
    }
    if let Some(p) = path_attr {
        // why: a `#[path]` outside inline modules is relative to the
        // declaring file's folder, and its file owns that folder like a mod.rs.
        let at = if inline.is_empty() {
            file.parent().unwrap_or(Path::new(".")).join(p)
        } else {
            base.join(p)
        };
        let children = child_dir_of(&at, true);
        return (at, children);
    }
    let flat = base.join(format!("{name}.rs"));
    if flat.exists() {
        let children = child_dir_of(&flat, false);
        return (flat, children);
    }
    let nested = base.join(name).join("mod.rs");
    let children = child_dir_of(&nested, true);
    (nested, children)
}

/// Reads one file of module `path` into `krate`, queueing its file modules.
fn read_file(
    krate: &mut Crate,
    path: &ModPath,
    file: &Path,
    child_dir: &Path,
    text: &str,
    todo: &mut Todo,
) {
    let toks = tokens(text);
    let tok = |i: usize| toks.get(i).map(|(t, _)| t);
    let ident = |i: usize| match tok(i) {
        Some(Token::Ident(s)) => Some(s.as_str()),
        _ => None,
    };
    let punct = |i: usize, c: char| tok(i) == Some(&Token::Punct(c));
    // The scopes open here: the file's module, then its inline modules,
    // each with the brace depth its block opened at.
    let mut scopes: Vec<(ModPath, usize)> = vec![(path.clone(), 0)];
    let mut depth = 0usize;
    let mut test_item = false;
    let mut macro_export = false;
    let mut public = false;
    let mut path_attr: Option<String> = None;
    let mut i = 0;
    while i < toks.len() {
        let scope = scopes.last().map(|(p, _)| p.clone()).unwrap_or_default();
        let inline: Vec<String> = scope[path.len()..].to_vec();
        let line = toks[i].1;
        if punct(i, '#') {
            let inner = punct(i + 1, '!');
            let open = if inner { i + 2 } else { i + 1 };
            if !punct(open, '[') {
                i += 1;
                continue;
            }
            let close = matching(&toks, open);
            let attr = &toks[open + 1..close.min(toks.len())];
            if is_cfg_test(attr) {
                if inner && scopes.len() == 1 {
                    // `#![cfg(test)]`: the whole file is a test module.
                    krate.modules.remove(path);
                    krate.test_files.insert(file.to_path_buf());
                    return;
                }
                test_item = !inner;
            }
            if matches!(attr, [(Token::Ident(m), _)] if m == "macro_export") {
                macro_export = true;
            }
            if let [(Token::Ident(p), _), (Token::Punct('='), _), (Token::Str(s), _)] = attr {
                if p == "path" {
                    path_attr = Some(s.clone());
                }
            }
            i = close + 1;
            continue;
        }
        if test_item {
            test_item = false;
            // A test-only `mod x;`: its file is not production code.
            let mut j = i;
            if ident(j) == Some("pub") {
                j += 1;
                if punct(j, '(') {
                    j = matching(&toks, j) + 1;
                }
            }
            if ident(j) == Some("mod") && punct(j + 2, ';') {
                if let Some(name) = ident(j + 1) {
                    let (at, children) =
                        module_file(file, child_dir, &inline, name, path_attr.as_deref());
                    krate.test_files.insert(at);
                    krate.test_files.insert(children);
                }
            }
            path_attr = None;
            i = skip_item(&toks, i);
            continue;
        }
        if ident(i) == Some("pub") {
            public = true;
            i = if punct(i + 1, '(') {
                matching(&toks, i + 1) + 1
            } else {
                i + 1
            };
            continue;
        }
        let was_public = std::mem::take(&mut public);
        if ident(i) == Some("macro_rules") && punct(i + 1, '!') {
            if let Some(name) = ident(i + 2) {
                if std::mem::take(&mut macro_export) {
                    krate.exported_macros.insert(name.to_owned(), scope.clone());
                }
            }
        }
        let module = krate.modules.entry(scope.clone()).or_default();
        match &toks[i].0 {
            Token::Ident(word) if word == "mod" => {
                if let Some(name) = ident(i + 1) {
                    let mut child = scope.clone();
                    child.push(name.to_owned());
                    module.children.insert(name.to_owned());
                    if punct(i + 2, ';') {
                        let (at, children) =
                            module_file(file, child_dir, &inline, name, path_attr.as_deref());
                        todo.push((child, at, children));
                        i += 3;
                    } else if punct(i + 2, '{') {
                        krate.modules.insert(
                            child.clone(),
                            Module {
                                file: file.to_path_buf(),
                                own_file: false,
                                ..Module::default()
                            },
                        );
                        depth += 1;
                        scopes.push((child, depth));
                        i += 3;
                    } else {
                        i += 1;
                    }
                    path_attr = None;
                    continue;
                }
                i += 1;
            }
            Token::Ident(word) if word == "use" && !punct(i + 1, '<') => {
                let mut found = Vec::new();
                let end = use_tree(&toks, i + 1, Vec::new(), &mut found, line);
                module.uses.extend(found.into_iter().map(|u| Use {
                    public: was_public,
                    ..u
                }));
                i = end;
            }
            Token::Ident(word)
                if matches!(
                    word.as_str(),
                    "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union"
                ) =>
            {
                if let Some(name) = ident(i + 1) {
                    if name != "_" {
                        module.items.insert(name.to_owned());
                    }
                }
                i += 1;
            }
            Token::Ident(word) if word == "macro_rules" && punct(i + 1, '!') => {
                if let Some(name) = ident(i + 2) {
                    module.items.insert(name.to_owned());
                }
                i += 1;
            }
            Token::Ident(first) => {
                let after_sep = i > 0 && toks[i - 1].0 == Token::PathSep;
                let after_dollar = i > 0 && toks[i - 1].0 == Token::Punct('$');
                let mut segments = vec![first.clone()];
                let mut j = i + 1;
                while tok(j) == Some(&Token::PathSep) {
                    match ident(j + 1) {
                        Some(next) => segments.push(next.to_owned()),
                        None => break,
                    }
                    j += 2;
                }
                if segments.len() > 1 && !after_sep && !after_dollar {
                    module.named.push(Named {
                        path: segments,
                        line,
                    });
                }
                i = j;
            }
            Token::Punct('{') => {
                depth += 1;
                path_attr = None;
                i += 1;
            }
            Token::Punct('}') => {
                if scopes.len() > 1 && scopes.last().is_some_and(|(_, d)| *d == depth) {
                    scopes.pop();
                }
                depth = depth.saturating_sub(1);
                path_attr = None;
                i += 1;
            }
            Token::Punct(';') => {
                path_attr = None;
                i += 1;
            }
            _ => i += 1,
        }
    }
}

/// Whether an attribute's tokens (inside `#[…]`) are `cfg(test)` or
/// `cfg(all(test, …))`.
fn is_cfg_test(attr: &[(Token, usize)]) -> bool {
    let words: Vec<&Token> = attr.iter().map(|(t, _)| t).collect();
    let id = |s: &str| Token::Ident(s.to_owned());
    match words.as_slice() {
        [cfg, Token::Punct('('), test, Token::Punct(')')] => {
            **cfg == id("cfg") && **test == id("test")
        }
        [cfg, Token::Punct('('), all, Token::Punct('('), rest @ ..] => {
            **cfg == id("cfg") && **all == id("all") && {
                // `test` as a direct argument of `all(…)`.
                let mut depth = 0;
                rest.iter().any(|t| {
                    match t {
                        Token::Punct('(') => depth += 1,
                        Token::Punct(')') => depth -= 1,
                        _ => {}
                    }
                    depth == 0 && **t == id("test")
                })
            }
        }
        _ => false,
    }
}

/// The index of the bracket closing the one at `open` (`(`, `[` or `{`).
fn matching(toks: &[(Token, usize)], open: usize) -> usize {
    let mut depth = 0i32;
    for (k, (t, _)) in toks.iter().enumerate().skip(open) {
        match t {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The index after the item starting at `start`: after its `;`, or after
/// its first block at the item's level (`mod tests { … }`, `fn f() { … }`).
fn skip_item(toks: &[(Token, usize)], start: usize) -> usize {
    let mut k = start;
    while k < toks.len() {
        match toks[k].0 {
            Token::Punct(';') => return k + 1,
            Token::Punct('{') => return matching(toks, k) + 1,
            Token::Punct('(' | '[') => k = matching(toks, k) + 1,
            _ => k += 1,
        }
    }
    k
}

/// Reads the use tree starting at `i` (after `use` or inside its braces),
/// under `prefix`; returns the index after it (after the `;` at the top).
fn use_tree(
    toks: &[(Token, usize)],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<Use>,
    line: usize,
) -> usize {
    let top = prefix.is_empty();
    let mut path = prefix;
    let at = |i: usize| toks.get(i).map(|(t, _)| t);
    if at(i) == Some(&Token::PathSep) {
        // why a marker: `::x` is an extern crate, never a module of this one.
        path.push("::".to_owned());
        i += 1;
    }
    loop {
        match at(i) {
            Some(Token::Ident(name)) if name != "as" => {
                path.push(name.clone());
                i += 1;
                if at(i) == Some(&Token::PathSep) {
                    i += 1;
                    continue;
                }
                break;
            }
            Some(Token::Punct('*')) => {
                out.push(Use {
                    path,
                    alias: None,
                    public: false,
                    line,
                });
                return finish(toks, i + 1, top);
            }
            Some(Token::Punct('{')) => {
                i += 1;
                while i < toks.len() && at(i) != Some(&Token::Punct('}')) {
                    i = use_tree(toks, i, path.clone(), out, line);
                    if at(i) == Some(&Token::Punct(',')) {
                        i += 1;
                    }
                }
                return finish(toks, i + 1, top);
            }
            _ => break,
        }
    }
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    let mut alias = path.last().cloned();
    if at(i) == Some(&Token::Ident("as".to_owned())) {
        if let Some(Token::Ident(name)) = at(i + 1) {
            alias = Some(name.clone());
        }
        i += 2;
    }
    if !path.is_empty() {
        out.push(Use {
            path,
            alias,
            public: false,
            line,
        });
    }
    finish(toks, i, top)
}

/// After a use tree: at the top, past the `;`; inside braces, where it is.
fn finish(toks: &[(Token, usize)], mut i: usize, top: bool) -> usize {
    if top {
        while i < toks.len() && toks[i].0 != Token::Punct(';') {
            i += 1;
        }
        i += 1;
    }
    i
}
