//! The checks, each returning what it found wrong as one message a finding (empty: it holds).

use crate::lex::{self, Kind, Token};
use crate::manifest::{DepKind, Manifest};
use crate::modules;
use crate::workspace::{self, Layer, Workspace};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The most lines of code `crates/tfwire-cli/src` may hold outside `#[cfg(test)]` items
/// (blank and comment lines aside).
pub const CLI_MAX_LINES: usize = 5_500;

/// The one crate that may have simd-json among its `[dependencies]` (tools aside).
pub const SIMD_JSON_OWNER: &str = "tfwire-json";

/// Every module cycle of every member crate, each as its crate and the edges around it with
/// the file, line and path that make each edge.
pub fn module_cycles(ws: &Workspace) -> Vec<String> {
    let mut out = Vec::new();
    for c in &ws.crates {
        let graph = match modules::graph(&ws.root.join(&c.dir)) {
            Ok(g) => g,
            Err(e) => {
                out.push(format!("{}: cannot read its sources: {e}", c.dir));
                continue;
            }
        };
        for (cycle, component) in modules::cycles(&graph) {
            let mut text = format!("{}: module cycle:\n    {}", c.dir, cycle.join("\n    "));
            if component.len() > cycle.len() {
                let all: Vec<&str> = component.iter().map(String::as_str).collect();
                text.push_str(&format!("\n  (one of the cycles among {})", all.join(", ")));
            }
            out.push(text);
        }
    }
    out
}

/// The layer of each member (by directory) from the README's layout table, and what is wrong
/// with the table: a member missing or without a layer, a crate row that is no member.
pub fn layers(ws: &Workspace, readme: &str) -> (BTreeMap<String, Layer>, Vec<String>) {
    let mut found = Vec::new();
    let rows = match workspace::layout_table(readme) {
        Ok(rows) => rows,
        Err(e) => return (BTreeMap::new(), vec![e]),
    };
    let mut layers = BTreeMap::new();
    for c in &ws.crates {
        match rows.iter().find(|r| r.path == c.dir) {
            Some(workspace::Row {
                layer: Some(layer), ..
            }) => {
                layers.insert(c.dir.clone(), *layer);
            }
            Some(row) => found.push(format!(
                "README.md:{}: `{}` ({}) has no layer in the layout table",
                row.line, c.dir, c.name
            )),
            None => found.push(format!(
                "README.md: `{}` ({}) is a workspace member missing from the layout table",
                c.dir, c.name
            )),
        }
    }
    for row in &rows {
        // A workspace of its own (the cargo-fuzz crate) is no member but may have a row.
        let own_workspace = crate::manifest::read(&ws.root.join(&row.path).join("Cargo.toml"))
            .is_ok_and(|m| !m.members.is_empty());
        if row.layer.is_some() && !own_workspace && !ws.crates.iter().any(|c| c.dir == row.path) {
            found.push(format!(
                "README.md:{}: the layout table lists `{}` ({}), which is not a workspace member",
                row.line,
                row.path,
                row.layer.map_or(String::new(), |l| l.to_string())
            ));
        }
    }
    if let Ok(entries) = std::fs::read_dir(ws.root.join("crates")) {
        let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        dirs.sort();
        for dir in dirs {
            let rel = format!(
                "crates/{}",
                dir.file_name().unwrap_or_default().to_string_lossy()
            );
            if dir.join("Cargo.toml").exists() && !ws.crates.iter().any(|c| c.dir == rel) {
                found.push(format!(
                    "`{rel}` has a Cargo.toml but is not a workspace member"
                ));
            }
        }
    }
    (layers, found)
}

/// The layout table's problems, then every `[dependencies]` or `[build-dependencies]` entry
/// on a workspace crate that does not go to a strictly lower layer (tools may depend on
/// anything; nothing depends on a tool but through `[dev-dependencies]`).
pub fn layering(ws: &Workspace, readme: &str) -> Vec<String> {
    let (layers, mut found) = layers(ws, readme);
    for c in &ws.crates {
        let Some(&from) = layers.get(&c.dir) else {
            continue;
        };
        for dep in c.manifest.deps.iter().filter(|d| d.kind != DepKind::Dev) {
            let Some(target) = ws.member_dep(c, dep) else {
                continue;
            };
            let Some(&to) = layers.get(&target.dir) else {
                continue;
            };
            let at = format!("{}/Cargo.toml:{}", c.dir, dep.line);
            match (from, to) {
                (Layer::Tools, _) => {}
                (_, Layer::Tools) => found.push(format!(
                    "{at}: {} ({from}) depends on the tool {} in {}; only [dev-dependencies] may",
                    c.name,
                    target.name,
                    dep.kind.table()
                )),
                (Layer::Level(a), Layer::Level(b)) if b >= a => found.push(format!(
                    "{at}: {} ({from}) depends on {} ({to}) in {}; a crate depends only on lower layers",
                    c.name,
                    target.name,
                    dep.kind.table()
                )),
                _ => {}
            }
        }
    }
    found
}

/// The crate names the tokens use: `name::…`, `use name`, `extern crate name`.
fn crate_names<'a>(tokens: &[Token<'a>], out: &mut BTreeSet<&'a str>) {
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Ident {
            continue;
        }
        let prev = i.checked_sub(1).map(|p| tokens[p]);
        // `a::name` and `x.name` are not crate names; `::name` (a global path) is.
        let global = prev.is_some_and(|p| p.kind == Kind::PathSep)
            && (i < 2 || {
                let before = tokens[i - 2];
                let keyword = matches!(before.text, "use" | "dyn" | "impl" | "as" | "in" | "for");
                keyword || !(before.kind == Kind::Ident || before.is(">"))
            });
        if !global && prev.is_some_and(|p| p.kind == Kind::PathSep || p.is(".")) {
            continue;
        }
        let path = tokens.get(i + 1).is_some_and(|n| n.kind == Kind::PathSep);
        let used = prev.is_some_and(|p| p.is("use"))
            || (prev.is_some_and(|p| p.is("crate")) && i >= 2 && tokens[i - 2].is("extern"));
        if path || used {
            out.insert(t.text);
        }
    }
}

/// The crate names used by the code of the files, split: outside `#[cfg(test)]` items, inside.
fn names_in(files: &[std::path::PathBuf]) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut code, mut test) = (BTreeSet::new(), BTreeSet::new());
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let lexed = lex::lex(&text);
        let split = lex::split_tests(&lexed.tokens);
        let (mut c, mut t) = (BTreeSet::new(), BTreeSet::new());
        crate_names(&split.code, &mut c);
        crate_names(&split.test, &mut t);
        code.extend(c.into_iter().map(str::to_string));
        test.extend(t.into_iter().map(str::to_string));
    }
    (code, test)
}

/// Every dependency a crate's code never names: `[dependencies]` in `src/` outside
/// `#[cfg(test)]` items (and the manifest's `[[bin]]`, `[[bench]]`, `[[example]]` files),
/// `[build-dependencies]` in `build.rs`, `[dev-dependencies]` in `tests/`, `benches/`,
/// `examples/` and the `#[cfg(test)]` items of `src/`. An entry kept for its effect alone
/// carries a `# unused-ok: REASON` comment line just above it; the marker on an entry the code
/// names is reported too.
pub fn unused_dependencies(ws: &Workspace) -> Vec<String> {
    let mut manifests: Vec<(String, Manifest)> = ws
        .crates
        .iter()
        .map(|c| (c.dir.clone(), c.manifest.clone()))
        .collect();
    if let Ok(m) = crate::manifest::read(&ws.root.join("fuzz/Cargo.toml")) {
        manifests.push(("fuzz".into(), m));
    }
    let mut found = Vec::new();
    for (dir, m) in manifests {
        let base = ws.root.join(&dir);
        let (src_code, src_test) = names_in(&modules::rust_files(&base.join("src")));
        let mut normal = src_code;
        let targets: Vec<_> = m.targets.iter().map(|t| base.join(t)).collect();
        normal.extend(names_in(&targets).0);
        let mut dev = src_test;
        for d in ["tests", "benches", "examples"] {
            let (c, t) = names_in(&modules::rust_files(&base.join(d)));
            dev.extend(c);
            dev.extend(t);
        }
        let build_rs = base.join(m.build.as_deref().unwrap_or("build.rs"));
        let (b, bt) = names_in(&[build_rs]);
        let build: BTreeSet<String> = b.union(&bt).cloned().collect();
        for dep in &m.deps {
            let name = dep.key.replace('-', "_");
            let (names, sites) = match dep.kind {
                DepKind::Normal => (&normal, "src/ (outside #[cfg(test)] items)"),
                DepKind::Dev => (
                    &dev,
                    "tests/, benches/, examples/ or src/'s #[cfg(test)] items",
                ),
                DepKind::Build => (&build, "build.rs"),
            };
            let at = format!("{dir}/Cargo.toml:{}", dep.line);
            let used = names.contains(&name);
            match (&dep.unused_ok, used) {
                (None, false) => found.push(format!(
                    "{at}: {} {} is never named in {sites}: remove it, or say why it stays on a line `# unused-ok: REASON` just above it",
                    dep.kind.table(),
                    dep.key
                )),
                (Some(_), true) => found.push(format!(
                    "{at}: {} {} is marked `# unused-ok` but is named in {sites}: remove the marker",
                    dep.kind.table(),
                    dep.key
                )),
                _ => {}
            }
        }
    }
    found
}

/// Lines of code of `text` outside `#[cfg(test)]` items: lines that are not blank, not a
/// `//` comment and not inside a `/* */` comment.
pub fn lines_outside_tests(text: &str) -> usize {
    let lexed = lex::lex(text);
    let split = lex::split_tests(&lexed.tokens);
    let mut skipped = BTreeSet::new();
    for (a, b) in split.test_lines {
        skipped.extend(a..=b);
    }
    for c in lexed.comments.iter().filter(|c| c.text.starts_with("/*")) {
        let last = c.line + c.text.matches('\n').count();
        skipped.extend(c.line..=last);
    }
    text.lines()
        .enumerate()
        .filter(|(n, line)| {
            let t = line.trim();
            !(t.is_empty() || t.starts_with("//") || skipped.contains(&(n + 1)))
        })
        .count()
}

/// The lines of code of `crates/tfwire-cli/src` outside `#[cfg(test)]` items (see
/// [`lines_outside_tests`]), and a finding if there are more than [`CLI_MAX_LINES`].
pub fn cli_size(root: &Path) -> (usize, Vec<String>) {
    source_size(root, "crates/tfwire-cli/src", CLI_MAX_LINES)
}

/// The lines of code of the `.rs` files under `root/dir` outside `#[cfg(test)]` items (see
/// [`lines_outside_tests`]), and a finding naming the largest files if there are more than
/// `max`.
pub fn source_size(root: &Path, dir: &str, max: usize) -> (usize, Vec<String>) {
    let mut per_file: Vec<(usize, String)> = modules::rust_files(&root.join(dir))
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let rel = f.strip_prefix(root).unwrap_or(f).display().to_string();
            (lines_outside_tests(&text), rel)
        })
        .collect();
    let total = per_file.iter().map(|(n, _)| n).sum();
    if total <= max {
        return (total, Vec::new());
    }
    per_file.sort_by(|a, b| b.cmp(a));
    let largest: Vec<String> = per_file
        .iter()
        .take(8)
        .map(|(n, f)| format!("{f} {n}"))
        .collect();
    let finding = format!(
        "{dir} holds {total} lines of code outside #[cfg(test)] items, more than {max}; the largest files: {}",
        largest.join(", ")
    );
    (total, vec![finding])
}

/// Every crate but tfwire-json (and the tools) with simd-json among its `[dependencies]`.
pub fn simd_json_owner(ws: &Workspace, readme: &str) -> Vec<String> {
    let (layers, _) = layers(ws, readme);
    let mut found = Vec::new();
    for c in &ws.crates {
        if c.name == SIMD_JSON_OWNER || layers.get(&c.dir) == Some(&Layer::Tools) {
            continue;
        }
        for dep in &c.manifest.deps {
            if dep.kind == DepKind::Normal && dep.package == "simd-json" {
                found.push(format!(
                    "{}/Cargo.toml:{}: {} has simd-json among its [dependencies]; only {SIMD_JSON_OWNER} may",
                    c.dir, dep.line, c.name
                ));
            }
        }
    }
    found
}
