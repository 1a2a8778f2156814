//! One JSON line per `DynamicValue`: the record `tfwire tap` and `tfwire dump` write.
//!
//! ```text
//! {"time":"…","rpc":"PlanResourceChange","direction":"request","type_name":"aws_instance",
//!  "field":"config","bytes":1234,"decode_us":12.5,"value":{…,"password":"(sensitive)"}}
//! {"time":"…","rpc":"ReadResource","direction":"response","type_name":"x","field":"new_state",
//!  "bytes":9,"error":".tags[\"env\"]: a string is required, found bool (at byte 17)"}
//! ```
//!
//! `value` is the decoded value as plain JSON with every schema-sensitive attribute masked
//! (see [`crate::redact`]); a value that does not decode has `error` instead: the path inside
//! the value, the message and the byte offset, so that one line is a provider bug report.

use crate::Programs;
use crate::redact;
use crate::rpc::Direction;
use crate::values::SchemaRef;
use bumpalo::Bump;
use core::fmt::Write as _;
use tfwire::{Decoder, DynamicValue};

/// What became of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Decoded: the value as JSON, sensitive attributes masked.
    Value(String),
    /// Not decoded: why (a decode error with its path and offset, or a missing schema).
    Error(String),
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<'a> {
    /// When: RFC 3339 (the tap) or the file's time field (`dump`).
    pub time: &'a str,
    /// The RPC's name (`PlanResourceChange`).
    pub rpc: &'a str,
    /// Request or response.
    pub direction: Direction,
    /// The resource, data source, ... type or function name, when known.
    pub type_name: Option<&'a str>,
    /// The field (`config`, `prior_state`, `imported_resources.state`, ...).
    pub field: &'a str,
    /// The element of a repeated field.
    pub index: Option<usize>,
    /// The file the value was read from (`dump`).
    pub file: Option<&'a str>,
    /// The value's size on the wire.
    pub bytes: usize,
    /// How long decoding took, in microseconds.
    pub decode_us: Option<f64>,
    /// The value, or why there is none.
    pub outcome: &'a Outcome,
}

impl Record<'_> {
    /// The record as one line of JSON (no newline).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(128);
        let s = |out: &mut String, k: &str, v: &str| {
            out.push(',');
            redact::write_string(out, k);
            out.push(':');
            redact::write_string(out, v);
        };
        out.push_str("{\"time\":");
        redact::write_string(&mut out, self.time);
        s(&mut out, "rpc", self.rpc);
        s(&mut out, "direction", self.direction.name());
        if let Some(t) = self.type_name {
            s(&mut out, "type_name", t);
        }
        s(&mut out, "field", self.field);
        if let Some(i) = self.index {
            let _ = write!(out, ",\"index\":{i}");
        }
        if let Some(f) = self.file {
            s(&mut out, "file", f);
        }
        let _ = write!(out, ",\"bytes\":{}", self.bytes);
        if let Some(us) = self.decode_us {
            let _ = write!(out, ",\"decode_us\":{us:.1}");
        }
        match self.outcome {
            Outcome::Value(v) => {
                out.push_str(",\"value\":");
                out.push_str(v);
            }
            Outcome::Error(e) => s(&mut out, "error", e),
        }
        out.push('}');
        out
    }
}

impl Programs {
    /// Decodes `value` with the program of `schema` and writes it as JSON with sensitive
    /// attributes masked. The arena is left holding the value (reset it between values).
    pub fn redacted_json(
        &self,
        decoder: &mut Decoder,
        arena: &Bump,
        schema: SchemaRef<'_>,
        value: DynamicValue<'_>,
    ) -> Outcome {
        let program = match self.get(schema) {
            Ok(p) => p,
            Err(e) => return Outcome::Error(e.kind().to_string()),
        };
        match decoder.decode_dynamic_value(&program, value, arena) {
            Ok(v) => Outcome::Value(match self.block(schema) {
                Some(b) => redact::to_json(&v, b),
                None => redact::to_json_plain(&v),
            }),
            Err(e) => Outcome::Error(e.to_string()),
        }
    }
}
