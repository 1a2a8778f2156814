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
use std::time::{Duration, Instant};
use tfwire::{Config, Decoder, DynamicValue};
use tfwire_json::{Escape, JsonWriter};

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
        self.write_json(&mut out);
        out
    }

    /// Appends the record as one line of JSON (no newline) to `out`: no heap allocation when
    /// `out` has room.
    pub fn write_json(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.write_to(&mut JsonWriter::new(out, Escape::Safe));
    }

    fn write_to(&self, w: &mut JsonWriter<&mut String>) -> core::fmt::Result {
        w.begin_object()?;
        w.member_str("time", self.time)?;
        w.member_str("rpc", self.rpc)?;
        w.member_str("direction", self.direction.name())?;
        if let Some(t) = self.type_name {
            w.member_str("type_name", t)?;
        }
        w.member_str("field", self.field)?;
        if let Some(i) = self.index {
            w.member_uint("index", i as u64)?;
        }
        if let Some(f) = self.file {
            w.member_str("file", f)?;
        }
        w.member_uint("bytes", self.bytes as u64)?;
        if let Some(us) = self.decode_us {
            w.key("decode_us")?;
            w.display(format_args!("{us:.1}"))?;
        }
        match self.outcome {
            Outcome::Value(v) => {
                // The value as the redacting writer wrote it (one JSON value).
                w.key("value")?;
                w.raw(v)?;
            }
            Outcome::Error(e) => w.member_str("error", e)?,
        }
        w.end_object()
    }
}

/// Decodes values for a log with no heap allocation once warm: one reused [`Decoder`], an
/// arena reset before each value and one reused buffer for the masked JSON. After a value of
/// a given size (and a record line of a given length, see [`Record::write_json`]) has been
/// seen, decoding, masking and recording another of at most that size touches the heap only
/// when the value does not decode (the error message) or its program is compiled (the first
/// value of each schema).
///
/// ```
/// use tfwire_plugin::log::{Outcome, Recorder};
/// use tfwire_plugin::{Programs, SchemaRef};
/// let programs = Programs::new(tfwire::schema::ProviderSchema::default());
/// let mut recorder = Recorder::new(tfwire::Config::default());
/// let value = tfwire::DynamicValue { msgpack: b"\xc3", json: b"" };
/// let (outcome, _took) = recorder.decode(&programs, SchemaRef::Bool, value);
/// assert_eq!(outcome, &Outcome::Value("true".into()));
/// ```
pub struct Recorder {
    decoder: Decoder,
    arena: Bump,
    outcome: Outcome,
}

impl core::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Recorder")
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}

impl Recorder {
    /// A recorder decoding with `config`.
    pub fn new(config: Config) -> Recorder {
        Recorder {
            decoder: Decoder::new(config),
            arena: Bump::new(),
            outcome: Outcome::Value(String::new()),
        }
    }

    /// Decodes `value` with the program of `schema` and writes it as JSON with sensitive
    /// attributes masked (see [`Programs::redacted_json`]); returns the outcome, valid until
    /// the next call, and how long decoding and masking took.
    pub fn decode(
        &mut self,
        programs: &Programs,
        schema: SchemaRef<'_>,
        value: DynamicValue<'_>,
    ) -> (&Outcome, Duration) {
        let (Outcome::Value(mut buf) | Outcome::Error(mut buf)) =
            core::mem::replace(&mut self.outcome, Outcome::Error(String::new()));
        buf.clear();
        self.arena.reset();
        let t0 = Instant::now();
        let ok = programs.write_redacted(&mut self.decoder, &self.arena, schema, value, &mut buf);
        let took = t0.elapsed();
        self.outcome = match ok {
            Ok(()) => Outcome::Value(buf),
            Err(e) => {
                buf.clear();
                buf.push_str(&e);
                Outcome::Error(buf)
            }
        };
        (&self.outcome, took)
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
        let mut out = String::new();
        match self.write_redacted(decoder, arena, schema, value, &mut out) {
            Ok(()) => Outcome::Value(out),
            Err(e) => Outcome::Error(e),
        }
    }

    /// As [`redacted_json`](Self::redacted_json), appending the JSON to `out`; the error (a
    /// missing schema, or the decode error with its path and offset) as text. Allocates
    /// nothing when the program is compiled, the decoder and the arena are warm and `out` has
    /// room, and at most 16 masks are set (the default list is 8; beyond 16 a mask's walk
    /// allocates its state at each step).
    pub fn write_redacted(
        &self,
        decoder: &mut Decoder,
        arena: &Bump,
        schema: SchemaRef<'_>,
        value: DynamicValue<'_>,
        out: &mut String,
    ) -> Result<(), String> {
        let program = self.get(schema).map_err(|e| e.kind().to_string())?;
        let v = decoder
            .decode_dynamic_value(&program, value, arena)
            .map_err(|e| e.to_string())?;
        let at = self.masks().start(schema.type_name());
        match self.block(schema) {
            Some(b) => redact::write_block_masked(out, &v, b, self.masks(), &at),
            None => redact::write_plain_masked(out, &v, self.masks(), &at),
        }
        Ok(())
    }
}
