//! `tfwire dump` on real captures: every value decodes, every line is JSON of the record's
//! shape, and no value of a schema-sensitive attribute reaches the output.

use std::path::{Path, PathBuf};

/// The capture directories: this repository's, and those of both real-client corpora.
fn captures() -> Vec<(PathBuf, PathBuf)> {
    let corpus = PathBuf::from(crate::common::corpus(""));
    let mut out = vec![(
        corpus.join("proto-data/sensitive/proto"),
        corpus.join("proto-data/sensitive/schemas.json"),
    )];
    for d in crate::common::real_client_scenarios() {
        let (proto, schemas) = (d.join("proto"), d.join("schemas.json"));
        if proto.is_dir() && schemas.is_file() {
            out.push((proto, schemas));
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
        lines[1].contains("\"error\":\"the type is not named by an index and none of the"),
        "{}",
        lines[1]
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: 1 of 2 values did not decode (see the \"error\" lines)\n"
    );
}

/// A folder of the tests below, with a schema document of `n` resource types whose one
/// attribute `v` is a string (so that any `{"v": "..."}` value decodes with each of them).
fn folder(tag: &str, n: usize) -> (PathBuf, String) {
    let tmp = std::env::temp_dir().join(format!("tfwire-dump-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let resources: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#""x_r{i}":{{"version":0,"block":{{"attributes":{{"v":{{"type":"string","optional":true}}}}}}}}"#
            )
        })
        .collect();
    let schemas = format!(
        r#"{{"format_version":"1.0","provider_schemas":{{"registry.opentofu.org/x/x":{{"provider":{{"version":0,"block":{{}}}},"resource_schemas":{{{}}}}}}}}}"#,
        resources.join(",")
    );
    let path = std::env::temp_dir().join(format!("tfwire-dump-{tag}-{}.json", std::process::id()));
    std::fs::write(&path, schemas).unwrap();
    (tmp, path.display().to_string())
}

const VALUE: &str = "1_PlanResourceChange_Request_Config.msgpack";

fn dump(dir: &std::path::Path, schemas: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = extra.to_vec();
    let d = dir.display().to_string();
    args.extend(["dump", &d, "--schemas", schemas]);
    crate::common::run(&args, b"")
}

/// A value that every one of 300 schemas accepts (no index) is an error line as soon as a
/// second schema accepts it: nothing is kept of the others.
#[test]
fn inference_stops_at_the_second_schema_that_accepts_a_value() {
    let (dir, schemas) = folder("many", 300);
    let mut value = b"\x81\xa1v\xdb".to_vec();
    value.extend((1u32 << 20).to_be_bytes());
    value.extend(vec![b'x'; 1 << 20]);
    std::fs::write(dir.join(VALUE), &value).unwrap();
    let (code, out, err) = dump(&dir, &schemas, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.ends_with(r#""bytes":1048584,"error":"the type is not named by an index and more than one of the 300 schemas of its kind decode it"}
"#),
        "{}",
        &out[..out.len().min(400)]
    );
    // Under a lower limit, the schemas tried are bounded by the bytes they would decode.
    let (code, out, _) = dump(&dir, &schemas, &["--max-input-bytes", "1500000"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("trying the 300 schemas of its kind on this 1048584-byte value would decode more than 1500000 bytes, the inference limit"),
        "{out}"
    );
    // A value file past the input limit is refused from its size.
    let (code, out, _) = dump(&dir, &schemas, &["--max-input-bytes", "100000"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(r#""bytes":0,"error":"more than 100000 bytes, the input limit; raise it with --max-input-bytes"}"#),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&schemas).unwrap();
}

/// FIFOs, sockets and links leaving the folder are not read: an error line for a value,
/// a fatal error for the index. Nothing blocks.
#[cfg(unix)]
#[test]
fn only_regular_files_are_read() {
    let (dir, schemas) = folder("fifo", 1);
    let fifo = |p: &std::path::Path| {
        let ok = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap();
        assert!(ok.success());
    };
    fifo(&dir.join(VALUE));
    std::os::unix::fs::symlink(
        &schemas,
        dir.join("2_PlanResourceChange_Request_Config.msgpack"),
    )
    .unwrap();
    std::fs::write(dir.join("inside"), b"\x81\xa1v\xa1x").unwrap();
    std::os::unix::fs::symlink(
        dir.join("inside"),
        dir.join("3_PlanResourceChange_Request_Config.msgpack"),
    )
    .unwrap();
    let (code, out, err) = dump(&dir, &schemas, &[]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].ends_with(
            r#""bytes":0,"error":"a FIFO, not a regular file; only regular files are read"}"#
        ),
        "{out}"
    );
    assert!(lines[1].ends_with(r#""bytes":0,"error":"a symbolic link to outside the folder; only files inside it are read"}"#), "{out}");
    assert!(lines[2].contains(r#""value":{"v":"x"}"#), "{out}");
    assert_eq!(
        err,
        "error: 2 of 3 values did not decode (see the \"error\" lines)\n"
    );
    for index in ["index.json", "index.jsonl"] {
        fifo(&dir.join(index));
        let (code, out, err) = dump(&dir, &schemas, &[]);
        assert_eq!((code, out.as_str()), (1, ""));
        assert_eq!(
            err,
            format!(
                "error: {}: a FIFO, not a regular file; only regular files are read\n",
                dir.join(index).display()
            )
        );
        std::fs::remove_file(dir.join(index)).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&schemas).unwrap();
}
