//! The benchmark inputs: the committed 1 MB payloads, the 32 MB inputs built from them at
//! bench time, and the synthetic plan.
//!
//! The 32 MB inputs are a list of 32 copies of a 1 MB value, assembled byte by byte (a
//! MessagePack `array16` header or JSON brackets and commas around the copies), so their
//! type is `["list", T]` and their answers follow from the 1 MB ones
//! ([`Answers::repeated`]). Nothing large is committed.

use crate::answers::Answers;
use std::path::{Path, PathBuf};
use tfwire::Program;

/// The payload kinds in `corpus/payloads/`.
pub const KINDS: [&str; 4] = ["resource", "state-list", "strings", "numbers"];

/// How many copies of a 1 MB value make a 32 MB input.
pub const COPIES_32M: usize = 32;

/// The folder of the committed payloads.
pub fn payloads_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/payloads")
}

/// One input in both formats, with its type and answers.
pub struct Input {
    /// `KIND-1m` or `KIND-32m`.
    pub name: String,
    /// The type constraint as type JSON.
    pub type_json: String,
    /// The compiled type.
    pub program: Program,
    /// The MessagePack encoding (go-cty's bytes).
    pub msgpack: Vec<u8>,
    /// The JSON encoding (go-cty's bytes).
    pub json: Vec<u8>,
    /// What a decoder must find.
    pub answers: Answers,
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl Input {
    /// The 1 MB payload of `kind`, its type and its answers; the file lengths are checked
    /// against the answers.
    pub fn one_mb(kind: &str) -> Input {
        let dir = payloads_dir();
        let type_json = String::from_utf8(read(&dir.join(format!("{kind}.type.json"))))
            .expect("type JSON is UTF-8");
        let program = Program::from_type_json(&type_json).expect("a valid type");
        let answers = Answers::for_kind(kind)
            .unwrap_or_else(|| panic!("no answers for {kind} in answers.json"));
        let input = Input {
            name: format!("{kind}-1m"),
            type_json,
            program,
            msgpack: read(&dir.join(format!("{kind}-1m.msgpack"))),
            json: read(&dir.join(format!("{kind}-1m.json"))),
            answers,
        };
        input.check_lengths();
        input
    }

    /// A list of `n` copies of this input's value (`name` gets the suffix given).
    pub fn repeated(&self, n: usize, name: &str) -> Input {
        let type_json = format!("[\"list\",{}]", self.type_json);
        let input = Input {
            name: name.to_string(),
            program: Program::from_type_json(&type_json).expect("a valid type"),
            type_json,
            msgpack: repeat_msgpack(&self.msgpack, n),
            json: repeat_json(&self.json, n),
            answers: self.answers.repeated(n as u64),
        };
        input.check_lengths();
        input
    }

    /// The 32 MB input of `kind`: 32 copies of the 1 MB value.
    pub fn thirty_two_mb(kind: &str) -> Input {
        Input::one_mb(kind).repeated(COPIES_32M, &format!("{kind}-32m"))
    }

    fn check_lengths(&self) {
        crate::answers::check(
            &format!("{} msgpack length", self.name),
            self.msgpack.len() as u64,
            self.answers.msgpack.bytes,
        );
        crate::answers::check(
            &format!("{} JSON length", self.name),
            self.json.len() as u64,
            self.answers.json.bytes,
        );
    }
}

/// The inputs the criterion benchmarks run on: every kind at 1 MB, then at 32 MB unless
/// `TFWIRE_BENCH_SIZES=1m` (e.g. for a quick run).
pub fn bench_inputs() -> Vec<Input> {
    let sizes = std::env::var("TFWIRE_BENCH_SIZES").unwrap_or_else(|_| "1m,32m".into());
    let mut out = Vec::new();
    for size in sizes.split(',') {
        for kind in KINDS {
            match size.trim() {
                "1m" => out.push(Input::one_mb(kind)),
                "32m" => out.push(Input::thirty_two_mb(kind)),
                other => panic!("TFWIRE_BENCH_SIZES: unknown size {other:?} (1m, 32m)"),
            }
        }
    }
    out
}

/// A MessagePack array of `n` copies of the value `one` (the header as go-cty writes it:
/// fixarray, array16 or array32).
pub fn repeat_msgpack(one: &[u8], n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(one.len() * n + 5);
    match n {
        0..=15 => out.push(0x90 | n as u8),
        16..=0xffff => {
            out.push(0xdc);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        _ => {
            out.push(0xdd);
            out.extend_from_slice(&(n as u32).to_be_bytes());
        }
    }
    for _ in 0..n {
        out.extend_from_slice(one);
    }
    out
}

/// A JSON array of `n` copies of the document `one` (compact, as go-cty writes it).
pub fn repeat_json(one: &[u8], n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity((one.len() + 1) * n + 2);
    out.push(b'[');
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(one);
    }
    out.push(b']');
    out
}

/// A synthetic `show -json` plan made by `corpus/tools/mkbigplan.py` from the real plans of
/// the corpus, and the change counts that script computed (its own walk, in Python).
pub struct BigPlan {
    /// The plan's bytes.
    pub bytes: Vec<u8>,
    /// Changes per summary key (`create`, `replace`, `no_op`, ...), keys with 0 left out.
    pub counts: Vec<(String, u64)>,
}

/// Makes (or reuses, from the build directory) a synthetic plan of about `mb` MiB.
///
/// # Panics
/// If `python3 corpus/tools/mkbigplan.py` cannot be run.
pub fn big_plan(mb: u32) -> BigPlan {
    let dir = data_dir();
    std::fs::create_dir_all(&dir).expect("create the benchmark data folder");
    let path = dir.join(format!("bigplan-{mb}mb.json"));
    let counts_path = dir.join(format!("bigplan-{mb}mb.counts.json"));
    if !(path.exists() && counts_path.exists()) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/tools/mkbigplan.py");
        let out = std::process::Command::new("python3")
            .arg(&script)
            .arg(&path)
            .args(["--mb", &mb.to_string()])
            .output()
            .expect("run python3 corpus/tools/mkbigplan.py");
        assert!(
            out.status.success(),
            "mkbigplan.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(&counts_path, &out.stderr).expect("write the plan's counts");
    }
    let report: serde_json::Value =
        serde_json::from_slice(&read(&counts_path)).expect("mkbigplan.py prints JSON");
    let mut counts: Vec<(String, u64)> = report["counts"]
        .as_object()
        .expect("counts")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().expect("a count")))
        .filter(|(_, n)| *n > 0)
        .collect();
    counts.sort();
    BigPlan {
        bytes: read(&path),
        counts,
    }
}

/// Where generated inputs are kept between runs: `tfwire-benches-data` in the build
/// directory (`target/`), found from the running executable.
pub fn data_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the running executable");
    // target/<profile>/deps/<bench> or target/<profile>/<bin>
    let mut dir = exe.parent().expect("a folder").to_path_buf();
    if dir.ends_with("deps") {
        dir.pop();
    }
    dir.pop();
    dir.join("tfwire-benches-data")
}

/// The provider schema documents of the schema-compile bench: the full aws, google and
/// azurerm schemas of the corpus (`terraform providers schema -json` output).
pub const SCHEMAS: [&str; 3] = ["aws", "google", "azurerm"];

/// The `providers schema -json` document `name` (one of [`SCHEMAS`]).
pub fn schema_document(name: &str) -> Vec<u8> {
    read(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/schemas/mikespub-org__amplify-python-hcl2/test/provider_schemas")
            .join(name)
            .join("schema.json"),
    )
}
