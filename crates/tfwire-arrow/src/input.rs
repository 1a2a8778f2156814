//! Inputs: command-line arguments turned into located documents ([`discover`]), read with
//! a size limit ([`Input::read`]).

use crate::error::Error;
use futures::TryStreamExt as _;
use object_store::memory::InMemory;
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt as _};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The most bytes [`Input::read`] reads from one input: 256 MiB, as
/// [`crate::MAX_DOCUMENT_BYTES`]. A larger input is an error naming it, found from its
/// size before any byte is read.
pub const MAX_INPUT_BYTES: u64 = crate::table::MAX_DOCUMENT_BYTES as u64;

/// The process's in-memory object store: what `memory://` URLs name (for tests and
/// embedding; each process has its own, empty when it starts).
pub fn memory_store() -> Arc<InMemory> {
    static STORE: OnceLock<Arc<InMemory>> = OnceLock::new();
    STORE.get_or_init(|| Arc::new(InMemory::new())).clone()
}

/// One document to read: where it is (`source`: its path as found, or its URL) and the
/// workspace it belongs to.
#[derive(Clone, Debug)]
pub struct Input {
    /// The input's path (as found under its argument) or URL.
    pub source: String,
    /// The path of its parent directory relative to the argument it was found under, `/`
    /// separated; `default` for a file given directly or at the root of its argument.
    pub workspace: String,
    location: Location,
}

#[derive(Clone, Debug)]
enum Location {
    File(PathBuf),
    Store {
        store: Arc<dyn ObjectStore>,
        path: StorePath,
        /// The object's URL.
        url: String,
    },
}

impl Input {
    /// The input at `source` (a file path, or a `file://` or `memory://` URL of one
    /// object), in `workspace`: what an executor re-creates from plain data.
    ///
    /// # Errors
    ///
    /// A URL of a scheme this build has no store for.
    pub fn locate(source: &str, workspace: &str) -> Result<Input, Error> {
        let location = match source.split_once("://") {
            Some(_) => {
                let (store, path) = store_for(source)?;
                Location::Store {
                    store,
                    path,
                    url: source.to_owned(),
                }
            }
            None => Location::File(PathBuf::from(source)),
        };
        Ok(Input {
            source: source.to_owned(),
            workspace: workspace.to_owned(),
            location,
        })
    }

    /// Where the input is read from, as plain data that names the same document on every
    /// machine seeing the same files: a file's absolute path (a relative one resolved
    /// against the current directory), or the object's URL. [`Input::locate`] of it gives
    /// the same document back (what a cluster's nodes do).
    ///
    /// # Errors
    ///
    /// The current directory cannot be read (a relative path then has no absolute form), or
    /// the path is not UTF-8.
    pub fn location(&self) -> Result<String, Error> {
        match &self.location {
            Location::File(path) => {
                let at = |m: String| Error::new(m).with_source(self.source.clone());
                std::path::absolute(path)
                    .map_err(|e| at(e.to_string()))?
                    .into_os_string()
                    .into_string()
                    .map_err(|_| at("a path that is not UTF-8 has no plain-text location".into()))
            }
            Location::Store { url, .. } => Ok(url.clone()),
        }
    }

    /// Reads the whole input, at most [`MAX_INPUT_BYTES`].
    ///
    /// # Errors
    ///
    /// An input larger than the limit, or one that cannot be read; the error names it.
    pub async fn read(&self) -> Result<bytes::Bytes, Error> {
        let at = |e: Error| e.with_source(self.source.clone());
        match &self.location {
            Location::File(path) => {
                let mut out = Vec::new();
                read_file(path, &mut out, 0).map_err(at)?;
                Ok(bytes::Bytes::from(out))
            }
            Location::Store { store, path, .. } => {
                let meta = store.head(path).await.map_err(|e| at(e.into()))?;
                if meta.size > MAX_INPUT_BYTES {
                    return Err(at(too_large(meta.size)));
                }
                let bytes = store
                    .get(path)
                    .await
                    .map_err(|e| at(e.into()))?
                    .bytes()
                    .await
                    .map_err(|e| at(e.into()))?;
                if bytes.len() as u64 > MAX_INPUT_BYTES {
                    return Err(at(too_large(bytes.len() as u64)));
                }
                Ok(bytes)
            }
        }
    }

    /// Reads the whole input, as [`Input::read`], into `out` (replacing what it held,
    /// reusing its allocation) with [`tfwire_plan::INPUT_PADDING`] bytes of spare capacity:
    /// what [`TableBuilder::add_in_place`](crate::TableBuilder::add_in_place) parses where
    /// it lies. A file is read straight into it; an object is fetched, then copied.
    ///
    /// # Errors
    ///
    /// As [`Input::read`].
    pub async fn read_padded(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        let spare = tfwire_plan::INPUT_PADDING;
        match &self.location {
            Location::File(path) => {
                read_file(path, out, spare).map_err(|e| e.with_source(self.source.clone()))
            }
            Location::Store { .. } => {
                let bytes = self.read().await?;
                out.clear();
                out.reserve(bytes.len() + spare);
                out.extend_from_slice(&bytes);
                Ok(())
            }
        }
    }
}

#[cold]
fn too_large(size: u64) -> Error {
    Error::new(format!(
        "the input holds {size} bytes, more than the limit of {MAX_INPUT_BYTES}"
    ))
}

/// The file at `path`, in `out` (cleared first) with `spare` bytes of capacity beyond it.
fn read_file(path: &Path, out: &mut Vec<u8>, spare: usize) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::new(e.to_string());
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_INPUT_BYTES {
        return Err(too_large(size));
    }
    out.clear();
    out.reserve(usize::try_from(size).unwrap_or(0).saturating_add(spare));
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(out)
        .map_err(io)?;
    if out.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(out.len() as u64));
    }
    Ok(())
}

/// The store a URL names and the path inside it: `file:///abs/path` (the local file
/// system), `memory:///path` ([`memory_store`]).
pub(crate) fn store_for(url: &str) -> Result<(Arc<dyn ObjectStore>, StorePath), Error> {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let bad = |m: String| Error::new(m).with_source(url.to_owned());
    match scheme {
        "file" => {
            let path = rest.strip_prefix("localhost").unwrap_or(rest);
            if !path.starts_with('/') {
                return Err(bad(
                    "a file:// URL needs an absolute path (file:///dir)".into()
                ));
            }
            let store = object_store::local::LocalFileSystem::new();
            let p = StorePath::from_url_path(path).map_err(|e| bad(e.to_string()))?;
            Ok((Arc::new(store), p))
        }
        "memory" => {
            // `memory:///a/b` and `memory://a/b` name the same path.
            let p = StorePath::from_url_path(rest.trim_start_matches('/'))
                .map_err(|e| bad(e.to_string()))?;
            Ok((memory_store(), p))
        }
        other => Err(bad(format!(
            "no object store for {other}:// in this build (file:// and memory:// are built in; \
             s3://, gs:// and az:// are object_store's aws, gcp and azure features)"
        ))),
    }
}

/// Turns arguments into inputs, in argument order, each argument's inputs sorted by path.
///
/// - a file: one input, workspace `default`;
/// - a directory: every file under it, recursively, names beginning with `.` skipped (a
///   `.terraform/` directory holds no state of the workspace), symbolic links not followed;
///   the workspace is the file's parent directory relative to the argument;
/// - a glob (`*` and `?` within one path segment, `**` any number of segments), expanded by
///   tfwire: the files it matches, their workspace relative to the glob's directory part
///   (the segments before the first one with a wildcard);
/// - a `file:///dir` or `memory:///prefix` URL: every object under it (or the one object it
///   names), workspaces as for a directory.
///
/// Whether a file is a state or plan is told by content when it is read.
///
/// # Errors
///
/// An argument that names nothing (no such file, a glob that matches nothing, an empty
/// prefix), a directory that cannot be read, a URL of a scheme without a store.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = std::env::temp_dir().join(format!("tfwire-arrow-doc-discover-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("team-a/prod"))?;
/// std::fs::write(dir.join("team-a/prod/terraform.tfstate"), b"{}")?;
/// std::fs::write(dir.join("root.tfstate"), b"{}")?;
/// let arg = dir.display().to_string();
/// let inputs = futures::executor::block_on(tfwire_arrow::discover(&[arg]))?;
/// let found: Vec<&str> = inputs.iter().map(|i| i.workspace.as_str()).collect();
/// assert_eq!(found, ["default", "team-a/prod"]);
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok(()) }
/// ```
pub async fn discover(args: &[String]) -> Result<Vec<Input>, Error> {
    let mut out = Vec::new();
    for arg in args {
        let before = out.len();
        if arg.contains("://") {
            discover_url(arg, &mut out).await?;
        } else if arg.contains(['*', '?']) {
            discover_glob(arg, &mut out)?;
        } else {
            let path = Path::new(arg);
            let meta = std::fs::metadata(path)
                .map_err(|e| Error::new(e.to_string()).with_source(arg.clone()))?;
            if meta.is_dir() {
                let mut files = Vec::new();
                walk(path, &mut files).map_err(|e| e.with_source(arg.clone()))?;
                files.sort();
                for f in files {
                    let workspace = workspace_of(path, &f);
                    out.push(Input {
                        source: f.display().to_string(),
                        workspace,
                        location: Location::File(f),
                    });
                }
            } else {
                out.push(Input {
                    source: arg.clone(),
                    workspace: "default".to_owned(),
                    location: Location::File(path.to_owned()),
                });
            }
        }
        if out.len() == before {
            return Err(Error::new("no input found here").with_source(arg.clone()));
        }
    }
    Ok(out)
}

/// Every file under `dir`, recursively, skipping names beginning with `.` and symbolic
/// links.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::new(format!("{}: {e}", dir.display()));
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let ty = entry.file_type().map_err(io)?;
        if ty.is_dir() {
            walk(&entry.path(), out)?;
        } else if ty.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// The parent directory of `file` relative to `root`, `/` separated, or `default`.
fn workspace_of(root: &Path, file: &Path) -> String {
    let rel = file
        .parent()
        .and_then(|p| p.strip_prefix(root).ok())
        .map(|p| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default();
    if rel.is_empty() {
        "default".to_owned()
    } else {
        rel
    }
}

fn discover_glob(pattern: &str, out: &mut Vec<Input>) -> Result<(), Error> {
    let segments: Vec<&str> = pattern.split('/').collect();
    let first_wild = segments
        .iter()
        .position(|s| s.contains(['*', '?']))
        .unwrap_or(segments.len());
    let base_text = segments[..first_wild].join("/");
    let base = if base_text.is_empty() {
        if pattern.starts_with('/') {
            PathBuf::from("/")
        } else {
            PathBuf::from(".")
        }
    } else {
        PathBuf::from(&base_text)
    };
    let mut files = Vec::new();
    walk(&base, &mut files).map_err(|e| e.with_source(pattern.to_owned()))?;
    files.sort();
    let rest: Vec<&str> = segments[first_wild..].to_vec();
    for f in files {
        let Ok(rel) = f.strip_prefix(&base) else {
            continue;
        };
        let rel_segments: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let rel_refs: Vec<&str> = rel_segments.iter().map(String::as_str).collect();
        if glob_match(&rest, &rel_refs) {
            let workspace = workspace_of(&base, &f);
            out.push(Input {
                source: f.display().to_string(),
                workspace,
                location: Location::File(f),
            });
        }
    }
    Ok(())
}

/// Whether path segments match pattern segments (`**`: any number of segments).
fn glob_match(pattern: &[&str], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|i| glob_match(rest, &path[i..])),
        Some((p, rest)) => match path.split_first() {
            Some((s, tail)) => tfwire::glob::Glob::new(p).matches(s) && glob_match(rest, tail),
            None => false,
        },
    }
}

async fn discover_url(url: &str, out: &mut Vec<Input>) -> Result<(), Error> {
    let (store, prefix) = store_for(url)?;
    let at = |e: object_store::Error| Error::from(e).with_source(url.to_owned());
    let mut found: Vec<StorePath> = store
        .list(Some(&prefix))
        .map_ok(|m| m.location)
        .try_collect()
        .await
        .map_err(at)?;
    if found.is_empty() && store.head(&prefix).await.is_ok() {
        found.push(prefix.clone());
    }
    found.sort();
    let scheme_root = &url[..url.len() - url.split_once("://").map_or(0, |(_, r)| r.len())];
    for path in found {
        let rel: Vec<String> = path
            .prefix_match(&prefix)
            .map(|parts| parts.map(|p| p.as_ref().to_owned()).collect())
            .unwrap_or_default();
        if rel.iter().any(|s| s.starts_with('.')) {
            continue;
        }
        let workspace = match rel.len() {
            0 | 1 => "default".to_owned(),
            n => rel[..n - 1].join("/"),
        };
        let source = if scheme_root == "file://" {
            format!("file:///{path}")
        } else {
            format!("{scheme_root}/{path}")
        };
        out.push(Input {
            location: Location::Store {
                store: store.clone(),
                path,
                url: source.clone(),
            },
            source,
            workspace,
        });
    }
    Ok(())
}
