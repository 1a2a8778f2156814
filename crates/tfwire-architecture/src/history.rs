//! Comments that tell the project's history (a round, issue, stop or session by its number,
//! or one of [`PHRASES`]): a comment says what the code does; history belongs in CHANGELOG.md
//! and commit messages.

use crate::lex;
use std::path::{Path, PathBuf};

/// The directories searched, relative to the workspace root.
pub const SEARCHED: [&str; 4] = ["crates", "benches", "fuzz", "e2e"];

/// Directories skipped wherever they are: build output, the clients' binaries and source
/// trees, and this crate's fixtures (which hold such comments on purpose).
const SKIPPED: [&str; 4] = ["target", ".git", "bin", "tests/data"];

/// The words followed by a number that count as history.
pub const NUMBERED: [&str; 4] = ["round", "issue", "stop", "session"];

/// Phrases that count as history.
pub const PHRASES: [&str; 2] = ["before this change", "was fixed"];

/// The part of `comment` that tells history, if any: one of [`NUMBERED`] (not preceded by a
/// letter or digit), an optional `s`, space and `#`, then a number; or one of [`PHRASES`];
/// case ignored.
pub fn tells_history(comment: &str) -> Option<String> {
    let lower = comment.to_ascii_lowercase();
    let b = lower.as_bytes();
    for word in NUMBERED {
        for (at, _) in lower.match_indices(word) {
            if at > 0 && b[at - 1].is_ascii_alphanumeric() {
                continue;
            }
            let mut j = at + word.len();
            for optional in [b's', b' ', b'#'] {
                if b.get(j) == Some(&optional) {
                    j += 1;
                }
            }
            if b.get(j).is_some_and(u8::is_ascii_digit) {
                let end = j + b[j..].iter().take_while(|c| c.is_ascii_digit()).count();
                return Some(comment[at..end].to_string());
            }
        }
    }
    PHRASES
        .iter()
        .find(|p| lower.contains(*p))
        .map(|p| p.to_string())
}

/// The files searched under `dir`: Rust, shell, Python and Go sources.
fn files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let p = entry.path();
        let rel = p
            .strip_prefix(root)
            .unwrap_or(&p)
            .to_string_lossy()
            .into_owned();
        if p.is_dir() {
            if !SKIPPED.iter().any(|s| rel.ends_with(s)) {
                files(root, &p, out);
            }
        } else if p
            .extension()
            .is_some_and(|x| ["rs", "sh", "py", "go"].iter().any(|e| x == *e))
        {
            out.push(p);
        }
    }
}

/// The comments of a file: `(line, text)`. Rust comments as the tokenizer finds them; `#`
/// comments of shell and Python and `//` comments of Go from their marker to the end of the
/// line (a marker inside a string is taken for one too: the check errs towards reading more).
fn comments(path: &Path, text: &str) -> Vec<(usize, String)> {
    match path.extension().and_then(|x| x.to_str()) {
        Some("rs") => lex::lex(text)
            .comments
            .iter()
            .map(|c| (c.line, c.text.to_string()))
            .collect(),
        ext => {
            let marker = if ext == Some("go") { "//" } else { "#" };
            text.lines()
                .enumerate()
                .filter_map(|(n, l)| l.find(marker).map(|at| (n + 1, l[at..].to_string())))
                .collect()
        }
    }
}

/// Every comment under the [`SEARCHED`] directories of `root` that tells history, as
/// `path:line: what it says`.
pub fn history_comments(root: &Path) -> Vec<String> {
    let mut paths = Vec::new();
    for dir in SEARCHED {
        files(root, &root.join(dir), &mut paths);
    }
    paths.sort();
    let mut found = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (line, comment) in comments(&path, &text) {
            if let Some(what) = tells_history(&comment) {
                found.push(format!(
                    "{rel}:{line}: the comment tells history ({what:?}); say what the code does, and put the history in CHANGELOG.md"
                ));
            }
        }
    }
    found
}
