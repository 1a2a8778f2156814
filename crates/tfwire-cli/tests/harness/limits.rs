//! Bounded resources: inputs that would inflate past a limit are refused with a message
//! naming the limit and how to raise it, and oddly compressed inputs are named for what
//! they are. Big inputs are generated here, never committed.

use crate::common::*;
use std::io::Write;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn temp(name: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("tfwire-limits-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

/// Every command that reads JSON, with a placeholder for the input.
const JSON_COMMANDS: [&[&str]; 6] = [
    &["plan", "summary", "-"],
    &["plan", "show", "-", "a.b"],
    &["state", "list", "-"],
    &[
        "decode",
        "--input",
        "json",
        "--type",
        r#"["list","number"]"#,
        "-",
    ],
    &[
        "encode",
        "--input",
        "json",
        "--type",
        r#"["list","number"]"#,
        "-",
    ],
    &["schema", "-"],
];

/// 16 MiB of `[`, gzip-compressed (16 KiB): every JSON reader refuses it at the first
/// bracket too deep, before a parser sizes anything from it.
#[test]
fn bracket_bomb_is_refused_by_every_json_reader() {
    let bomb = gzip(&vec![b'['; 16 << 20]);
    assert!(bomb.len() < 64 << 10);
    for args in JSON_COMMANDS {
        let (code, out, err) = run(args, &bomb);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        let first = err.lines().next().unwrap();
        let want = match args[0] {
            // Documents (plans, states, schemas): one framing, `(root)` for the document.
            "plan" | "state" | "schema" => {
                "error: <stdin>: (root): invalid JSON: arrays and objects nested deeper than 1024 levels (at byte 1024)"
            }
            // The value reader stops at the first element: not a number.
            _ => "error: [0]: a number is required, found array (at byte 1)",
        };
        assert_eq!(first, want, "{args:?}");
    }
}

#[test]
fn inflation_stops_at_the_input_limit() {
    let zeros = gzip(&vec![0u8; 4 << 20]);
    for args in JSON_COMMANDS {
        let mut a = vec!["--max-input-bytes", "1048576"];
        a.extend_from_slice(args);
        let (code, _, err) = run(&a, &zeros);
        assert_eq!(code, 1, "{args:?}");
        assert_eq!(
            err,
            "error: <stdin>: the gzip-compressed input inflates to more than 1048576 bytes, \
             the input limit; raise it with --max-input-bytes\n",
            "{args:?}"
        );
    }
    // Raised, the same input is read (and rejected for what it holds).
    let (code, _, err) = run(
        &["--max-input-bytes", "8388608", "plan", "summary", "-"],
        &zeros,
    );
    assert_eq!(code, 1);
    assert!(!err.contains("input limit"), "{err}");
    // Decode's MessagePack input too.
    let (code, _, err) = run(
        &[
            "decode",
            "--type",
            "\"string\"",
            "--max-input-bytes",
            "65536",
            "-",
        ],
        &zeros,
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: <stdin>: the gzip-compressed input inflates to more than 65536 bytes, the \
         input limit; raise it with --max-input-bytes\n"
    );
}

#[test]
fn uncompressed_input_limit() {
    let plan = vec![b' '; 5000];
    let (code, _, err) = run(
        &["--max-input-bytes", "4096", "plan", "summary", "-"],
        &plan,
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: <stdin>: the input has more than 4096 bytes, the input limit; raise it with \
         --max-input-bytes\n"
    );
    let file = temp("big.json", &plan);
    let (code, _, err) = run(&["state", "list", "--max-input-bytes", "4096", &file], b"");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!(
            "error: {file}: the file has 5000 bytes, more than 4096 bytes, the input limit; \
             raise it with --max-input-bytes\n"
        )
    );
}

/// A valid but dense document: more JSON nodes than one per 8 bytes of the input limit.
#[test]
fn node_budget_follows_the_input_limit() {
    let doc = format!(
        r#"{{"format_version":"1.2","resource_changes":[],"variables":{{"v":{{"value":[{}0]}}}}}}"#,
        "0,".repeat(600)
    );
    let (code, _, err) = run(
        &["--max-input-bytes", "2048", "plan", "summary", "-"],
        doc.as_bytes(),
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: <stdin>: (root): the document has 623 JSON nodes (brackets, commas, colons and \
         strings), more than the limit of 256 (one per 8 bytes of --max-input-bytes); raise \
         it with --max-input-bytes\n"
    );
    let (code, _, err) = run(
        &["--max-input-bytes", "8192", "plan", "summary", "-"],
        doc.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn compressed_inputs_named_for_what_they_are() {
    let value = br#"["a"]"#;
    let args = [
        "decode",
        "--input",
        "json",
        "--type",
        r#"["list","string"]"#,
        "-",
    ];
    let ok = "[\"list\",[[\"string\",\"a\"]]]\n";
    // Concatenated members are one stream; zero padding after the last is ignored (as
    // `gzip -d` does).
    let mut two = gzip(b"[\"a\"");
    two.extend_from_slice(&gzip(b"]"));
    assert_eq!(run(&args, &two), (0, ok.into(), String::new()));
    let mut padded = gzip(value);
    padded.extend_from_slice(&[0; 512]);
    assert_eq!(run(&args, &padded), (0, ok.into(), String::new()));

    let mut garbage = gzip(value);
    let end = garbage.len();
    garbage.extend_from_slice(b"hello, world");
    let (code, _, err) = run(&args, &garbage);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!(
            "error: <stdin>: 12 bytes after the end of the gzip data (at byte {end}) are \
             neither another gzip member nor zero padding; they start with 68 65 6c 6c 6f 2c \
             20 77 …\n"
        )
    );

    let (code, _, err) = run(&args, &gzip(&gzip(value)));
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: <stdin>: the input is gzip-compressed twice (the inflated data is gzip \
         again); inflate it once first\n"
    );

    let truncated = &gzip(value)[..12];
    let (code, _, err) = run(&args, truncated);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: <stdin>: reading gzip-compressed input (the member at byte 0): "),
        "{err}"
    );

    for (magic, what) in [
        (&b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46"[..], "xz"),
        (&b"\x28\xb5\x2f\xfd\x04\x58"[..], "zstd"),
        (&b"BZh91AY&SY"[..], "bzip2"),
        (&b"\x04\x22\x4d\x18\x64\x40"[..], "lz4"),
    ] {
        let (code, _, err) = run(&args, magic);
        assert_eq!(code, 1);
        assert_eq!(
            err,
            format!(
                "error: <stdin>: the input is {what}-compressed; tfwire reads gzip only: \
                 decompress it first\n"
            )
        );
    }
}

/// The issue's repros: a set written with two equal numbers is one number (as go-cty's
/// `SetVal` makes it); `1e99999` is written in 7 characters, not 100 000.
#[test]
fn sets_merge_and_exponents_stay_short() {
    let (code, out, err) = run(
        &["encode", "--hex", "--type", r#"["set","number"]"#],
        br#"["set",[["number","1"],["number","1.0"]]]"#,
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "9101\n", ""));
    let (code, out, err) = run(
        &[
            "decode",
            "--input",
            "json",
            "--output",
            "json",
            "--type",
            r#""number""#,
        ],
        b"1e99999",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "1e99999\n", ""));
    let (code, out, _) = run(
        &["decode", "--input", "json", "--type", r#""number""#],
        b"1e99999",
    );
    assert_eq!((code, out.as_str()), (0, "[\"number\",\"1e99999\"]\n"));
}

/// Each message the issue found unclear, asserted verbatim.
#[test]
fn clear_errors() {
    let cases: Vec<(Vec<&str>, Vec<u8>, String)> = vec![
        // A number of a million digits: an excerpt, and its length.
        (
            vec!["decode", "--input", "json", "--type", r#""number""#],
            format!("\"{}e999999\"", "1".repeat(1_000_000)).into_bytes(),
            format!(
                "error: (root): number out of range: \"{}…{}e999999\" (1000007 characters) (at byte 0)\n",
                "1".repeat(40),
                "1".repeat(9)
            ),
        ),
        // A length bound of 2^63 printed as written.
        (
            vec!["decode", "--hex", "--type", r#"["list","string"]"#],
            b"c70b0c8106cf8000000000000000".to_vec(),
            "error: (root): invalid unknown value refinement: collection length bound \
             9223372036854775808 is out of range (at most 9223372036854775807) (at byte 0)\n"
                .into(),
        ),
        // An empty number range in interval notation.
        (
            vec!["decode", "--hex", "--type", r#""number""#],
            b"c7090c82039205c3049205c2".to_vec(),
            "error: (root): invalid unknown value refinement: number bounds [5, 5) hold no \
             number (at byte 0)\n"
                .into(),
        ),
        // Hex input: the bad character, then the odd digit count.
        (
            vec!["decode", "--hex", "--type", r#""string""#],
            b"a1:61".to_vec(),
            "error: hex input: \":\" at byte 2 is not a hex digit\n".into(),
        ),
        (
            vec!["decode", "--hex", "--type", r#""string""#],
            b"a1 6".to_vec(),
            "error: hex input has an odd number of digits (the last, at byte 3, has no pair)\n"
                .into(),
        ),
    ];
    for (args, stdin, want) in cases {
        let (code, _, err) = run(&args, &stdin);
        // JSON errors go on with the line and a caret; the message is the first line.
        let first = err.split_inclusive('\n').next().unwrap_or("");
        assert_eq!((code, first), (1, want.as_str()), "{args:?}");
    }
}

#[test]
fn provider_lists_are_clear() {
    let empty = temp(
        "empty-schema.json",
        br#"{"format_version":"1.0","provider_schemas":{}}"#,
    );
    let (code, _, err) = run(
        &["decode", "--schema", &empty, "--resource", "x", "-"],
        b"\x80",
    );
    assert_eq!(
        (code, err.as_str()),
        (1, "error: the document has no provider schemas\n")
    );
    let providers: String = (0..20_000)
        .map(|i| format!(r#""p{i:05}":{{}}"#))
        .collect::<Vec<_>>()
        .join(",");
    let many = temp(
        "many-schema.json",
        format!(r#"{{"format_version":"1.0","provider_schemas":{{{providers}}}}}"#).as_bytes(),
    );
    let (code, _, err) = run(
        &["decode", "--schema", &many, "--resource", "x", "-"],
        b"\x80",
    );
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: the document has 20000 providers: choose one with --provider (p00000, p00001, \
         p00002, p00003, p00004, p00005, p00006, p00007, p00008, p00009 and 19990 more; \
         `tfwire schema FILE` lists them)\n"
    );
    let (code, _, err) = run(
        &[
            "decode",
            "--schema",
            &many,
            "--resource",
            "x",
            "--provider",
            "q",
            "-",
        ],
        b"\x80",
    );
    assert_eq!(code, 1);
    assert!(
        err.ends_with("and 19990 more; `tfwire schema FILE` lists them)\n"),
        "{err}"
    );
}

/// `format_version` is `MAJOR.MINOR`, as the JSON output format document writes it: every
/// other form is refused with the rule.
#[test]
fn format_version_rule() {
    for bad in ["1", "1.2.3", "01.2", "1.2 ", "v1.2"] {
        let doc = format!(r#"{{"format_version":"{bad}","resource_changes":[]}}"#);
        let (code, _, err) = run(&["plan", "summary", "-"], doc.as_bytes());
        assert_eq!(code, 1, "{bad}");
        let first = err.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "error: <stdin>: .format_version: invalid format_version {bad:?}: expected \
                 MAJOR.MINOR (two numbers without leading zeros, e.g. \"1.2\") (at byte 18)"
            )
        );
    }
    let (code, _, err) = run(
        &["plan", "summary", "-"],
        br#"{"format_version":"1.10","resource_changes":[]}"#,
    );
    assert_eq!(code, 0, "{err}");
}

/// Gzip files are inflated as they are read, into a buffer sized by the gzip trailer: a
/// trailer that lies (several members, or a forged length) changes nothing but the first
/// allocation, and the input limit holds for files as for standard input.
#[test]
fn gzip_files_whatever_their_trailer_says() {
    let value = br#"["a","b","c"]"#;
    let args = |file: &str| -> Vec<String> {
        [
            "decode",
            "--input",
            "json",
            "--type",
            r#"["list","string"]"#,
            file,
        ]
        .map(String::from)
        .to_vec()
    };
    let run_file = |bytes: &[u8], extra: &[&str], tag: &str| {
        let file = temp(tag, bytes);
        let mut a: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        a.extend(args(&file));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let got = run(&a, b"");
        std::fs::remove_file(file).unwrap();
        got
    };
    let (code, want, _) = run(
        &args("-").iter().map(String::as_str).collect::<Vec<_>>(),
        value,
    );
    assert_eq!(code, 0);
    // Two members: the trailer gives the last one's length only.
    let mut two = gzip(&value[..5]);
    two.extend(gzip(&value[5..]));
    assert_eq!(
        run_file(&two, &[], "two.gz"),
        (0, want.clone(), String::new())
    );
    // A forged trailer: 4 GiB, or 0.
    for forged in [u32::MAX, 0] {
        let mut lying = gzip(value);
        let n = lying.len();
        lying[n - 4..].copy_from_slice(&forged.to_le_bytes());
        let (code, out, err) = run_file(&lying, &[], "lying.gz");
        // flate2 checks the trailer's length: a forged one is a corrupt member.
        assert_eq!((code, out.as_str()), (1, ""), "{forged}");
        assert!(
            err.starts_with("error: ")
                && err.contains("reading gzip-compressed input (the member at byte 0): "),
            "{err}"
        );
    }
    // A bomb stops at the limit.
    let zeros = gzip(&vec![0u8; 4 << 20]);
    let (code, _, err) = run_file(&zeros, &["--max-input-bytes", "1048576"], "bomb.gz");
    assert_eq!(code, 1);
    assert!(
        err.ends_with(
            "the gzip-compressed input inflates to more than 1048576 bytes, the input \
             limit; raise it with --max-input-bytes\n"
        ),
        "{err}"
    );
    // A truncated file names the member.
    let whole = gzip(value);
    let (code, _, err) = run_file(&whole[..whole.len() - 6], &[], "cut.gz");
    assert_eq!(code, 1);
    assert!(
        err.contains("reading gzip-compressed input (the member at byte 0): "),
        "{err}"
    );
}

/// A ZIP archive of deflated members, written by hand (the harness has no ZIP writer).
fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, body) in members {
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(body).unwrap();
        let packed = enc.finish().unwrap();
        let mut crc = flate2::Crc::new();
        crc.update(body);
        let offset = out.len() as u32;
        let fixed = |sig: &[u8], extra: &[u8]| {
            let mut h = sig.to_vec();
            h.extend(extra);
            h.extend(20u16.to_le_bytes()); // version needed
            h.extend(0u16.to_le_bytes()); // flags
            h.extend(8u16.to_le_bytes()); // deflate
            h.extend([0, 0, 0x21, 0]); // time, date
            h.extend(crc.sum().to_le_bytes());
            h.extend((packed.len() as u32).to_le_bytes());
            h.extend((body.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes()); // extra length
            h
        };
        out.extend(fixed(b"PK\x03\x04", &[]));
        out.extend(name.as_bytes());
        out.extend(&packed);
        central.extend(fixed(b"PK\x01\x02", &20u16.to_le_bytes()));
        central.extend([0; 8]); // comment length, disk, internal and external attributes
        central.extend([0; 2]);
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let at = out.len() as u32;
    out.extend(&central);
    out.extend(b"PK\x05\x06\0\0\0\0");
    let n = (members.len() as u16).to_le_bytes();
    out.extend(n);
    out.extend(n);
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(at.to_le_bytes());
    out.extend([0, 0]);
    out
}

/// `version: 3`, the start of every `tfplan` member here.
const VERSION_3: &[u8] = &[0x08, 3];

/// 4 Mi empty entries of `resource_changes`, `resource_drift` or `output_changes` (8 MiB of
/// protobuf, about 10 KiB deflated) would decode to a gigabyte of messages: the element
/// budget (one node of 8 bytes per 8 bytes of the input limit) refuses them before prost
/// decodes anything.
#[test]
fn millions_of_empty_plan_entries_are_refused_before_they_are_decoded() {
    for entry in [&[0x1a, 0][..], &[0x92, 0x01, 0], &[0x22, 0]] {
        let mut tfplan = VERSION_3.to_vec();
        tfplan.extend(entry.repeat(4 << 20));
        let file = zip(&[("tfplan", &tfplan)]);
        assert!(file.len() < 64 << 10, "{}", file.len());
        let (code, out, err) = run(&["plan", "summary", "-"], &file);
        assert_eq!(code, 1, "{err}");
        assert!(out.is_empty());
        assert_eq!(
            err,
            "error: <stdin>: the `tfplan` member would decode to more than 33554432 nodes of 8 \
             bytes (messages and their entries), the limit (`Config::max_nodes`; millions of \
             entries in a few kilobytes are more likely a bomb); raise it with \
             --max-input-bytes\n"
        );
    }
}

/// A member inflating past the input limit is refused as it is inflated (the plan file's
/// limit is `--max-input-bytes`), whatever member it is.
#[test]
fn plan_file_members_past_the_input_limit_are_refused() {
    let big = vec![b' '; 2 << 20];
    let mut field = VERSION_3.to_vec();
    field.extend([0x2a, 0x80, 0x80, 0x80, 0x01]); // target_addrs: 2 MiB
    field.extend(&big);
    for (file, member) in [
        (zip(&[("tfplan", &field)]), "tfplan"),
        (zip(&[("tfplan", VERSION_3), ("tfstate", &big)]), "tfstate"),
    ] {
        let (code, _, err) = run(
            &["--max-input-bytes", "1048576", "state", "list", "-"],
            &file,
        );
        assert_eq!(code, 1, "{err}");
        assert_eq!(
            err,
            format!(
                "error: <stdin>: the member `{member}` holds more than 1048576 bytes, the limit \
                 (`Config::max_inflated_bytes`; a plan this large is more likely a ZIP bomb); \
                 raise it with --max-input-bytes\n"
            )
        );
    }
    // Within the limit, a member that decodes to more than the budget (the member and its
    // decoded copy) is refused before it is decoded.
    let (code, _, err) = run(
        &["--max-input-bytes", "3145728", "plan", "summary", "-"],
        &zip(&[("tfplan", &field)]),
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("would decode to more than 393216 nodes of 8 bytes"),
        "{err}"
    );
}

/// A state padded with whitespace within the limit is read from the archive without a
/// copy, and parsed.
#[test]
fn a_padded_state_in_a_plan_file_is_read() {
    let mut state = vec![b' '; 1 << 20];
    state.extend(br#"{"version":4,"terraform_version":"1.9.0","serial":1,"lineage":"x","outputs":{},"resources":[]}"#);
    let file = zip(&[("tfplan", VERSION_3), ("tfstate", &state)]);
    let (code, out, err) = run(&["state", "list", "-"], &file);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}
