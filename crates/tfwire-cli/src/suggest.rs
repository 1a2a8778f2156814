//! "Did you mean": near matches for an address that is not there.

use tfwire_render::escape::{Inline, quote};

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
        let mut budget = WORK_BUDGET;
        for (_, a) in spelled_alike(wanted, all, &mut budget) {
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

/// The longest address (in characters) for which spelling mistakes are looked for: real
/// addresses are far shorter, and the edit distance costs length × band.
const MAX_SPELLED_CHARS: usize = 256;

/// The most edit-distance cells computed for one suggestion (a few milliseconds): however
/// many addresses a document has, suggestions are never the slow part.
const WORK_BUDGET: usize = 16_000_000;

/// Addresses within an edit distance of a third of `wanted`'s length (at least 2), nearest
/// first. Each distance is computed in a band and abandoned once it exceeds the limit; the
/// search stops when `budget` (in cells) is spent.
fn spelled_alike<'s>(wanted: &str, all: &'s [String], budget: &mut usize) -> Vec<(usize, &'s str)> {
    let w: Vec<char> = wanted.chars().collect();
    if w.len() > MAX_SPELLED_CHARS {
        return Vec::new();
    }
    let limit = (w.len() / 3).max(2);
    let mut scored = Vec::new();
    let mut b = Vec::new();
    for a in all {
        // Addresses of very different lengths cannot be near: skip the work (bytes bound
        // characters from above, and a character is at most 4 bytes).
        if a.len() > 4 * (w.len() + limit) || a.len() + limit < w.len() {
            continue;
        }
        b.clear();
        b.extend(a.chars());
        if b.len().abs_diff(w.len()) > limit {
            continue;
        }
        let cost = w.len().max(1) * (2 * limit + 1);
        if cost > *budget {
            break;
        }
        *budget -= cost;
        if let Some(d) = distance_within(&w, &b, limit) {
            scored.push((d, a.as_str()));
        }
    }
    scored.sort();
    scored
}

/// Levenshtein distance over characters if it is at most `limit`: only the cells within
/// `limit` of the diagonal are computed (at most `a.len() × (2 limit + 1)`), and the
/// computation stops as soon as a row has no cell within the limit.
fn distance_within(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let far = limit + 1;
    // row[j]: distance between a[..i] and b[..j]; cells outside the band hold `far`.
    let mut row: Vec<usize> = (0..=b.len()).map(|j| j.min(far)).collect();
    for i in 1..=a.len() {
        let lo = i.saturating_sub(limit).max(1);
        let hi = (i + limit).min(b.len());
        let mut diag = row[lo - 1]; // row[i-1][lo-1]
        row[lo - 1] = if lo == 1 { i.min(far) } else { far };
        let mut best = row[lo - 1];
        for j in lo..=hi {
            let up = row[j]; // row[i-1][j]
            let cell = if a[i - 1] == b[j - 1] {
                diag
            } else {
                1 + diag.min(up).min(row[j - 1])
            };
            row[j] = cell.min(far);
            best = best.min(row[j]);
            diag = up;
        }
        if hi < b.len() {
            row[hi + 1] = far;
        }
        if best > limit {
            return None;
        }
    }
    let d = row[b.len()];
    (d <= limit).then_some(d)
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
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(
            distance_within(&chars("kitten"), &chars("sitting"), 3),
            Some(3)
        );
        assert_eq!(
            distance_within(&chars("kitten"), &chars("sitting"), 2),
            None
        );
        assert_eq!(distance_within(&chars(""), &chars("ab"), 2), Some(2));
        assert_eq!(
            distance_within(&chars("abcdef"), &chars("abcdef"), 2),
            Some(0)
        );
        assert_eq!(
            distance_within(&chars("abcdef"), &chars("bcdefa"), 2),
            Some(2)
        );
    }

    /// The banded distance agrees with the full one wherever it answers.
    #[test]
    fn banded_distance_is_exact_within_its_limit() {
        fn full(a: &[char], b: &[char]) -> usize {
            let mut row: Vec<usize> = (0..=b.len()).collect();
            for (i, ca) in a.iter().enumerate() {
                let mut prev = row[0];
                row[0] = i + 1;
                for j in 0..b.len() {
                    let cur = row[j + 1];
                    row[j + 1] = if *ca == b[j] {
                        prev
                    } else {
                        1 + prev.min(cur).min(row[j])
                    };
                    prev = cur;
                }
            }
            row[b.len()]
        }
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "acb",
            "aws_s3",
            "aws_s3_bucket",
            "awss3bucket",
            "s3_bucket_aws",
            "xyz",
        ];
        for a in words {
            for b in words {
                let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                let d = full(&a, &b);
                for limit in 0..6 {
                    let want = (d <= limit).then_some(d);
                    assert_eq!(distance_within(&a, &b, limit), want, "{a:?} {b:?} {limit}");
                }
            }
        }
    }

    /// The slow cases: 100 addresses of 20 KB, and 20 000 of 2 KB (and of 200
    /// characters, within the spelling cap), with a missing address of the same size. The
    /// work is bounded by the budget, not by the document; a near address is still found.
    #[test]
    fn suggestion_work_is_bounded() {
        let addr = |n: usize, len: usize| format!("m.r{n:06}{}", "x".repeat(len - 9));
        for (count, len) in [(100, 20_000), (20_000, 2_000), (20_000, 200)] {
            let all: Vec<String> = (0..count).map(|n| addr(n, len)).collect();
            let mut budget = WORK_BUDGET;
            let missing = addr(count + 7, len).replace('x', "y");
            let found = spelled_alike(&missing, &all, &mut budget);
            assert!(found.is_empty());
            let spent = WORK_BUDGET - budget;
            if len > MAX_SPELLED_CHARS {
                assert_eq!(
                    spent, 0,
                    "no distance computed for {len}-character addresses"
                );
            } else {
                // 20 000 candidates would cost 20 000 × len × (2 len/3 + 1) cells; the
                // search stopped when the budget ran out.
                let per = len * (2 * (len / 3) + 1);
                assert!(count * per > WORK_BUDGET);
                assert!(spent > WORK_BUDGET - per, "{spent}");
            }
            // One character off an existing address: found.
            let mut near_one = addr(3, len);
            near_one.pop();
            let mut budget = WORK_BUDGET;
            let found = spelled_alike(&near_one, &all[..50.min(count)], &mut budget);
            if len <= MAX_SPELLED_CHARS {
                assert_eq!(found.first(), Some(&(1, all[3].as_str())));
            }
        }
    }
}
