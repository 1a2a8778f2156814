//! The architecture checks: on the workspace itself (each test one check, named so that
//! `.ci/run` can run them one by one), and on the small trees of `tests/data/` that prove each
//! check finds what it should (`tangled/`) and nothing else (`layered/`).

use std::path::{Path, PathBuf};
use tfwire_architecture::{
    CLI_MAX_LINES, Workspace, cli_size, history_comments, layering, lines_outside_tests,
    module_cycles, simd_json_owner, source_size, unused_dependencies,
};

/// The workspace's root directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn readme(root: &Path) -> String {
    std::fs::read_to_string(root.join("README.md")).expect("README.md")
}

/// Panics with every finding, one a paragraph.
fn assert_none(check: &str, found: &[String]) {
    assert!(
        found.is_empty(),
        "{check}: {} finding(s):\n\n{}\n",
        found.len(),
        found.join("\n\n")
    );
}

#[test]
fn modules_are_acyclic() {
    let ws = Workspace::read(&root()).expect("the workspace");
    assert!(ws.crates.len() >= 8, "members read: {}", ws.crates.len());
    assert_none("module cycles", &module_cycles(&ws));
}

#[test]
fn crates_are_layered() {
    let root = root();
    let ws = Workspace::read(&root).expect("the workspace");
    assert_none("crate layers", &layering(&ws, &readme(&root)));
}

#[test]
fn no_unused_dependency() {
    let ws = Workspace::read(&root()).expect("the workspace");
    assert_none("unused dependencies", &unused_dependencies(&ws));
}

#[test]
fn cli_is_small() {
    let (lines, found) = cli_size(&root());
    println!(
        "crates/tfwire-cli/src: {lines} lines outside #[cfg(test)] items (at most {CLI_MAX_LINES})"
    );
    assert!(lines > 0);
    assert_none("CLI size", &found);
}

#[test]
fn only_tfwire_json_depends_on_simd_json() {
    let root = root();
    let ws = Workspace::read(&root).expect("the workspace");
    assert_none("simd-json", &simd_json_owner(&ws, &readme(&root)));
}

#[test]
fn no_history_in_comments() {
    assert_none("history in comments", &history_comments(&root()));
}

/// Asserts that `found` holds exactly one finding containing each of `expected` (in any order).
fn assert_found(found: &[String], expected: &[&str]) {
    for e in expected {
        let n = found.iter().filter(|f| f.contains(e)).count();
        assert_eq!(n, 1, "{e:?} found {n} times in:\n{}", found.join("\n"));
    }
    assert_eq!(
        found.len(),
        expected.len(),
        "findings:\n{}",
        found.join("\n")
    );
}

#[test]
fn checker_passes_a_layered_tree() {
    let root = data("layered");
    let ws = Workspace::read(&root).expect("the fixture");
    assert_eq!(ws.crates.len(), 3);
    assert_none("module cycles", &module_cycles(&ws));
    assert_none("crate layers", &layering(&ws, &readme(&root)));
    assert_none("unused dependencies", &unused_dependencies(&ws));
    assert_none("simd-json", &simd_json_owner(&ws, &readme(&root)));
    let graph = tfwire_architecture::modules::graph(&root.join("crates/low")).unwrap();
    // The edges the graph must see (so that an empty result means acyclic, not blind).
    let edges =
        |from: &str| -> Vec<&str> { graph.edges[from].keys().map(String::as_str).collect() };
    assert_eq!(edges("d"), ["a", "a::b", "a::c"]);
    assert_eq!(edges("a::b"), ["a::c"]);
    assert!(edges("a").is_empty(), "a facade's re-exports are not edges");
    assert!(
        edges("a::c").is_empty(),
        "test code, comments and strings are not edges"
    );
    assert_eq!(graph.edges["d"]["a::c"].path, "crate::a::c::helper");
}

#[test]
fn checker_finds_module_cycles() {
    let ws = Workspace::read(&data("tangled")).expect("the fixture");
    let found = module_cycles(&ws);
    assert_found(
        &found,
        &[
            "crates/low: module cycle:\n    a -> a::b (src/a/mod.rs:5: b::thing)\n    a::b -> a (src/a/b.rs:2: super::shared)",
            "crates/low: module cycle:\n    x -> y (src/x.rs:3: crate::y::h)\n    y -> x (src/y.rs:2: super::x::g)",
        ],
    );
}

#[test]
fn checker_finds_layer_violations() {
    let root = data("tangled");
    let ws = Workspace::read(&root).expect("the fixture");
    let found = layering(&ws, &readme(&root));
    assert_found(
        &found,
        &[
            "README.md: `crates/extra` (extra) is a workspace member missing from the layout table",
            "README.md:6: the layout table lists `crates/ghost` (layer 0), which is not a workspace member",
            "`crates/stray` has a Cargo.toml but is not a workspace member",
            "crates/low/Cargo.toml:5: low (layer 0) depends on high (layer 1) in [dependencies]; a crate depends only on lower layers",
            "crates/low/Cargo.toml:6: low (layer 0) depends on the tool tool in [dependencies]; only [dev-dependencies] may",
        ],
    );
}

#[test]
fn checker_finds_unused_dependencies() {
    let ws = Workspace::read(&data("tangled")).expect("the fixture");
    let found = unused_dependencies(&ws);
    assert_found(
        &found,
        &[
            "crates/low/Cargo.toml:5: [dependencies] high is never named in src/",
            "crates/low/Cargo.toml:6: [dependencies] tool is never named",
            "crates/low/Cargo.toml:7: [dependencies] simd-json is never named",
            "crates/low/Cargo.toml:9: [dependencies] flate2 is marked `# unused-ok` but is named in src/",
            "crates/low/Cargo.toml:12: [build-dependencies] prost-build is never named in build.rs",
            "crates/low/Cargo.toml:15: [dev-dependencies] serde_json is never named in tests/",
        ],
    );
}

#[test]
fn checker_finds_simd_json_outside_its_owner() {
    let root = data("tangled");
    let ws = Workspace::read(&root).expect("the fixture");
    assert_found(
        &simd_json_owner(&ws, &readme(&root)),
        &[
            "crates/low/Cargo.toml:7: low has simd-json among its [dependencies]; only tfwire-json may",
        ],
    );
}

#[test]
fn checker_counts_lines_outside_tests() {
    let root = data("tangled");
    // main.rs: 12 lines: 3 of code, 2 blank, the `#[cfg(test)]` module (5) and the
    // `#[cfg(all(test, unix))]` function (2).
    let (lines, found) = source_size(&root, "crates/tfwire-cli/src", 3);
    assert_eq!((lines, found.len()), (3, 0));
    let (_, found) = source_size(&root, "crates/tfwire-cli/src", 2);
    assert_found(
        &found,
        &[
            "crates/tfwire-cli/src holds 3 lines of code outside #[cfg(test)] items, more than 2; the largest files: crates/tfwire-cli/src/main.rs 3",
        ],
    );
    assert_eq!(lines_outside_tests("#![cfg(test)]\nfn a() {}\n"), 0);
    let text = "/// S.\nstruct S {\n    #[cfg(test)]\n    x: u8,\n\n    /* y,\n       z */\n    y: u8, // y\n}\n";
    assert_eq!(lines_outside_tests(text), 3);
}

#[test]
fn checker_finds_history_in_comments() {
    // The tree is written here, its numbers put in by `format!`, so that no history-shaped
    // text stands in the workspace's own sources (whose scan the fixture would fail).
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("history");
    let _ = std::fs::remove_dir_all(&root);
    let lib = root.join("crates/a/src");
    let e2e = root.join("e2e");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::create_dir_all(&e2e).unwrap();
    std::fs::write(
        lib.join("lib.rs"),
        format!(
            "//! Round {} made this faster.\n/// Reads the thing.\n/* Fixes issue #{}. */\n\
             pub fn f() -> &'static str {{\n    // A string is not a comment:\n    \
             \"round {}\" // before this change it panicked\n}}\n",
            5, 16, 6
        ),
    )
    .unwrap();
    std::fs::write(
        e2e.join("run.sh"),
        format!(
            "#!/bin/sh\necho \"session {}\" # as in stops {} and {}\n",
            4, 3, 4
        ),
    )
    .unwrap();
    let found = history_comments(&root);
    assert_found(
        &found,
        &[
            "crates/a/src/lib.rs:1: the comment tells history (\"Round 5\")",
            "crates/a/src/lib.rs:3: the comment tells history (\"issue #16\")",
            "crates/a/src/lib.rs:6: the comment tells history (\"before this change\")",
            "e2e/run.sh:2: the comment tells history (\"stops 3\")",
        ],
    );
    use tfwire_architecture::history::tells_history;
    assert_eq!(
        tells_history("// session12 made it"),
        Some("session12".into())
    );
    assert_eq!(
        tells_history(&format!(
            "// a stop sign; {} rounds; backstop {}; issuer {}",
            3, 4, 7
        )),
        None
    );
}
