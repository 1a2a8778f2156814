//! `tfwire export` and `tfwire query` hand over to `tfwire-fleet`: found beside `tfwire`
//! (or on `PATH`) it runs in place of `tfwire` with the arguments unchanged; missing, a
//! clear error says how to install it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory holding a link to the `tfwire` binary under test (and, when asked, a
/// `tfwire-fleet` beside it: a script that prints its arguments and exits 7).
struct Install(PathBuf);

impl Install {
    fn new(name: &str, with_fleet: bool) -> Install {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("fleet-handoff-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let tfwire = dir.join("tfwire");
        if std::fs::hard_link(env!("CARGO_BIN_EXE_tfwire"), &tfwire).is_err() {
            std::fs::copy(env!("CARGO_BIN_EXE_tfwire"), &tfwire).unwrap();
        }
        if with_fleet {
            let script = dir.join("tfwire-fleet");
            std::fs::write(
                &script,
                "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\necho \"pid $$\"\nexit 7\n",
            )
            .unwrap();
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Install(dir)
    }

    fn tfwire(&self) -> Command {
        let mut c = Command::new(self.0.join("tfwire"));
        c.env("PATH", "/nonexistent");
        c
    }
}

impl Drop for Install {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn query_and_export_run_tfwire_fleet_in_place_with_the_arguments_unchanged() {
    let install = Install::new("beside", true);
    let sql = "SELECT workspace, count(*) FROM aws_s3_bucket WHERE acl = 'public-read' GROUP BY workspace";
    let out = install
        .tfwire()
        .args([
            "query",
            "--schemas",
            "dir with space",
            "--format",
            "json",
            sql,
            "-",
            "--help",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(7),
        "tfwire-fleet's exit code is tfwire's"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..8],
        [
            "[query]",
            "[--schemas]",
            "[dir with space]",
            "[--format]",
            "[json]",
            &format!("[{sql}]"),
            "[-]",
            "[--help]"
        ]
    );

    let out = install
        .tfwire()
        .args(["export", "--out", "x", "s"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("[export]\n[--out]\n[x]\n[s]\n")
    );
}

#[test]
fn tfwire_fleet_replaces_the_tfwire_process() {
    // `exec`: the script's process id is the one `tfwire` was started with.
    let install = Install::new("exec", true);
    let child = install
        .tfwire()
        .args(["query", "SELECT 1"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with(&format!("pid {pid}\n")), "{text}");
}

#[test]
fn tfwire_fleet_is_found_on_path_too() {
    let install = Install::new("path", true);
    let bare = Install::new("bare", false);
    let out = Command::new(bare.0.join("tfwire"))
        .env("PATH", &install.0)
        .args(["query", "SELECT 1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
}

#[test]
fn without_tfwire_fleet_the_error_says_how_to_install_it() {
    let install = Install::new("missing", false);
    for command in ["query", "export"] {
        let out = install
            .tfwire()
            .args([command, "SELECT 1", "states/"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            err,
            format!(
                "error: `tfwire {command}` runs the tfwire-fleet binary (SQL and Parquet, built on \
                 DataFusion), found neither beside tfwire nor on PATH; install it with `cargo \
                 install tfwire-fleet` (or `cargo build --release -p tfwire-fleet` in tfwire's \
                 repository) and run again\n"
            )
        );
    }
}
