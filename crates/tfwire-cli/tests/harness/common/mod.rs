//! Helpers shared by the test modules that run the `tfwire` binary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn corpus(rel: &str) -> String {
    repo()
        .join("corpus")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

pub(crate) fn fixture(name: &str) -> String {
    repo()
        .join("crates/tfwire-plan/tests/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `tfwire ARGS` with `stdin`; returns (exit code, stdout, stderr).
pub(crate) fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let out = run_raw(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `tfwire ARGS` with `stdin`, which must exit 0 (else panics with its standard error);
/// returns its standard output.
pub(crate) fn ok(args: &[&str], stdin: &[u8]) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "tfwire {}: {err}", args.join(" "));
    out
}

/// Runs `tfwire ARGS` with `stdin`, which must exit 1 with nothing on standard output;
/// returns its standard error.
pub(crate) fn fails(args: &[&str], stdin: &[u8]) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!((code, out.as_str()), (1, ""), "tfwire {}", args.join(" "));
    err
}

/// `tfwire state show` of one address of `state` with the provider schemas `schemas` and no
/// default masks (the form compared with the clients' own `state show`), which must exit 0.
pub(crate) fn state_show(schemas: &str, state: &str, address: &str) -> String {
    let args = [
        "state",
        "show",
        "--no-default-masks",
        "--schemas",
        schemas,
        state,
        address,
    ];
    ok(&args, b"")
}

pub(crate) fn run_raw(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tfwire"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // A command that does not read its input closes the pipe early.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// Every file under `dir` (its subdirectories too), sorted.
pub(crate) fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p)
            } else {
                out.push(p)
            }
        }
    }
    out.sort();
    out
}

/// Every file under corpus/plans, sorted.
pub(crate) fn plan_files() -> Vec<PathBuf> {
    files_under(&repo().join("corpus/plans"))
}

/// The scenario folders of both real-client corpora, each sorted: `corpus/real-client/`
/// (OpenTofu), then `corpus/real-client-terraform/` (Terraform). Panics when either is
/// missing or empty, so that a harness never passes over nothing.
pub(crate) fn real_client_scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for set in ["real-client", "real-client-terraform"] {
        let root = repo().join("corpus").join(set);
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
            .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
            .map(|e| e.unwrap().path())
            .filter(|d| d.is_dir())
            .collect();
        dirs.sort();
        assert!(!dirs.is_empty(), "{}: no scenario", root.display());
        out.extend(dirs);
    }
    out
}

/// Reads a JSON file with serde_json (not tfwire): UTF-8 with or without a byte-order
/// mark, or UTF-16 LE with one.
pub(crate) fn read_json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap();
    let text = if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
            .collect();
        String::from_utf16(&units).unwrap()
    } else {
        let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        String::from_utf8(b.to_vec()).unwrap()
    };
    serde_json::from_str(&text).unwrap()
}

/// The summary key of an action list, counted the plain way.
pub(crate) fn action_key(actions: &serde_json::Value) -> String {
    let a: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    match a.as_slice() {
        ["delete", "create"] | ["create", "delete"] => "replace".into(),
        ["no-op"] => "no_op".into(),
        [one] => one.to_string(),
        many => many.join("+"),
    }
}

/// Whether `<details>` and `</details>` are balanced and properly nested, and every
/// `<summary>` is closed on its line.
pub(crate) fn details_balanced(md: &str) -> bool {
    let mut depth = 0i64;
    for line in md.lines() {
        depth += line.matches("<details").count() as i64;
        depth -= line.matches("</details>").count() as i64;
        if depth < 0 || line.matches("<summary>").count() != line.matches("</summary>").count() {
            return false;
        }
    }
    depth == 0
}

/// Whether every Markdown table has rows of the header's number of cells (pipes escaped
/// as `\|` do not count).
pub(crate) fn tables_well_formed(md: &str) -> bool {
    let cells = |l: &str| l.replace("\\|", "").matches('|').count();
    let mut expect = None;
    for line in md.lines() {
        if line.starts_with('|') {
            let n = cells(line);
            match expect {
                None => expect = Some(n),
                Some(e) if e != n => return false,
                _ => {}
            }
        } else {
            expect = None;
        }
    }
    true
}

/// A raw state resource's address without its instance key (`module.m.data.t.n`), as
/// `tofu state list` spells it: the base every instance address starts with.
pub(crate) fn raw_state_base(r: &serde_json::Value) -> String {
    let mut base = String::new();
    if let Some(m) = r["module"].as_str().filter(|m| !m.is_empty()) {
        base = format!("{m}.");
    }
    if r["mode"] == "data" {
        base.push_str("data.");
    }
    base.push_str(&format!(
        "{}.{}",
        r["type"].as_str().unwrap(),
        r["name"].as_str().unwrap()
    ));
    base
}

/// The first line `child` prints on its standard output (which must have been piped),
/// with its line end.
pub(crate) fn first_line(child: &mut std::process::Child) -> String {
    use std::io::{BufRead, BufReader};
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line
}

/// Waits for `child` to end within `within` (else kills it and panics naming `what`); its
/// exit code and standard error (which must have been piped).
pub(crate) fn ended(
    mut child: std::process::Child,
    within: std::time::Duration,
    what: &str,
) -> (Option<i32>, String) {
    use std::io::Read;
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > within {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not end within {within:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status.code(), stderr)
}
