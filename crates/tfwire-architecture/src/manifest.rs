//! The parts of a `Cargo.toml` the checks read, by a line reader for the subset of TOML cargo
//! manifests use here (tables, `key = value`, dotted keys, one-line inline tables, arrays that
//! may span lines).

use std::path::Path;

/// Which dependency table an entry is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKind {
    /// `[dependencies]` (or a target's).
    Normal,
    /// `[dev-dependencies]` (or a target's).
    Dev,
    /// `[build-dependencies]` (or a target's).
    Build,
}

impl DepKind {
    /// The table's name.
    pub fn table(self) -> &'static str {
        match self {
            DepKind::Normal => "[dependencies]",
            DepKind::Dev => "[dev-dependencies]",
            DepKind::Build => "[build-dependencies]",
        }
    }
}

/// One dependency entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dep {
    /// The table it is in.
    pub kind: DepKind,
    /// Its key (the name the code uses, `-` for `_`).
    pub key: String,
    /// The package it names (`package = …`, else the key).
    pub package: String,
    /// `workspace = true`.
    pub workspace: bool,
    /// Its `path`, if any.
    pub path: Option<String>,
    /// The reason of a `# unused-ok: REASON` comment line in the comments just above it.
    pub unused_ok: Option<String>,
    /// Its line in the manifest, from 1.
    pub line: usize,
}

/// What the checks read of a manifest.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    /// `[package] name`.
    pub name: Option<String>,
    /// `[package] build`, if set.
    pub build: Option<String>,
    /// The dependency entries, in order.
    pub deps: Vec<Dep>,
    /// `[workspace] members`.
    pub members: Vec<String>,
    /// `[workspace.dependencies]` entries (with their `path`).
    pub workspace_deps: Vec<Dep>,
    /// The source files of `[[bin]]`, `[[bench]]`, `[[example]]` targets (`path`, or the
    /// conventional file of a `[[bench]]`/`[[example]]` named without one).
    pub targets: Vec<String>,
}

/// Reads `path`.
pub fn read(path: &Path) -> std::io::Result<Manifest> {
    Ok(parse(&std::fs::read_to_string(path)?))
}

/// `line` without a `#` comment outside strings, trimmed.
fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_str = !in_str,
            '#' if !in_str => return line[..i].trim(),
            _ => {}
        }
    }
    line.trim()
}

/// The string value of `key = "…"` inside an inline table or after `=`.
fn string_field(value: &str, key: &str) -> Option<String> {
    let mut rest = value;
    while let Some(at) = rest.find(key) {
        let before = rest[..at].chars().last();
        let after = rest[at + key.len()..].trim_start();
        if before.is_none_or(|c| c == '{' || c == ',' || c.is_whitespace())
            && let Some(v) = after.strip_prefix('=')
            && let Some(v) = v.trim_start().strip_prefix('"')
        {
            return v.find('"').map(|end| v[..end].to_string());
        }
        rest = &rest[at + key.len()..];
    }
    None
}

/// Whether `key = true` is set inside an inline table.
fn true_field(value: &str, key: &str) -> bool {
    value
        .split([',', '{', '}'])
        .any(|part| part.split('=').map(str::trim).collect::<Vec<_>>() == [key, "true"])
}

/// Parses a manifest's text.
pub fn parse(text: &str) -> Manifest {
    let mut m = Manifest::default();
    let mut table = String::new();
    let mut array_table = false;
    let mut comments: Vec<&str> = Vec::new();
    let mut lines = text.lines().enumerate();
    // The `name` of the current `[[bench]]`/`[[example]]`, until its `path` or the next table.
    let mut pending_target: Option<String> = None;
    let flush = |pending: &mut Option<String>, table: &str, m: &mut Manifest| {
        if let Some(name) = pending.take() {
            let dir = if table == "bench" {
                "benches"
            } else {
                "examples"
            };
            m.targets.push(format!("{dir}/{name}.rs"));
        }
    };
    while let Some((n, raw)) = lines.next() {
        let trimmed = raw.trim();
        if trimmed.starts_with('#') {
            comments.push(trimmed);
            continue;
        }
        let line = strip_comment(raw);
        if line.is_empty() {
            comments.clear();
            continue;
        }
        if line.starts_with('[') {
            flush(&mut pending_target, &table, &mut m);
            array_table = line.starts_with("[[");
            table = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            comments.clear();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            comments.clear();
            continue;
        };
        let (key, mut value) = (key.trim().to_string(), value.trim().to_string());
        // An array spanning lines.
        while value.matches('[').count() > value.matches(']').count() {
            let Some((_, more)) = lines.next() else { break };
            value.push(' ');
            value.push_str(strip_comment(more));
        }
        let unused_ok = comments
            .iter()
            .filter_map(|c| c.strip_prefix('#').map(str::trim))
            .filter_map(|c| c.strip_prefix("unused-ok:"))
            .map(|r| r.trim().to_string())
            .find(|r| !r.is_empty());
        comments.clear();
        let kind = dep_table(&table);
        if array_table {
            match key.as_str() {
                "path" => {
                    pending_target = None;
                    if let Some(p) = unquote(&value) {
                        m.targets.push(p);
                    }
                }
                "name" if table == "bench" || table == "example" => {
                    pending_target = unquote(&value);
                }
                _ => {}
            }
            continue;
        }
        if table == "package" {
            match key.as_str() {
                "name" => m.name = unquote(&value),
                "build" => m.build = unquote(&value),
                _ => {}
            }
        } else if table == "workspace" && key == "members" {
            m.members = value
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .filter_map(|s| unquote(s.trim()))
                .collect();
        } else if let Some((kind, named)) = kind {
            // `[dependencies]` with `name = …` or `name.workspace = true`, or
            // `[dependencies.name]` with its fields.
            let (dep_key, field) = match &named {
                Some(name) => (name.clone(), Some(key.clone())),
                None => match key.split_once('.') {
                    Some((k, f)) => (k.trim().to_string(), Some(f.trim().to_string())),
                    None => (key.clone(), None),
                },
            };
            let target = if table == "workspace.dependencies" {
                &mut m.workspace_deps
            } else {
                &mut m.deps
            };
            let entry = match target
                .iter_mut()
                .position(|d| d.key == dep_key && d.kind == kind)
            {
                Some(at) if field.is_some() => &mut target[at],
                _ => {
                    target.push(Dep {
                        kind,
                        key: dep_key.clone(),
                        package: dep_key.clone(),
                        workspace: false,
                        path: None,
                        unused_ok: None,
                        line: n + 1,
                    });
                    target.last_mut().expect("pushed")
                }
            };
            if entry.unused_ok.is_none() {
                entry.unused_ok = unused_ok;
            }
            match field.as_deref() {
                Some("workspace") => entry.workspace = value == "true",
                Some("path") => entry.path = unquote(&value),
                Some("package") => entry.package = unquote(&value).unwrap_or(dep_key),
                Some(_) => {}
                None => {
                    entry.workspace = true_field(&value, "workspace");
                    entry.path = string_field(&value, "path");
                    if let Some(p) = string_field(&value, "package") {
                        entry.package = p;
                    }
                }
            }
        }
    }
    flush(&mut pending_target, &table, &mut m);
    m
}

/// The kind of a dependency table (`dependencies`, `target.'cfg(…)'.dev-dependencies`,
/// `workspace.dependencies`), and the dependency a `[dependencies.NAME]` table is about.
fn dep_table(table: &str) -> Option<(DepKind, Option<String>)> {
    let table = match table.strip_prefix("target.") {
        // `target.'cfg(unix)'.dependencies`: the platform part may hold dots.
        Some(rest) => {
            let at = ["dependencies", "dev-dependencies", "build-dependencies"]
                .iter()
                .filter_map(|k| rest.rfind(&format!(".{k}")))
                .min()?;
            &rest[at + 1..]
        }
        None => table.strip_prefix("workspace.").unwrap_or(table),
    };
    let (head, named) = match table.split_once('.') {
        Some((h, n)) => (h, Some(n.trim_matches('"').to_string())),
        None => (table, None),
    };
    let kind = match head {
        "dependencies" => DepKind::Normal,
        "dev-dependencies" => DepKind::Dev,
        "build-dependencies" => DepKind::Build,
        _ => return None,
    };
    Some((kind, named))
}

/// The text of a TOML basic string.
fn unquote(value: &str) -> Option<String> {
    let v = value.trim();
    v.strip_prefix('"')?.strip_suffix('"').map(str::to_string)
}
