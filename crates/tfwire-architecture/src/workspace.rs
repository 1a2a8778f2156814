//! The workspace as the checks see it: its member crates, their manifests and the layer the
//! README's layout table gives each.

use crate::manifest::{self, Manifest};
use std::path::{Path, PathBuf};

/// A crate's layer in the README's layout table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// A numbered layer: a crate may depend only on crates of lower layers.
    Level(u32),
    /// `tools`: unpublished crates (tests, benches, fuzzing) that may depend on anything and
    /// that nothing depends on but through `[dev-dependencies]`.
    Tools,
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Layer::Level(n) => write!(f, "layer {n}"),
            Layer::Tools => f.write_str("tools"),
        }
    }
}

/// One member crate.
#[derive(Clone, Debug)]
pub struct Crate {
    /// Its directory relative to the workspace root (`crates/tfwire`).
    pub dir: String,
    /// Its package name.
    pub name: String,
    /// Its manifest.
    pub manifest: Manifest,
}

/// A row of the README's layout table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The path column, without backticks or a trailing `/`.
    pub path: String,
    /// The layer column (`None` for `—`: not a crate).
    pub layer: Option<Layer>,
    /// Its line in the README, from 1.
    pub line: usize,
}

/// The workspace at a root directory.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// The root directory.
    pub root: PathBuf,
    /// The root manifest.
    pub manifest: Manifest,
    /// The member crates, in the order of `[workspace] members`.
    pub crates: Vec<Crate>,
}

impl Workspace {
    /// Reads the workspace at `root` (its `Cargo.toml` and every member's).
    pub fn read(root: &Path) -> std::io::Result<Workspace> {
        let manifest = manifest::read(&root.join("Cargo.toml"))?;
        let mut crates = Vec::new();
        for dir in &manifest.members {
            let m = manifest::read(&root.join(dir).join("Cargo.toml"))?;
            crates.push(Crate {
                dir: dir.trim_end_matches('/').to_string(),
                name: m.name.clone().unwrap_or_else(|| dir.clone()),
                manifest: m,
            });
        }
        Ok(Workspace {
            root: root.to_path_buf(),
            manifest,
            crates,
        })
    }

    /// The member whose package is `name`.
    pub fn by_name(&self, name: &str) -> Option<&Crate> {
        self.crates.iter().find(|c| c.name == name)
    }

    /// The member a dependency entry of `from` points at, if it is a workspace crate (a `path`
    /// dependency, or `workspace = true` where the workspace's entry has a path).
    pub fn member_dep(&self, from: &Crate, dep: &manifest::Dep) -> Option<&Crate> {
        let path = if dep.workspace {
            let w = self
                .manifest
                .workspace_deps
                .iter()
                .find(|w| w.key == dep.key)?;
            self.root.join(w.path.as_ref()?)
        } else {
            self.root.join(&from.dir).join(dep.path.as_ref()?)
        };
        let path = normalize(&path);
        self.crates
            .iter()
            .find(|c| normalize(&self.root.join(&c.dir)) == path)
    }
}

/// `path` with `.` and `..` components folded away (textually).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The rows of the README's layout table: the first Markdown table whose header has a `layer`
/// and a `path` column. `Err` if there is none or a layer cell is not a number, `tools` or `—`.
pub fn layout_table(readme: &str) -> Result<Vec<Row>, String> {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let lines: Vec<&str> = readme.lines().collect();
    let Some(head) = lines.iter().position(|l| {
        let c = cells(l);
        l.trim_start().starts_with('|')
            && c.iter().any(|c| c == "layer")
            && c.iter().any(|c| c == "path")
    }) else {
        return Err("README.md: no layout table (a table with `layer` and `path` columns)".into());
    };
    let header = cells(lines[head]);
    let layer_at = header.iter().position(|c| c == "layer").unwrap_or(0);
    let path_at = header.iter().position(|c| c == "path").unwrap_or(0);
    let mut rows = Vec::new();
    for (n, line) in lines.iter().enumerate().skip(head + 2) {
        if !line.trim_start().starts_with('|') {
            break;
        }
        let c = cells(line);
        let (Some(layer), Some(path)) = (c.get(layer_at), c.get(path_at)) else {
            return Err(format!(
                "README.md:{}: a row without a layer or a path",
                n + 1
            ));
        };
        let layer = match layer.as_str() {
            "tools" => Some(Layer::Tools),
            "—" | "-" | "" => None,
            number => Some(Layer::Level(number.parse().map_err(|_| {
                format!(
                    "README.md:{}: layer {number:?} is not a number, `tools` or `—`",
                    n + 1
                )
            })?)),
        };
        rows.push(Row {
            path: path.trim_matches('`').trim_end_matches('/').to_string(),
            layer,
            line: n + 1,
        });
    }
    Ok(rows)
}
