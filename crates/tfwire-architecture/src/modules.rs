//! The module graph of one crate and its cycles.
//!
//! Nodes are the files of `src/` (`a.rs` and `a/mod.rs` are module `a`, `a/b.rs` is `a::b`),
//! the crate roots left out (`lib.rs`, `main.rs`, `src/bin/**`: they declare and re-export).
//! Outside `#[cfg(test)]` items and comments, every path `crate::…`, `$crate::…`, `super::…`,
//! `self::…`, and every path starting with the name of one of the file's own child modules,
//! is an edge from the file to the deepest module the path names. `mod x;` declarations are
//! not edges, nor are the `pub use` / `pub(crate) use` re-exports of a file that has child
//! modules (a `mod.rs`, or `a.rs` beside `a/`).

use crate::lex::{self, Kind, Token};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where an edge comes from: the file, the line and the path written there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The file, relative to the crate's directory.
    pub file: String,
    /// Its line, from 1.
    pub line: usize,
    /// The path as written (`crate::a::b`).
    pub path: String,
}

/// A crate's module graph: each module's edges, with the first place each is written.
#[derive(Debug, Default)]
pub struct Graph {
    /// Every module (node), named `a::b`.
    pub modules: BTreeSet<String>,
    /// The edges: from, to, where.
    pub edges: BTreeMap<String, BTreeMap<String, Evidence>>,
}

/// The module path of a file of `src/` (`None` for a crate root).
fn module_of(rel: &Path) -> Option<Vec<String>> {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [root] if root == "lib.rs" || root == "main.rs" => return None,
        [bin, ..] if bin == "bin" => return None,
        _ => {}
    }
    let mut module = parts;
    let last = module.pop()?;
    if last != "mod.rs" {
        module.push(last.strip_suffix(".rs")?.to_string());
    }
    Some(module)
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// Reads the module graph of the crate in `krate` (its `src/`).
pub fn graph(krate: &Path) -> std::io::Result<Graph> {
    let src = krate.join("src");
    let mut files = Vec::new();
    for path in rust_files(&src) {
        let rel = path.strip_prefix(&src).unwrap_or(&path).to_path_buf();
        if let Some(module) = module_of(&rel) {
            files.push((path, module));
        }
    }
    let mut g = Graph::default();
    for (_, m) in &files {
        g.modules.insert(m.join("::"));
    }
    for (path, module) in &files {
        let text = std::fs::read_to_string(path)?;
        let shown = path
            .strip_prefix(krate)
            .unwrap_or(path)
            .display()
            .to_string();
        file_edges(&text, module, &shown, &mut g);
    }
    Ok(g)
}

/// Adds the edges of one file (module `module`) to `g`.
fn file_edges(text: &str, module: &[String], shown: &str, g: &mut Graph) {
    let lexed = lex::lex(text);
    let split = lex::split_tests(&lexed.tokens);
    let name = module.join("::");
    let prefix = format!("{name}::");
    let children: BTreeSet<&str> = g
        .modules
        .iter()
        .filter_map(|m| m.strip_prefix(&prefix))
        .filter(|rest| !rest.contains("::"))
        .collect();
    let tokens = if children.is_empty() {
        split.code
    } else {
        without_reexports(&split.code)
    };
    let mut found = Vec::new();
    // Inline `mod name { … }` blocks: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
        } else if t.is("mod")
            && tokens.get(i + 1).is_some_and(|n| n.kind == Kind::Ident)
            && tokens.get(i + 2).is_some_and(|b| b.is("{"))
        {
            inline.push((tokens[i + 1].text.to_string(), depth + 1));
        }
        let starts_path = t.kind == Kind::Ident
            && tokens.get(i + 1).is_some_and(|s| s.kind == Kind::PathSep)
            && !(i > 0 && (tokens[i - 1].kind == Kind::PathSep || tokens[i - 1].is(".")));
        let child = inline.is_empty() && children.contains(t.text);
        if starts_path && (matches!(t.text, "crate" | "super" | "self") || child) {
            let mut current: Vec<String> = module.to_vec();
            current.extend(inline.iter().map(|(n, _)| n.clone()));
            let (paths, next) = use_tree(&tokens, i);
            for path in paths {
                let written = path.join("::");
                let written = if i > 0 && tokens[i - 1].is("$") {
                    format!("${written}")
                } else {
                    written
                };
                if let Some(target) = resolve(&path, &current, child, &g.modules)
                    && target != name
                    && !target.is_empty()
                {
                    found.push((target, t.line, written));
                }
            }
            i = next;
            continue;
        }
        i += 1;
    }
    let edges = g.edges.entry(name).or_default();
    for (target, line, path) in found {
        edges.entry(target).or_insert(Evidence {
            file: shown.to_string(),
            line,
            path,
        });
    }
}

/// `tokens` without the `pub use …;` and `pub(crate) use …;` statements.
fn without_reexports<'a>(tokens: &[Token<'a>]) -> Vec<Token<'a>> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i..];
        let skip = if t.len() > 1 && t[0].is("pub") && t[1].is("use") {
            Some(i + 2)
        } else if t.len() > 4
            && t[0].is("pub")
            && t[1].is("(")
            && t[2].is("crate")
            && t[3].is(")")
            && t[4].is("use")
        {
            Some(i + 5)
        } else {
            None
        };
        if let Some(mut j) = skip {
            while j < tokens.len() && !tokens[j].is(";") {
                j += 1;
            }
            i = j + 1;
            continue;
        }
        out.push(tokens[i]);
        i += 1;
    }
    out
}

/// The paths a path or `use` tree starting at `i` names (`a::{b, c::{d, self}}` names `a::b`,
/// `a::c::d` and `a::c`), and the index just past it.
fn use_tree(t: &[Token<'_>], i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let mut j = i;
    loop {
        match t.get(j) {
            Some(tok) if tok.kind == Kind::Ident => {
                if tok.text != "self" || prefix.is_empty() {
                    prefix.push(tok.text.to_string());
                }
                if t.get(j + 1).is_some_and(|s| s.kind == Kind::PathSep) {
                    j += 2;
                } else {
                    return (vec![prefix], j + 1);
                }
            }
            Some(tok) if tok.is("{") => {
                let end = lex::close(t, j);
                let mut out = Vec::new();
                let mut k = j + 1;
                while k < end {
                    if t[k].kind == Kind::Ident && t[k].text != "as" {
                        let (subs, next) = use_tree(t, k);
                        for sub in subs {
                            let mut p = prefix.clone();
                            p.extend(sub.into_iter().filter(|s| s != "self"));
                            out.push(p);
                        }
                        k = next;
                        // Skip a rename.
                        if t.get(k).is_some_and(|a| a.is("as")) {
                            k += 2;
                        }
                    } else if t[k].is("{") {
                        let (subs, next) = use_tree(t, k);
                        for sub in subs {
                            let mut p = prefix.clone();
                            p.extend(sub);
                            out.push(p);
                        }
                        k = next;
                    } else {
                        k += 1;
                    }
                }
                if out.is_empty() {
                    out.push(prefix);
                }
                return (out, end + 1);
            }
            _ => return (vec![prefix], j),
        }
    }
}

/// The deepest module of `modules` the path names, relative to the module `current` (`""` for
/// the crate root), or `None` if it leaves the crate.
fn resolve(
    path: &[String],
    current: &[String],
    child: bool,
    modules: &BTreeSet<String>,
) -> Option<String> {
    let mut full: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            full = current.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            full = current.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                full.pop()?;
                rest = &rest[1..];
            }
        }
        _ if child => full = current.to_vec(),
        _ => return None,
    }
    full.extend(rest.iter().cloned());
    let mut best = String::new();
    for n in 1..=full.len() {
        let name = full[..n].join("::");
        if modules.contains(&name) {
            best = name;
        }
    }
    Some(best)
}

/// The cycles of `g`: one per strongly connected component of more than one module, each as
/// lines `a -> b (src/a.rs:3: crate::b::f)` starting and ending at the same module, with the
/// modules of its component.
pub fn cycles(g: &Graph) -> Vec<(Vec<String>, BTreeSet<String>)> {
    let mut out = Vec::new();
    for scc in components(g) {
        if scc.len() < 2 {
            continue;
        }
        let start = scc.iter().next().cloned().unwrap_or_default();
        // Breadth-first search from `start` back to it, inside the component.
        let mut back: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        'search: while let Some(node) = queue.pop_front() {
            for next in g.edges.get(&node).into_iter().flat_map(BTreeMap::keys) {
                if !scc.contains(next) {
                    continue;
                }
                if *next == start {
                    back.insert(start.clone(), node.clone());
                    break 'search;
                }
                if !back.contains_key(next) {
                    back.insert(next.clone(), node.clone());
                    queue.push_back(next.clone());
                }
            }
        }
        let mut chain = vec![start.clone()];
        let mut node = back.get(&start).cloned().unwrap_or_default();
        while node != start && chain.len() <= scc.len() {
            chain.push(node.clone());
            node = back.get(&node).cloned().unwrap_or_default();
        }
        chain.push(start.clone());
        chain.reverse();
        let lines = chain
            .windows(2)
            .map(|w| {
                let e = &g.edges[&w[0]][&w[1]];
                format!("{} -> {} ({}:{}: {})", w[0], w[1], e.file, e.line, e.path)
            })
            .collect();
        out.push((lines, scc));
    }
    out
}

/// The strongly connected components of `g` (Tarjan's algorithm).
fn components(g: &Graph) -> Vec<BTreeSet<String>> {
    struct State<'g> {
        g: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let g = s.g;
        for w in g.edges.get(v).into_iter().flat_map(BTreeMap::keys) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                scc.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            s.out.push(scc);
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in &g.modules {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}
