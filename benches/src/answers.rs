//! The answers a benchmark must find before it is timed (`benches/answers.json`).
//!
//! The file is written by `benches/answers.py` from Python's `msgpack` and `json` readers, so
//! the figures do not come from the code being timed. A benchmark whose decoder finds other
//! counts panics before any timing: a fast wrong answer fails.

use serde_json::Value as Json;

/// What the decoded cty value holds (the same for both formats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueCounts {
    /// Every value node: containers and leaves (map keys and attribute names not counted).
    pub values: u64,
    /// Null values.
    pub nulls: u64,
    /// Bools.
    pub bools: u64,
    /// Numbers.
    pub numbers: u64,
    /// Strings (leaves only).
    pub strings: u64,
    /// UTF-8 bytes of the string leaves.
    pub string_bytes: u64,
    /// Map keys and object attribute names.
    pub keys: u64,
    /// UTF-8 bytes of the keys.
    pub key_bytes: u64,
}

/// What a MessagePack reader sees, without a type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsgpackCounts {
    /// Input length.
    pub bytes: u64,
    /// Every token: values and map keys.
    pub tokens: u64,
    /// `str` tokens, keys included.
    pub str_tokens: u64,
    /// Payload bytes of the `str` tokens.
    pub str_bytes: u64,
}

/// What a JSON reader sees, without a type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonCounts {
    /// Input length.
    pub bytes: u64,
    /// Every value plus every object key (what a DOM or a simd-json tape holds).
    pub nodes: u64,
    /// Unescaped UTF-8 bytes of every string, keys included.
    pub string_bytes: u64,
}

/// The answers for one payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Answers {
    /// The typed value.
    pub value: ValueCounts,
    /// The MessagePack encoding.
    pub msgpack: MsgpackCounts,
    /// The JSON encoding.
    pub json: JsonCounts,
}

/// The committed answers file.
pub const ANSWERS_JSON: &str = include_str!("../answers.json");

impl Answers {
    /// The answers recorded for payload `kind` (`resource`, `state-list`, `strings`,
    /// `numbers`), if there are any.
    pub fn for_kind(kind: &str) -> Option<Answers> {
        let all: Json = serde_json::from_str(ANSWERS_JSON).expect("answers.json is JSON");
        let a = all.get(kind)?;
        let n = |section: &str, key: &str| -> u64 {
            a[section][key]
                .as_u64()
                .unwrap_or_else(|| panic!("answers.json: {kind}.{section}.{key} missing"))
        };
        Some(Answers {
            value: ValueCounts {
                values: n("value", "values"),
                nulls: n("value", "nulls"),
                bools: n("value", "bools"),
                numbers: n("value", "numbers"),
                strings: n("value", "strings"),
                string_bytes: n("value", "string_bytes"),
                keys: n("value", "keys"),
                key_bytes: n("value", "key_bytes"),
            },
            msgpack: MsgpackCounts {
                bytes: n("msgpack", "bytes"),
                tokens: n("msgpack", "tokens"),
                str_tokens: n("msgpack", "str_tokens"),
                str_bytes: n("msgpack", "str_bytes"),
            },
            json: JsonCounts {
                bytes: n("json", "bytes"),
                nodes: n("json", "nodes"),
                string_bytes: n("json", "string_bytes"),
            },
        })
    }

    /// The answers for a list of `n` copies of this payload's value (how the 32 MB inputs
    /// are built: see [`crate::inputs::repeat_msgpack`] and [`crate::inputs::repeat_json`]).
    pub fn repeated(&self, n: u64) -> Answers {
        let v = self.value;
        let header = match n {
            0..=15 => 1,
            16..=0xffff => 3,
            _ => 5,
        };
        Answers {
            value: ValueCounts {
                values: v.values * n + 1,
                nulls: v.nulls * n,
                bools: v.bools * n,
                numbers: v.numbers * n,
                strings: v.strings * n,
                string_bytes: v.string_bytes * n,
                keys: v.keys * n,
                key_bytes: v.key_bytes * n,
            },
            msgpack: MsgpackCounts {
                bytes: self.msgpack.bytes * n + header,
                tokens: self.msgpack.tokens * n + 1,
                str_tokens: self.msgpack.str_tokens * n,
                str_bytes: self.msgpack.str_bytes * n,
            },
            json: JsonCounts {
                // `[` + n documents separated by `,` + `]`
                bytes: self.json.bytes * n + 2 + n.saturating_sub(1),
                nodes: self.json.nodes * n + 1,
                string_bytes: self.json.string_bytes * n,
            },
        }
    }
}

/// What compiling every resource type and data source of a provider schema document finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemaCounts {
    /// Document length.
    pub bytes: u64,
    /// Resource types plus data sources.
    pub schemas: u64,
    /// Object attributes in their implied types, at every depth.
    pub type_attributes: u64,
}

impl SchemaCounts {
    /// The answers recorded for the schema document `name` (`aws`, `google`, `azurerm`).
    pub fn for_schema(name: &str) -> Option<SchemaCounts> {
        let all: Json = serde_json::from_str(ANSWERS_JSON).expect("answers.json is JSON");
        let a = all.get(format!("schema:{name}"))?;
        let n = |key: &str| -> u64 {
            a[key]
                .as_u64()
                .unwrap_or_else(|| panic!("answers.json: schema:{name}.{key} missing"))
        };
        Some(SchemaCounts {
            bytes: n("bytes"),
            schemas: n("schemas"),
            type_attributes: n("type_attributes"),
        })
    }
}

/// Panics, naming the benchmark, unless `found == expected`.
#[track_caller]
pub fn check<T: PartialEq + core::fmt::Debug>(what: &str, found: T, expected: T) {
    assert!(
        found == expected,
        "{what}: wrong answer\n  found    {found:?}\n  expected {expected:?}"
    );
}
