//! The `tfwire` command as a user runs it: transcoding with `decode --output`, and `encode`.

/// Runs `tfwire args...` with `stdin`; returns the exit code, standard output, standard error.
fn tfwire(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let out = crate::common::run_raw(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let (code, out, err) = tfwire(args, stdin);
    assert_eq!(code, 0, "tfwire {args:?}: {err}");
    out
}

const TY: &str = r#"["object",{"n":"number","tags":["map","string"]}]"#;

#[test]
fn decode_transcodes() {
    // {"n": 0.1 (float64), "tags": {"a": "<b>"}}
    let hex = "82a16ecb3fb999999999999aa47461677381a161a33c623e";
    let args = |out: &'static str| ["decode", "--type", TY, "--hex", "--output", out];
    assert_eq!(
        ok(&args("msgpack"), hex.as_bytes()),
        format!("{hex}\n").as_bytes()
    );
    assert_eq!(
        ok(&args("json"), hex.as_bytes()),
        b"{\"n\":0.1,\"tags\":{\"a\":\"\\u003cb\\u003e\"}}\n"
    );
    assert_eq!(
        ok(&args("canonical"), hex.as_bytes()),
        "[\"object\",{\"n\":[\"number\",\"0.1000000000000000055511151231257827021181583404541015625\"],\"tags\":[\"map\",{\"a\":[\"string\",\"<b>\"]}]}]\n".as_bytes()
    );
    // Raw bytes without --hex, both ways.
    let raw = ok(
        &[
            "decode", "--type", TY, "--input", "json", "--output", "msgpack",
        ],
        br#"{"n":2,"tags":null}"#,
    );
    assert_eq!(raw, b"\x82\xa1n\x02\xa4tags\xc0");
    assert_eq!(
        ok(&["decode", "--type", TY, "--output", "json"], &raw),
        b"{\"n\":2,\"tags\":null}\n"
    );
}

#[test]
fn encode_from_canonical_and_json() {
    let canonical = br#"["object",{"tags":["map",{"b":["null"],"a":["string","x"]}],"n":["unknown",{"nullness":false}]}]"#;
    assert_eq!(
        ok(&["encode", "--type", TY, "--hex"], canonical),
        b"82a16ec7030c8101c2a47461677382a161a178a162c0\n"
    );
    assert_eq!(
        ok(
            &["encode", "--type", TY, "--input", "json"],
            br#"{"n": 1e3}"#
        ),
        b"\x82\xa1n\xcd\x03\xe8\xa4tags\xc0"
    );
}

#[test]
fn errors_and_exit_codes() {
    let (code, _, err) = tfwire(
        &["encode", "--type", TY, "--hex"],
        br#"["object",{"n":["bool",true],"tags":["null"]}]"#,
    );
    assert_eq!(
        (code, err.as_str()),
        (1, "error: .n: a number is required, found bool\n")
    );
    let (code, _, err) = tfwire(&["encode", "--type", TY], b"[\"object\",\n{]");
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "error: (root): invalid JSON: expected a string, found character ']' (at byte 12)\n \
             --> <stdin>:2:2\n  |\n2 | {]\n  |  ^\n"
        )
    );
    let (code, _, err) = tfwire(
        &[
            "decode",
            "--type",
            r#"["list","string"]"#,
            "--hex",
            "--output",
            "json",
        ],
        b"91 d4 00 00",
    );
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "error: [0]: cannot encode: an unknown value cannot be written as JSON\n"
        )
    );
    let (code, _, err) = tfwire(&["encode", "--type", "strin"], b"");
    assert_eq!(code, 2, "{err}");
}

/// `decode --path`: the value at a path, or `null` where there is none; usage errors exit 2.
#[test]
fn decode_path() {
    let ty = r#"["object",{"name":"string","tags":["map","string"]}]"#;
    // {"name": "web", "tags": {"env": "prod"}}
    let input = b"\x82\xa4name\xa3web\xa4tags\x81\xa3env\xa4prod";
    for (path, want) in [
        (r#".tags["env"]"#, r#"["string","prod"]"#),
        (".tags", r#"["map",{"env":["string","prod"]}]"#),
        (".tags.owner", "null"),
        (".nope", "null"),
    ] {
        let out = crate::common::run_raw(&["decode", "--type", ty, "--path", path], input);
        assert_eq!(out.status.code(), Some(0), "{path}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{want}\n"),
            "{path}"
        );
    }
    for args in [
        &["--path", ".a["][..],
        &["--path", ".a", "--input", "json"][..],
        &["--path", ".a", "--output", "json"][..],
    ] {
        let mut all = vec!["decode", "--type", ty];
        all.extend_from_slice(args);
        let out = crate::common::run_raw(&all, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        if args[1] == ".a[" {
            // The path's error names the text and the byte where it breaks.
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(r#"--path: invalid path ".a[": expected a number or a "string" after '[' (at byte 3)"#),
                "{err}"
            );
        }
    }
    // A bad value on the path is an input error naming it.
    let out = crate::common::run_raw(
        &["decode", "--type", ty, "--path", ".name"],
        b"\x81\xa4name\xc3",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: .name: a string is required, found bool (at byte 6)\n"
    );
}
