//! "Did you mean": near matches for an address that is not there.

use crate::escape::{Inline, quote};

/// At most this many suggestions.
const MAX: usize = 5;

/// A message tail naming up to five addresses close to `wanted` (instances of it first,
/// then addresses that contain it; failing those, the nearest by edit distance), and the
/// command that lists them all. The addresses are the document's: escaped inline.
pub(crate) fn near(wanted: &str, all: &[String], lister: &str, file: &str) -> String {
    let mut picked: Vec<&str> = Vec::new();
    fn add<'s>(a: &'s str, picked: &mut Vec<&'s str>) {
        if picked.len() < MAX && !picked.contains(&a) {
            picked.push(a);
        }
    }
    // `aws_instance.web` for `aws_instance.web[0]`, `aws_instance.web["a"]`.
    for a in all {
        if a.len() > wanted.len() && a.starts_with(wanted) && a[wanted.len()..].starts_with('[') {
            add(a, &mut picked);
        }
    }
    for a in all {
        if a.contains(wanted) || (!a.is_empty() && wanted.contains(a.as_str())) {
            add(a, &mut picked);
        }
    }
    // Spelling mistakes, when nothing contains what was asked for.
    if picked.is_empty() {
        let limit = (wanted.chars().count() / 3).max(2);
        let mut scored: Vec<(usize, &str)> = all
            .iter()
            .filter_map(|a| {
                // Addresses of very different lengths cannot be near: skip the work.
                let d = a.len().abs_diff(wanted.len());
                (d <= limit).then(|| (distance(wanted, a), a.as_str()))
            })
            .filter(|(d, _)| *d <= limit)
            .collect();
        scored.sort();
        for (_, a) in scored {
            add(a, &mut picked);
        }
    }
    let list = if picked.is_empty() {
        String::new()
    } else {
        let lines: Vec<String> = picked
            .iter()
            .map(|a| format!("\n  {}", Inline(a)))
            .collect();
        format!("\ndid you mean:{}", lines.concat())
    };
    let file = if file.contains(' ') || file.contains('\'') {
        quote(file)
    } else {
        Inline(file).to_string()
    };
    format!("{list}\n(`{lister} {file}` lists every address)")
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = if ca == b[j] {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let all: Vec<String> = [
            "aws_instance.web[0]",
            "aws_instance.web[1]",
            "aws_s3_bucket.logs",
            "aws_s3_bucket.log",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            near("aws_instance.web", &all, "tfwire plan summary", "p.json"),
            "\ndid you mean:\n  aws_instance.web[0]\n  aws_instance.web[1]\n\
             (`tfwire plan summary p.json` lists every address)"
        );
        assert_eq!(
            near("aws_s3_bucket.lgs", &all, "x", "p"),
            "\ndid you mean:\n  aws_s3_bucket.logs\n  aws_s3_bucket.log\n(`x p` lists every address)"
        );
        assert_eq!(near("zzz", &all, "x", "p"), "\n(`x p` lists every address)");
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
