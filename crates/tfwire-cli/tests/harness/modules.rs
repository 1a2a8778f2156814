//! The modules of the CLI and of the library crates under it form no cycle:
//! every `crate::NAME` a module of a crate's `src/` names is an edge from that module to
//! NAME, and the graph of the top-level modules must be acyclic, so that each module can be
//! read knowing only the ones below it. (tfwire itself is not checked yet: its `decode`,
//! `program` and `schema` modules still use each other.)

use crate::common::repo;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules each top-level module of `crates/<krate>/src/` uses (the root,
/// `main.rs` or `lib.rs`, left out: it declares them all).
fn edges(krate: &str) -> BTreeMap<String, BTreeSet<String>> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = repo().join("crates").join(krate).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let module = |p: &Path| -> String {
        let rel = p.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        first.trim_end_matches(".rs").to_string()
    };
    let modules: BTreeSet<String> = files.iter().map(|p| module(p)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module(file);
        if from == "main" || from == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                // `crate::{a, b::{c, d}, e}`: the first name of each item at depth one.
                let (mut depth, mut start, mut names) = (0usize, 0usize, Vec::new());
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            names.push(&group[start..i]);
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            names.push(&group[start..i]);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                names
            } else {
                vec![rest]
            };
            for name in names {
                let name: String = name
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if modules.contains(&name) && name != from {
                    graph.entry(from.clone()).or_default().insert(name);
                }
            }
        }
    }
    graph
}

#[test]
fn cli_modules_are_acyclic() {
    let graph = edges("tfwire-cli");
    // The edges the issue named must be gone, and the graph must still see real ones.
    assert!(graph.get("plan").is_some_and(|e| e.contains("markdown")));
    assert!(!graph.get("markdown").is_some_and(|e| e.contains("plan")));
    assert_acyclic(&graph);
}

#[test]
fn library_modules_are_acyclic() {
    let plan = edges("tfwire-plan");
    // The cycle the issue named (filter <-> summary) is gone; the graph sees real edges.
    assert!(plan.get("filter").is_some_and(|e| e.contains("summary")));
    assert!(!plan.get("summary").is_some_and(|e| e.contains("filter")));
    for krate in [
        "tfwire-plan",
        "tfwire-planfile",
        "tfwire-plugin",
        "tfwire-msgpack",
        "tfwire-json",
    ] {
        let graph = edges(krate);
        assert!(!graph.is_empty(), "{krate}: no module edges found");
        assert_acyclic(&graph);
    }
}

/// Panics naming a cycle of `graph`, if it has one.
fn assert_acyclic(graph: &BTreeMap<String, BTreeSet<String>>) {
    // Depth-first search for a back edge.
    fn visit<'g>(
        node: &'g str,
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'g str>,
        done: &mut BTreeSet<&'g str>,
    ) -> Result<(), String> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            return Err(format!("{} -> {node}", path[at..].join(" -> ")));
        }
        if done.contains(node) {
            return Ok(());
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, path, done)?;
        }
        path.pop();
        done.insert(node);
        Ok(())
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Err(cycle) = visit(node, graph, &mut Vec::new(), &mut done) {
            panic!("module cycle: {cycle}\nedges: {graph:#?}");
        }
    }
}
