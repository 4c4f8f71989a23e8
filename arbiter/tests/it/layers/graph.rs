//! A crate's import graph: every `use` and every path in its code resolved
//! as rustc would (from `crate`, `super`, `self`, a child module or a name
//! the module imports), through re-exports (`pub use hub::LiveHub` leads to
//! `hub`) and globs, to the module that defines what is named; an edge from
//! each file module to each other file module it takes something from. Its
//! circles are the strongly connected components of more than one module.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

use super::tree::{Crate, ModPath};

/// What a path names: a module, or an item defined in a module.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    Module(ModPath),
    Item(ModPath),
}

/// Where an edge was seen: the file, the line, the path as written.
#[derive(Clone, Debug)]
pub struct Seen {
    pub file: PathBuf,
    pub line: usize,
    pub path: String,
}

/// Edges between file modules, each with where it was first seen.
pub type Edges = BTreeMap<ModPath, BTreeMap<ModPath, Seen>>;

// why a bound: `use a::b as a;` and friends must not recurse forever.
const MAX_DEPTH: usize = 32;

fn resolve(krate: &Crate, scope: &ModPath, segments: &[String], depth: usize) -> Option<Target> {
    if depth > MAX_DEPTH || segments.is_empty() {
        return None;
    }
    let (mut at, rest) = match segments[0].as_str() {
        "crate" => (Vec::new(), &segments[1..]),
        "self" => (scope.clone(), &segments[1..]),
        "super" => {
            let mut at = scope.clone();
            let mut k = 0;
            while segments.get(k).is_some_and(|s| s == "super") {
                at.pop()?;
                k += 1;
            }
            (at, &segments[k..])
        }
        "::" => return None,
        first => match lookup(krate, scope, first, depth + 1)? {
            Target::Module(m) => (m, &segments[1..]),
            item => return Some(item),
        },
    };
    for segment in rest {
        match lookup(krate, &at, segment, depth + 1) {
            Some(Target::Module(m)) => at = m,
            Some(item) => return Some(item),
            // why: a name no declaration shows (made by a macro) is still
            // the module's.
            None => return Some(Target::Item(at)),
        }
    }
    Some(Target::Module(at))
}

/// What `name` is in module `at`: a child module, a name it imports (followed
/// to where that is defined), an item it defines, or one of its globs'.
fn lookup(krate: &Crate, at: &ModPath, name: &str, depth: usize) -> Option<Target> {
    if depth > MAX_DEPTH {
        return None;
    }
    let module = krate.modules.get(at)?;
    if module.children.contains(name) {
        let mut child = at.clone();
        child.push(name.to_owned());
        return Some(Target::Module(child));
    }
    for import in &module.uses {
        if import.alias.as_deref() == Some(name) {
            if let Some(found) = resolve(krate, at, &import.path, depth + 1) {
                return Some(found);
            }
        }
    }
    if module.items.contains(name) {
        return Some(Target::Item(at.clone()));
    }
    if at.is_empty() {
        if let Some(home) = krate.exported_macros.get(name) {
            return Some(Target::Item(home.clone()));
        }
    }
    for import in module.uses.iter().filter(|u| u.alias.is_none()) {
        if let Some(Target::Module(glob)) = resolve(krate, at, &import.path, depth + 1) {
            if &glob != at {
                if let Some(found) = lookup(krate, &glob, name, depth + 1) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// The module whose file holds `at` (itself, or the nearest ancestor with a
/// file of its own).
fn file_module(krate: &Crate, at: &ModPath) -> ModPath {
    let mut at = at.clone();
    while !at.is_empty() && !krate.modules.get(&at).is_some_and(|m| m.own_file) {
        at.pop();
    }
    at
}

/// The crate's edges: from each file module to each other one it takes an
/// item from (naming a module alone is no edge; a glob of one is; a
/// re-export is none, its users' paths lead through it).
pub fn edges(krate: &Crate) -> Edges {
    let mut edges = Edges::new();
    for (at, module) in &krate.modules {
        let from = file_module(krate, at);
        let mut add = |target: Option<Target>, glob: bool, line: usize, path: &[String]| {
            let to = match target {
                Some(Target::Item(m)) => m,
                Some(Target::Module(m)) if glob => m,
                _ => return,
            };
            let to = file_module(krate, &to);
            if to != from {
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| Seen {
                        file: module.file.clone(),
                        line,
                        path: path.join("::"),
                    });
            }
        };
        // why not re-exports: `pub use hub::LiveHub` is a way through to
        // `hub`, which those who name `live::LiveHub` take from.
        for import in module.uses.iter().filter(|u| !u.public) {
            let target = resolve(krate, at, &import.path, 0);
            add(target, import.alias.is_none(), import.line, &import.path);
        }
        for named in &module.named {
            add(
                resolve(krate, at, &named.path, 0),
                false,
                named.line,
                &named.path,
            );
        }
        edges.entry(from.clone()).or_default();
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan),
/// each sorted, as `a::b` names (the root is `crate`).
pub fn circles(edges: &Edges) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        found: Vec<Vec<ModPath>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flat_map(|m| m.keys()) {
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
                component.push(w.clone());
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
    state.found.sort();
    state.found
}

/// A module's name for people: `a::b`, or `crate` for the root.
pub fn name(at: &ModPath) -> String {
    if at.is_empty() {
        "crate".to_owned()
    } else {
        at.join("::")
    }
}

/// One shortest way round `circle` from its first module, an edge a line:
/// `a -> b  (file:line `path`)`.
pub fn way_round(edges: &Edges, circle: &[ModPath]) -> Vec<String> {
    let members: BTreeSet<&ModPath> = circle.iter().collect();
    let Some(start) = circle.first() else {
        return Vec::new();
    };
    let mut came_from: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    let mut last = None;
    'search: while let Some(v) = queue.pop_front() {
        for w in edges.get(v).into_iter().flat_map(|m| m.keys()) {
            if !members.contains(w) {
                continue;
            }
            if w == start {
                last = Some(v);
                break 'search;
            }
            if !came_from.contains_key(w) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    let mut way = vec![start];
    let mut at = last;
    while let Some(v) = at {
        if v == start {
            break;
        }
        way.push(v);
        at = came_from.get(v).copied();
    }
    way.push(start);
    let end = way.len() - 1;
    way[1..end].reverse();
    way.windows(2)
        .map(|pair| {
            let seen = &edges[pair[0]][pair[1]];
            format!(
                "{} -> {}  ({}:{} `{}`)",
                name(pair[0]),
                name(pair[1]),
                seen.file.display(),
                seen.line,
                seen.path
            )
        })
        .collect()
}
