//! `tfwire dump` on real captures: every value decodes, every line is JSON of the record's
//! shape, and no value of a schema-sensitive attribute reaches the output.

use std::path::{Path, PathBuf};

/// The capture directories: this repository's, and the real-client corpus's when present.
fn captures() -> Vec<(PathBuf, PathBuf)> {
    let corpus = PathBuf::from(crate::common::corpus(""));
    let mut out = vec![(
        corpus.join("proto-data/sensitive/proto"),
        corpus.join("proto-data/sensitive/schemas.json"),
    )];
    if let Ok(dirs) = std::fs::read_dir(corpus.join("real-client")) {
        for d in dirs.flatten() {
            let (proto, schemas) = (d.path().join("proto"), d.path().join("schemas.json"));
            if proto.is_dir() && schemas.is_file() {
                out.push((proto, schemas));
            }
        }
    }
    out
}

/// The values of every sensitive attribute of the scenario's configuration (the strings a
/// leak would show).
fn secrets(dir: &Path) -> Vec<&'static str> {
    if dir.ends_with("proto-data/sensitive/proto") {
        // secret = "s3cret", secret_map = {one = "1", two = "2"} (too short to search for),
        // and the provider's and write-only arguments take var.token ("t0ken"), which also
        // flows into non-sensitive attributes: searched for only in the sensitive fields.
        vec!["s3cret"]
    } else {
        Vec::new()
    }
}

#[test]
fn dump_decodes_every_value_and_masks_sensitive_attributes() {
    let mut lines = 0;
    for (dir, schemas) in captures() {
        let out = crate::common::run_raw(
            &[
                "dump",
                &dir.display().to_string(),
                "--schemas",
                &schemas.display().to_string(),
            ],
            b"",
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {stderr}\n{stdout}",
            dir.display()
        );
        let files = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| {
                let n = e.file_name().into_string().unwrap();
                (n.ends_with(".msgpack") || n.ends_with(".json"))
                    && !n.contains("Private")
                    && e.metadata().unwrap().len() > 0
                    && n != "index.json"
            })
            .count();
        assert_eq!(
            stdout.lines().count(),
            files,
            "{}: one line per value",
            dir.display()
        );
        for line in stdout.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for k in [
                "time",
                "rpc",
                "direction",
                "field",
                "file",
                "bytes",
                "value",
            ] {
                assert!(v.get(k).is_some(), "{line}: {k}");
            }
            assert!(v.get("error").is_none(), "{line}");
            for s in secrets(&dir) {
                assert!(!line.contains(s), "{line}: leaks {s}");
            }
            lines += 1;
        }
        // The sensitive capture: the masked attributes are there, as markers.
        if !secrets(&dir).is_empty() {
            let shapes = stdout
                .lines()
                .find(|l| l.contains("\"field\":\"planned_state\""))
                .expect("a planned state");
            for attr in ["secret", "secret_map", "password_wo", "computed_secret"] {
                assert!(
                    shapes.contains(&format!("\"{attr}\":\"(sensitive)\"")),
                    "{attr} masked: {shapes}"
                );
            }
            let provider = stdout
                .lines()
                .find(|l| l.contains("\"rpc\":\"ConfigureProvider\""))
                .expect("ConfigureProvider");
            assert!(
                provider.contains("\"secret\":\"(sensitive)\""),
                "{provider}"
            );
            assert!(!provider.contains("t0ken"), "{provider}");
        }
    }
    assert!(lines >= 13, "{lines} lines");
}

/// Without an index the type is inferred when exactly one schema accepts the value; a value
/// no schema accepts is an error line naming the field, and the exit code is 1.
#[test]
fn dump_without_an_index() {
    let src = PathBuf::from(crate::common::corpus("")).join("proto-data/sensitive");
    let tmp = std::env::temp_dir().join(format!("tfwire-dump-test-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for e in std::fs::read_dir(src.join("proto")).unwrap().flatten() {
        let n = e.file_name().into_string().unwrap();
        if n.contains("PlanResourceChange_Response") {
            std::fs::copy(e.path(), tmp.join(&n)).unwrap();
        }
    }
    // A value of no schema: a bare string where a resource object is expected.
    std::fs::write(
        tmp.join("9_ReadResource_Response_NewState.msgpack"),
        b"\xa1x",
    )
    .unwrap();
    let schemas = src.join("schemas.json").display().to_string();
    let out = crate::common::run_raw(
        &["dump", &tmp.display().to_string(), "--schemas", &schemas],
        b"",
    );
    std::fs::remove_dir_all(&tmp).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].contains("\"type_name\":\"tfwire_shapes\""),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("\"type_inferred\":true"), "{}", lines[0]);
    assert!(
        lines[1].contains("\"error\":\"the type is not named by an index and 0 of the"),
        "{}",
        lines[1]
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: 1 of 2 values did not decode (see the \"error\" lines)\n"
    );
}
