//! Seed inputs for every target, built from `corpus/`: the conformance vectors (their
//! MessagePack and JSON, with their types, in the targets' layouts) and the real plan and
//! state documents. `tfwire-fuzz-seeds` writes them out for the fuzzer; the tests run a
//! sample of them through the checks.

use crate::input::{flags, typed_input, with_cuts};
use std::fs;
use std::io;
use std::path::Path;
use tfwire_plan::{Json, Parser};

/// One seed input.
#[derive(Clone, Debug)]
pub struct Seed {
    /// The target it is for.
    pub target: &'static str,
    /// A file name: where it came from, made unique.
    pub name: String,
    /// The input.
    pub data: Vec<u8>,
}

/// The longest input given to a target (libFuzzer's `-max_len`): seeds longer than this are
/// left out.
pub fn max_len(target: &str) -> usize {
    if target == "plan"
        || target == "skeleton"
        || target == "planfile"
        || target == "dump"
        || target == "cassette"
        || target == "fleet_rows"
    {
        32 * 1024
    } else if target == "tap_handshake" {
        68 * 1024
    } else {
        4096
    }
}

/// The conformance files read for seeds.
const VECTOR_FILES: &[&str] = &[
    "vectors.jsonl",
    "vectors-cty116.jsonl",
    "vectors-refined.jsonl",
    "bad.jsonl",
    "bad-refined.jsonl",
    "tftypes-and-cty-test-vectors.jsonl",
];

/// Generated-type seeds per typed target.
const GENERATED: u64 = 32;

/// Every seed, built from `corpus` (the repository's `corpus/` folder), in a fixed order.
///
/// # Errors
///
/// A file of the corpus that cannot be read.
pub fn build(corpus: &Path) -> io::Result<Vec<Seed>> {
    let mut seeds = Vec::new();
    let mut push = |target: &'static str, name: String, data: Vec<u8>| {
        if data.len() <= max_len(target) {
            seeds.push(Seed { target, name, data });
        }
    };
    let mut parser = Parser::new();
    for file in VECTOR_FILES {
        let stem = file.trim_end_matches(".jsonl");
        let text = fs::read_to_string(corpus.join("conformance").join(file))?;
        for (i, line) in text.lines().enumerate() {
            let mut bytes = line.as_bytes().to_vec();
            // Lines with lone surrogate escapes (which simd-json refuses) are left out.
            let Ok(tape) = parser.parse(&mut bytes) else {
                continue;
            };
            let Some(v) = Vector::read(tape.root()) else {
                continue;
            };
            let name = format!("{stem}-{i:04}");
            if let Some(mp) = &v.msgpack {
                push("tokenize", name.clone(), mp.clone());
                let thirds = cuts_in_thirds(mp.len());
                push("tokenize_chunked", name.clone(), with_cuts(&thirds, mp));
                let typed = typed_input(0, &v.ty, mp);
                push("decode_msgpack", name.clone(), typed.clone());
                push("msgpack_vs_json", name.clone(), typed.clone());
                push("stream", name.clone(), with_cuts(&thirds, &typed));
            }
            if let Some(json) = &v.json {
                push("decode_json", name.clone(), typed_input(0, &v.ty, json));
            }
        }
    }
    // Generated types (and, for msgpack_vs_json, generated values) from fixed bytes.
    for i in 0..GENERATED {
        let depth_bits = ((i % 4) as u8) << 1;
        let mut data = vec![flags::ARBITRARY_TYPE | depth_bits];
        data.extend(pseudo_random(i, 256));
        let name = format!("generated-{i:02}");
        push("decode_msgpack", name.clone(), data.clone());
        push("decode_json", name.clone(), data.clone());
        push("stream", name.clone(), with_cuts(&[7, 40], &data));
        data[0] |= flags::GENERATE_VALUE;
        push("msgpack_vs_json", name, data);
    }
    for folder in ["plans", "states"] {
        for path in sorted_files(&corpus.join(folder))? {
            let data = fs::read(&path)?;
            let name = seed_name(corpus, &path);
            let mut summary = vec![0];
            summary.extend_from_slice(&data);
            push("skeleton", format!("{name}-summary"), summary);
            let mut change = vec![1];
            change.extend_from_slice(&data);
            push("skeleton", format!("{name}-change"), change);
            push("plan", name, data);
        }
    }
    // The fleet's rows: every state and plan of the corpus small enough, for a few tables,
    // phase filters and the sensitive option.
    for folder in ["plans", "states", "fleet/states", "fleet/plans"] {
        for (i, path) in sorted_files(&corpus.join(folder))?.into_iter().enumerate() {
            let data = fs::read(&path)?;
            let name = seed_name(corpus, &path);
            let mut input = vec![(i % 256) as u8 | if i % 3 == 0 { 0x80 } else { 0 }, i as u8];
            input.extend_from_slice(&data);
            push("fleet_rows", name, input);
        }
    }
    for (i, data) in crate::skeleton_documents().into_iter().enumerate() {
        push("skeleton", format!("made-up-{i:03}"), data);
    }
    // Plan files: each whole, and its `tfplan` message alone (wrapped by the check), and
    // the invalid and hostile files; Terraform's too (its dialect of the format).
    for folder in ["planfiles", "planfiles-invalid", "real-client-terraform"] {
        for path in sorted_files(&corpus.join(folder))? {
            let data = fs::read(&path)?;
            let name = seed_name(corpus, &path);
            let is_plan = path.extension().is_some_and(|e| e == "tfplan");
            if !(is_plan || folder == "planfiles-invalid") {
                continue;
            }
            if let Ok(mut zip) = zip::ZipArchive::new(std::io::Cursor::new(&data[..]))
                && let Ok(mut f) = zip.by_name("tfplan")
            {
                let mut tfplan = Vec::new();
                if std::io::Read::read_to_end(&mut f, &mut tfplan).is_ok() {
                    push(
                        "planfile",
                        format!("{name}-tfplan"),
                        crate::tfplan_input(&tfplan),
                    );
                }
            }
            let mut whole = vec![0];
            whole.extend_from_slice(&data);
            push("planfile", name, whole);
        }
    }
    // Captured folders for `dump`: the whole folder with an index naming every file's type,
    // without one (the types inferred), and each value alone.
    let folder = corpus.join("proto-data/sensitive/proto");
    let files = sorted_files(&folder)?;
    let mut entries = Vec::new();
    for path in &files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        entries.push((name.unwrap_or_default(), fs::read(path)?));
    }
    let borrowed: Vec<(&str, &[u8])> = entries.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    push(
        "dump",
        "sensitive-no-index".into(),
        crate::dump_input(&borrowed),
    );
    let index: Vec<String> = entries
        .iter()
        .map(|(n, _)| format!(r#"{{"file":"{n}","type_name":"tfwire_shapes"}}"#))
        .collect();
    let index = index.join("\n");
    let mut with_index = borrowed.clone();
    with_index.push(("index.jsonl", index.as_bytes()));
    push(
        "dump",
        "sensitive-index-jsonl".into(),
        crate::dump_input(&with_index),
    );
    for (name, bytes) in &borrowed {
        push(
            "dump",
            format!("value-{name}"),
            crate::dump_input(&[(name, bytes)]),
        );
        let index = format!(r#"{{"files":[{{"file":"{name}","type_name":"tfwire_shapes"}}]}}"#);
        push(
            "dump",
            format!("indexed-{name}"),
            crate::dump_input(&[(name, bytes), ("index.json", index.as_bytes())]),
        );
    }
    tap_seeds(&mut push);
    cassette_seeds(&mut push);
    Ok(seeds)
}

/// Seeds for the `tap_*` targets: handshake lines as go-plugin prints them (with and
/// without a certificate, then later output), and one call's frames of a few methods.
fn tap_seeds(push: &mut impl FnMut(&'static str, String, Vec<u8>)) {
    use crate::tap::{frames_input, grpc_body};
    let cert = tfwire_plugin::handshake::base64_encode(&(0..=255).collect::<Vec<u8>>());
    let outputs: [(&str, Vec<u8>); 14] = [
        (
            "plain",
            b"1|6|unix|/tmp/plugin123/plugin.sock|grpc|\n".to_vec(),
        ),
        (
            "five-fields",
            b"1|5|unix|/tmp/plugin1|grpc\n[INFO] started\n".to_vec(),
        ),
        (
            "automtls",
            format!("1|6|unix|/tmp/plugin9/plugin.sock|grpc|{cert}\r\n").into_bytes(),
        ),
        ("tcp", b"1|5|tcp|127.0.0.1:1234|grpc|\n".to_vec()),
        (
            "log-first",
            b"[DEBUG] plugin starting\n1|6|unix|/s|grpc|\n".to_vec(),
        ),
        ("no-newline", b"1|6|unix|/s|grpc|".to_vec()),
        ("bad-words", b"hello\n".to_vec()),
        ("bad-core", b"2|6|unix|/s|grpc|\n".to_vec()),
        ("bad-version", b"1|x|unix|/s|grpc|\n".to_vec()),
        ("bad-cert", b"1|6|unix|/s|grpc|@AAA\n".to_vec()),
        ("bad-cert-length", b"1|6|unix|/s|grpc|Z\n".to_vec()),
        ("seven-fields", b"1|6|unix|/s|grpc|AQID|x\n".to_vec()),
        ("not-utf8", b"1|6|unix|/\x80|grpc|\n".to_vec()),
        ("empty", b"\n".to_vec()),
    ];
    for (name, output) in outputs {
        for (i, cuts) in [&[][..], &[7, 30], &[1, 2, 3, 200]].into_iter().enumerate() {
            push(
                "tap_handshake",
                format!("{name}-{i}"),
                with_cuts(cuts, &output),
            );
        }
    }
    // Past the bound: 64 KiB and more without a newline.
    push(
        "tap_handshake",
        "flood".into(),
        with_cuts(&[4096, 65535], &vec![b'1'; 66_000]),
    );
    let methods: Vec<_> = tfwire_plugin::rpc::Method::all().collect();
    // A DynamicValue message (`msgpack` = {"name": "a"}) inside a request's field 3 and 4.
    let value: &[u8] = b"\x0a\x07\x81\xa4name\xa1a";
    let mut nested = vec![0x1a, value.len() as u8];
    nested.extend_from_slice(value);
    nested.extend_from_slice(&[0x22, value.len() as u8]);
    nested.extend_from_slice(value);
    let mut typed = vec![0x0a, 2, b'd', b'b'];
    typed.extend_from_slice(&nested);
    for (i, m) in methods.iter().enumerate() {
        for response in [false, true] {
            let body = grpc_body(&[&typed, b"", &nested]);
            push(
                "tap_frames",
                format!(
                    "{}-{}",
                    m.name,
                    if response { "response" } else { "request" }
                ),
                frames_input(i, response, &[3, 9], &body),
            );
        }
    }
}

/// Seeds for the `cassette` target: a cassette of a session of the target's provider (a
/// configuration with a secret in every kind of position, planned), whole and cut short, and
/// the plan request and response alone as messages.
fn cassette_seeds(push: &mut impl FnMut(&'static str, String, Vec<u8>)) {
    use tfwire_plugin::cassette::{Cassette, Session};
    // {"name": "n", "password": "hunter2-pass", "pin": 7, "flag": true, "env": {"K": "v1"},
    //  "tags": ["t1"], "list": [{"id": "i", "key": "k1"}], the rest null}
    let mut value = vec![0x8f];
    let mut put = |k: &str, v: &[u8]| {
        value.push(0xa0 | k.len() as u8);
        value.extend_from_slice(k.as_bytes());
        value.extend_from_slice(v);
    };
    let nested_block = b"\x82\xa2id\xa1i\xa3key\xa2k1";
    put("dyn", b"\xc0");
    put("env", b"\x81\xa1K\xa2v1");
    put("flag", b"\xc3");
    put("group", b"\xc0");
    put("list", &[&[0x91][..], nested_block].concat());
    put("map", b"\xc0");
    put("name", b"\xa1n");
    put("nested", b"\xc0");
    put("obj", b"\xc0");
    put("password", b"\xachunter2-pass");
    put("pin", b"\x07");
    put("set", b"\xc0");
    put("single", b"\xc0");
    put("tags", b"\x91\xa2t1");
    put("wo", b"\xc0");
    // A length-delimited protobuf field: its tag byte, the length as a varint, the bytes.
    let field = |tag: u8, bytes: &[u8]| {
        let mut out = vec![tag];
        let mut n = bytes.len();
        while n >= 0x80 {
            out.push((n as u8) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
        out.extend_from_slice(bytes);
        out
    };
    let dv = field(0x0a, &value);
    // PlanResourceChange: request {type_name: "t", config: dv, prior_private: …}; response
    // {planned_state: dv, diagnostics: [{detail: "…hunter2-pass…"}]}.
    let request = [
        field(0x0a, b"t"),
        field(0x22, &dv),
        field(0x2a, br#"{"pw":"hunter2-pass"}"#),
    ]
    .concat();
    let response = [
        field(0x0a, &dv),
        field(0x22, &field(0x1a, b"hunter2-pass!")),
    ]
    .concat();
    let mut session: Session =
        crate::message_session("/tfplugin6.Provider/PlanResourceChange", &request, false);
    session.calls[0].responses = vec![response.clone().into()];
    let mut file = Vec::new();
    Cassette {
        sessions: vec![session.clone(), session.clone()],
    }
    .write(&mut file)
    .expect("writing to memory");
    let with_mode = |mode: u8, rest: &[u8]| [&[mode][..], rest].concat();
    push("cassette", "file".into(), with_mode(0, &file));
    // With the open markers recording taps append when they start: one closed by its
    // session's id, one left open (a tap killed before writing).
    let marker = |id: &str| {
        format!("{{\"tfwire_cassette_open\":1,\"session\":\"{id}\",\"pid\":7,\"provider\":null}}\n")
    };
    let mut marked = marker("7-1-0").into_bytes();
    marked.extend_from_slice(marker("7-2-1").as_bytes());
    Cassette {
        sessions: vec![Session {
            id: Some("7-1-0".into()),
            ..session
        }],
    }
    .write(&mut marked)
    .expect("writing to memory");
    push("cassette", "file-marked".into(), with_mode(0, &marked));
    // Cut anywhere: sessions short of their calls, lines cut in the middle.
    for i in 1..16 {
        let cut = &file[..file.len() * i / 16];
        push("cassette", format!("file-cut-{i}"), with_mode(0, cut));
    }
    // The plan messages under every method the message mode records, both ways.
    for (name, m) in [("request", &request), ("response", &response)] {
        for method in 0..4u8 {
            for direction in [0, 2] {
                push(
                    "cassette",
                    format!("{name}-as-{method}-{direction}"),
                    with_mode(crate::MESSAGE | direction | method << 2, m),
                );
            }
        }
    }
}

/// What a conformance line gives: its type (compact type JSON) and inputs.
struct Vector {
    ty: String,
    msgpack: Option<Vec<u8>>,
    json: Option<Vec<u8>>,
}

impl Vector {
    fn read(line: Json<'_>) -> Option<Vector> {
        let ty = line.get("type").filter(|t| !t.is_null())?.to_string();
        let string = |k: &str| line.get(k).and_then(|v| v.as_str());
        let (msgpack, json) = if let Some(encoding) = string("encoding") {
            // The transcribed vectors: `hex` (MessagePack) or `json`.
            match encoding {
                "msgpack" => (string("hex").and_then(hex), None),
                _ => (None, string("json").map(|s| s.as_bytes().to_vec())),
            }
        } else {
            (
                string("msgpack_hex").and_then(hex),
                string("json_text")
                    .map(|s| s.as_bytes().to_vec())
                    .or_else(|| string("json_hex").and_then(hex)),
            )
        };
        Some(Vector { ty, msgpack, json })
    }
}

fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn cuts_in_thirds(len: usize) -> Vec<u16> {
    let len = u16::try_from(len).unwrap_or(u16::MAX);
    vec![len / 3, len / 3 * 2]
}

/// `n` bytes of a fixed sequence (splitmix64 from `seed`).
fn pseudo_random(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x7f4a;
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(n);
    out
}

/// Every file under `dir` (its subdirectories too), sorted.
fn sorted_files(dir: &Path) -> io::Result<Vec<std::path::PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    files.sort();
    Ok(files)
}

/// A seed's name for a corpus file: its path in the corpus, `/` as `_`.
fn seed_name(corpus: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(corpus).unwrap_or(path);
    rel.to_string_lossy().replace(['/', '\\'], "_")
}
