//! Inputs as they come: files or standard input, gzip-compressed, UTF-16; and errors
//! that show where the input is wrong.

use crate::common::*;
use std::io::Write;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(if big_endian {
            &[0xFE, 0xFF]
        } else {
            &[0xFF, 0xFE]
        });
    }
    for u in text.encode_utf16() {
        out.extend_from_slice(&if big_endian {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    out
}

fn temp(name: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("tfwire-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn gzip_input_everywhere() {
    let plan_path = corpus("plans/hieven__terraform-visual/gh-pages/src/data/examples/aws-s3.json");
    let plan = std::fs::read(&plan_path).unwrap();
    let gz = gzip(&plan);
    let gz_file = temp("plan.json.gz", &gz);
    let (_, want, _) = run(&["plan", "summary", "--format", "json", &plan_path], b"");
    for (args, stdin) in [
        (
            vec!["plan", "summary", "--format", "json", "-"],
            gz.as_slice(),
        ),
        (
            vec!["plan", "summary", "--format", "json", gz_file.as_str()],
            b"".as_slice(),
        ),
    ] {
        let (code, out, err) = run(&args, stdin);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, want);
    }
    let (code, out, _) = run(
        &["plan", "show", &gz_file, "aws_s3_bucket.s3_bucket_update"],
        b"",
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with("  # aws_s3_bucket.s3_bucket_update must be replaced"),
        "{out}"
    );
    // Several gzip members, as `cat a.gz b.gz` makes, are one input.
    let half = plan.len() / 2;
    let mut two = gzip(&plan[..half]);
    two.extend(gzip(&plan[half..]));
    let (code, out, _) = run(&["plan", "summary", "--format", "json", "-"], &two);
    assert_eq!((code, out), (0, want));

    let state = std::fs::read(fixture("raw-v4.tfstate")).unwrap();
    let (code, out, _) = run(&["state", "list", "-"], &gzip(&state));
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("data.aws_ami.ubuntu"));

    let (code, out, _) = run(
        &["decode", "--type", r#"["map","number"]"#],
        &gzip(b"\x82\xa1a\x01\xa1b\xc0"),
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "[\"map\",{\"a\":[\"number\",\"1\"],\"b\":[\"null\"]}]\n")
    );

    // Broken gzip is rejected with a message.
    let (code, out, err) = run(&["plan", "summary", "-"], &gz[..gz.len() / 2]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("error: <stdin>: reading gzip-compressed input (the member at byte 0): "),
        "{err}"
    );
    std::fs::remove_file(gz_file).unwrap();
}

#[test]
fn utf16_input_everywhere() {
    // The corpus's UTF-16 plans (saved by Windows PowerShell), shown.
    let mut utf16_plans = 0;
    for path in plan_files() {
        let bytes = std::fs::read(&path).unwrap();
        if !bytes.starts_with(&[0xFF, 0xFE]) {
            continue;
        }
        let p = path.to_string_lossy();
        let doc = read_json(&path);
        let addr = doc["resource_changes"][0]["address"].as_str().unwrap();
        let (code, out, err) = run(&["plan", "show", &p, addr], b"");
        assert_eq!(code, 0, "{p}: {err}");
        assert!(out.starts_with(&format!("  # {addr} ")), "{out}");
        let (code, _, err) = run(&["plan", "summary", "--format", "markdown", "-"], &bytes);
        assert_eq!(code, 0, "{p}: {err}");
        utf16_plans += 1;
    }
    assert_eq!(utf16_plans, 3);

    let state = std::fs::read_to_string(fixture("raw-v4.tfstate")).unwrap();
    for (be, bom) in [(false, true), (true, true), (false, false), (true, false)] {
        let (code, out, err) = run(&["state", "list", "-"], &utf16(&state, be, bom));
        assert_eq!(code, 0, "{be} {bom}: {err}");
        assert_eq!(out.lines().count(), 6);
        let list = r#"["list","string"]"#;
        let (code, out, err) = run(
            &["decode", "--input", "json", "--type", list],
            &utf16("[\"é\", null]", be, bom),
        );
        assert_eq!(
            (code, out.as_str()),
            (0, "[\"list\",[[\"string\",\"é\"],[\"null\"]]]\n"),
            "{err}"
        );
        let (code, out, _) = run(
            &["encode", "--input", "json", "--hex", "--type", list],
            &utf16("[\"a\"]", be, bom),
        );
        assert_eq!((code, out.as_str()), (0, "91a161\n"));
        let (code, out, _) = run(
            &["decode", "--hex", "--type", "\"number\""],
            &utf16("01\n", be, bom),
        );
        assert_eq!((code, out.as_str()), (0, "[\"number\",\"1\"]\n"));
    }
    // A UTF-8 byte-order mark is skipped.
    let (code, out, _) = run(
        &["decode", "--input", "json", "--type", "\"string\""],
        b"\xEF\xBB\xBF\"x\"",
    );
    assert_eq!((code, out.as_str()), (0, "[\"string\",\"x\"]\n"));
    // Broken UTF-16 and UTF-32 are rejected, saying so.
    let (code, _, err) = run(&["plan", "summary", "-"], b"\xFF\xFE{\x00\x00\xD8");
    assert_eq!(code, 1);
    assert!(err.contains("UTF-16"), "{err}");
    let (code, _, err) = run(&["state", "list", "-"], b"\xFF\xFE\x00\x00{\x00\x00\x00");
    assert_eq!(code, 1);
    assert!(err.contains("UTF-32"), "{err}");
}

#[test]
fn json_errors_show_the_line_with_a_caret() {
    let bad = "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [\n    {\"address\": \"a.b\" \"mode\": \"managed\"}\n  ]\n}\n";
    let (code, out, err) = run(&["plan", "summary", "-"], bad.as_bytes());
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: <stdin>: (root): invalid JSON: unexpected character '\"' (at byte 75)\n \
         --> <stdin>:4:23\n  |\n\
         4 |     {\"address\": \"a.b\" \"mode\": \"managed\"}\n  |                       ^\n"
    );
    // From a file, in UTF-16: the line is the file's, transcoded.
    let file = temp("bad-utf16.json", &utf16(bad, false, true));
    let (code, _, err) = run(&["state", "list", &file], b"");
    assert_eq!(code, 1);
    assert!(
        err.ends_with(
            "4 |     {\"address\": \"a.b\" \"mode\": \"managed\"}\n  |                       ^\n"
        ),
        "{err}"
    );
    std::fs::remove_file(file).unwrap();

    // A model error points at the offending value; escapes in the file are shown as
    // written (not as the parser decoded them in place).
    let doc = "{\"format_version\":\"1.2\",\"x\":\"\\u0041\\n\",\"resource_changes\":[{\"change\":{\"actions\":\"create\"}}]}";
    let file = temp("model.json", doc.as_bytes());
    let (code, _, err) = run(&["plan", "summary", &file], b"");
    assert_eq!(code, 1);
    let lines: Vec<&str> = err.lines().collect();
    let at = doc.find("\"create\"").unwrap();
    assert_eq!(
        lines[0],
        format!(
            "error: {file}: .resource_changes[0].change.actions: expected an array, found a string (at byte {at})"
        )
    );
    assert_eq!(lines[1], format!(" --> {file}:1:{}", at + 1));
    assert_eq!(lines[3], format!("1 | {doc}"));
    assert_eq!(lines[4].find('^'), Some(4 + at));
    std::fs::remove_file(file).unwrap();

    // A long single line (as `terraform show -json` writes) is cut around the column.
    let long = format!(
        "{{\"format_version\":\"1.2\",\"resource_changes\":[{}{{\"address\":1}}]}}",
        "{\"address\":\"a.b\",\"mode\":\"managed\",\"type\":\"a\",\"name\":\"b\",\"change\":{\"actions\":[\"create\"]}},".repeat(100)
    );
    let (code, _, err) = run(&["plan", "summary", "-"], long.as_bytes());
    assert_eq!(code, 1);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("error: <stdin>: .resource_changes[100].address: expected a string"),
        "{err}"
    );
    assert!(
        lines[3].starts_with("1 | …") && lines[3].ends_with("]}"),
        "{err}"
    );
    assert!(lines[3].chars().count() < 120, "{err}");
    let caret = lines[4].chars().position(|c| c == '^').unwrap();
    // The caret is under the offending value, the number 1.
    assert_eq!(
        &lines[3].chars().skip(caret).take(10).collect::<String>(),
        "1}]}"
    );

    // Decoding errors: the value path, and for JSON the line and caret.
    let (code, _, err) = run(
        &[
            "decode",
            "--input",
            "json",
            "--type",
            r#"["object",{"tags":["map","number"]}]"#,
        ],
        b"{\"tags\": {\n  \"env\": true}}",
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: .tags[\"env\"]: a number is required, found bool (at byte 20)\n \
         --> <stdin>:2:10\n  |\n2 |   \"env\": true}}\n  |          ^\n"
    );
    let (code, _, err) = run(
        &["decode", "--hex", "--type", r#"["map","number"]"#],
        b"82 a1 61 01 a1 62 c3",
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: [\"b\"]: a number is required, found bool (at byte 6)\n"
    );
}

#[test]
fn help_has_examples_and_exit_codes() {
    for args in [
        vec!["--help"],
        vec!["decode", "--help"],
        vec!["encode", "--help"],
        vec!["plan", "--help"],
        vec!["plan", "summary", "--help"],
        vec!["plan", "show", "--help"],
        vec!["state", "--help"],
        vec!["state", "list", "--help"],
        vec!["state", "show", "--help"],
    ] {
        let (code, out, _) = run(&args, b"");
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains("Examples:\n  "), "{args:?}: {out}");
        assert!(
            out.contains("Exit codes: 0 success, 1 input rejected"),
            "{args:?}: {out}"
        );
    }
}
