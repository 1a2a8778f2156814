//! The corpus's JSON documents, found by walking its folders. Shared with tfwire-plugin's
//! harness (which includes this file by its path): both read every schema document of
//! the corpus.

use std::path::{Path, PathBuf};

/// Appends every `.json` file under `dir` (its subfolders too) to `out`, in the order the
/// file system lists them.
pub(crate) fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}
