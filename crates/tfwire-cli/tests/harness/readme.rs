//! The README's `console` examples are runs of this build: every `$ command` line is run by
//! `sh` from the workspace root, with this build's `tfwire` first on `PATH`, and what it
//! prints (standard output, then standard error) must be the lines that follow it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `(command, expected output)` for every `$ ` line of every ```` ```console ```` block.
fn examples(readme: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut in_console = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push((cmd.to_string(), String::new()));
        } else if let Some((_, expected)) = out.last_mut() {
            expected.push_str(line);
            expected.push('\n');
        } else {
            panic!("console block output before any command: {line}");
        }
    }
    out
}

#[test]
fn readme_console_examples_are_what_tfwire_prints() {
    let root = workspace();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples.len() >= 10,
        "only {} examples found",
        examples.len()
    );
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_tfwire"))
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let mut failures = Vec::new();
    for (cmd, expected) in &examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .current_dir(&root)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("running sh");
        let got = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if got != *expected {
            failures.push(format!(
                "$ {cmd}\n--- README\n{expected}--- tfwire printed\n{got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
