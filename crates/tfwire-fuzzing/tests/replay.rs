//! Replays the fuzz corpora through the targets' checks, no fuzzer needed: every file of
//! `corpus/regressions/<target>/` (each a crash the fuzzer once found), and every seed built
//! from `corpus/` (about 14,000 inputs: a second or two).

use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// Runs `check` on `data`, naming the input if it panics.
fn replay(target: &str, name: &str, check: fn(&[u8]), data: &[u8]) {
    if std::panic::catch_unwind(|| check(data)).is_err() {
        panic!("{target}: {name} fails its check (replay it with `cargo fuzz run {target} FILE`)");
    }
}

#[test]
fn regressions() {
    let root = corpus().join("regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&root).expect("corpus/regressions") {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let target = dir.file_name().unwrap().to_str().unwrap().to_owned();
        let check = tfwire_fuzzing::target(&target)
            .unwrap_or_else(|| panic!("corpus/regressions/{target}: no such target"));
        let readme = std::fs::read_to_string(dir.join("README.md"))
            .unwrap_or_else(|_| panic!("corpus/regressions/{target}/README.md is missing"));
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
            .collect();
        files.sort();
        for file in files {
            let name = file.file_name().unwrap().to_str().unwrap().to_owned();
            assert!(
                readme.contains(&format!("`{name}`")),
                "corpus/regressions/{target}/README.md does not say what `{name}` found"
            );
            replay(&target, &name, check, &std::fs::read(&file).unwrap());
            count += 1;
        }
    }
    eprintln!("{count} regressions replayed");
}

#[test]
fn seeds() {
    let seeds = tfwire_fuzzing::seeds::build(&corpus()).expect("seeds");
    for (target, check) in tfwire_fuzzing::TARGETS {
        let mine: Vec<_> = seeds.iter().filter(|s| s.target == *target).collect();
        assert!(mine.len() >= 30, "{target}: only {} seeds", mine.len());
        for s in mine {
            replay(target, &s.name, *check, &s.data);
        }
    }
}
