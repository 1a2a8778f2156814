//! The `cassette` target: a cassette file as `tfwire replay` and `tfwire cassette redact`
//! read it, and a recorded message as the redaction rewrites it.

use bytes::Bytes;
use prost::Message as _;
use std::sync::OnceLock;
use tfwire::mask::Masks;
use tfwire_plugin::cassette::{Call, CallStatus, Cassette, Session, redact};
use tfwire_plugin::replay::Replayer;
use tfwire_plugin::tfplugin6::{Schema, get_provider_schema, schema};

/// The methods a [`MESSAGE`] input's message is recorded under, by the low bits of its mode
/// byte.
const METHODS: [&str; 4] = [
    "/tfplugin6.Provider/PlanResourceChange",
    "/tfplugin6.Provider/ReadResource",
    "/tfplugin6.Provider/ImportResourceState",
    "/plugin.GRPCStdio/StreamStdio",
];

/// Mode bit: the rest of the input is one message of a session with the test schema's
/// provider (bit 1: a response; bits 2–3: the method, `PlanResourceChange`, `ReadResource`,
/// `ImportResourceState` or go-plugin's `StreamStdio`), not a cassette file.
pub const MESSAGE: u8 = 1;

/// A provider schema with a secret in every kind of position: resource `t` with sensitive
/// and write-only attributes of every type, a nested attribute, and nested blocks of every
/// nesting holding sensitive attributes.
fn schema() -> &'static Bytes {
    static SCHEMA: OnceLock<Bytes> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let attr = |name: &str, ty: &str, sensitive: bool, write_only: bool| schema::Attribute {
            name: name.into(),
            r#type: Bytes::from(ty.as_bytes().to_vec()),
            optional: true,
            sensitive,
            write_only,
            ..Default::default()
        };
        let block = |attributes, block_types| schema::Block {
            attributes,
            block_types,
            ..Default::default()
        };
        use schema::nested_block::NestingMode as N;
        let nested = |name: &str, nesting: N| schema::NestedBlock {
            type_name: name.into(),
            block: Some(block(
                vec![
                    attr("id", "\"string\"", false, false),
                    attr("key", "\"string\"", true, false),
                ],
                vec![],
            )),
            nesting: nesting as i32,
            ..Default::default()
        };
        let t = block(
            vec![
                attr("dyn", "\"dynamic\"", false, false),
                attr("env", r#"["map","string"]"#, true, false),
                attr("flag", "\"bool\"", true, false),
                attr("name", "\"string\"", false, false),
                schema::Attribute {
                    name: "nested".into(),
                    nested_type: Some(schema::Object {
                        attributes: vec![attr("pass", "\"string\"", true, false)],
                        nesting: schema::object::NestingMode::Set as i32,
                        ..Default::default()
                    }),
                    optional: true,
                    ..Default::default()
                },
                attr(
                    "obj",
                    r#"["object",{"a":"string","n":"number"}]"#,
                    true,
                    false,
                ),
                attr("password", "\"string\"", true, false),
                attr("pin", "\"number\"", true, false),
                attr("tags", r#"["set","string"]"#, true, false),
                attr("wo", "\"string\"", false, true),
            ],
            vec![
                nested("group", N::Group),
                nested("list", N::List),
                nested("map", N::Map),
                nested("set", N::Set),
                nested("single", N::Single),
            ],
        );
        let mut r = get_provider_schema::Response::default();
        r.resource_schemas.insert(
            "t".into(),
            Schema {
                version: 0,
                block: Some(t),
            },
        );
        r.encode_to_vec().into()
    })
}

/// A session of the target's provider (a schema with a secret in every kind of position) with one call of `method`, `message` its request or
/// its response.
pub fn message_session(method: &str, message: &[u8], response: bool) -> Session {
    let m = Bytes::copy_from_slice(message);
    let request = Bytes::from_static(b"\x0a\x01t");
    Session {
        protocol: 6,
        schema: schema().clone(),
        calls: vec![Call {
            method: method.into(),
            requests: vec![if response { request } else { m.clone() }],
            responses: if response { vec![m] } else { vec![] },
            status: CallStatus::OK,
        }],
        ..Session::default()
    }
}

/// The session of a [`MESSAGE`] input: its mode byte's bits say the method and whether
/// `rest` is a request or a response ([`message_session`]).
fn message_input(mode: u8, rest: &[u8]) -> Session {
    let method = METHODS[usize::from(mode >> 2) & 3];
    message_session(method, rest, mode & 2 != 0)
}

/// Checks the cassette reader and the redaction. The first byte is a mode; without
/// [`MESSAGE`], the rest is a cassette file: it reads, or fails with one clean line naming
/// its line and byte; a cassette read writes back to a file that reads as the same cassette.
/// Every session read, and with [`MESSAGE`] a session holding the rest as one message, is
/// redacted (default masks): no panic, errors one clean line, the session unchanged on error;
/// a redacted session writes and reads back as it is, every message of it decodes as before
/// (a message that did not decode makes the redaction fail), and redacting it again keeps
/// every placeholder string. The sessions are replayed as `tfwire replay` serves them (see
/// `replay` below).
pub fn cassette(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let sessions = if mode & MESSAGE == 0 {
        match Cassette::read(rest) {
            Err(e) => {
                crate::clean_message(&e.to_string());
                assert!(
                    e.to_string().starts_with("cassette line "),
                    "an error without its line: {e}"
                );
                return;
            }
            Ok(c) => {
                let mut file = Vec::new();
                c.write(&mut file).expect("writing to memory");
                let again = Cassette::read(&file)
                    .unwrap_or_else(|e| panic!("a written cassette does not read: {e}"));
                assert_eq!(again, c, "written and read back");
                c.sessions
            }
        }
    } else {
        vec![message_input(mode, rest)]
    };
    replay(&sessions);
    let masks = Masks::defaults();
    for s in sessions {
        let mut redacted = s.clone();
        match redact(&mut redacted, &masks) {
            Err(e) => {
                crate::clean_message(&e.to_string());
                assert_eq!(
                    redacted, s,
                    "a session that does not redact is left as it was"
                );
            }
            Ok(()) => {
                assert!(redacted.redacted);
                assert_eq!(redacted.calls.len(), s.calls.len());
                let one = Cassette {
                    sessions: vec![redacted.clone()],
                };
                let mut file = Vec::new();
                one.write(&mut file).expect("writing to memory");
                assert_eq!(Cassette::read(&file).expect("reads back"), one);
                let mut twice = redacted.clone();
                redact(&mut twice, &masks).expect("a redacted session redacts again");
                for (a, b) in redacted.calls.iter().zip(&twice.calls) {
                    assert_eq!(a.method, b.method);
                    assert_eq!(a.requests.len(), b.requests.len());
                    assert_eq!(a.responses.len(), b.responses.len());
                }
            }
        }
    }
}

/// Replays `sessions` as `tfwire replay` does ([`Replayer`]): the replayer is built, or fails
/// with one clean line; built, it answers every recorded call asked again, in order, with its
/// own method and requests (each recorded call matches itself); the same call with its first
/// request cut by one byte is answered or refused with one clean line; the counts add up.
fn replay(sessions: &[Session]) {
    let replayer = match Replayer::new(Cassette {
        sessions: sessions.to_vec(),
    }) {
        Ok(r) => r,
        Err(e) => return crate::clean_message(&e.to_string()),
    };
    let mut asked = 0;
    for call in sessions.iter().flat_map(|s| &s.calls) {
        let answer = replayer
            .answer(&call.method, &call.requests)
            .unwrap_or_else(|m| panic!("a recorded call is not answered: {m}"));
        if let Some((s, c)) = answer.recorded {
            assert_eq!(sessions[s].calls[c].method, call.method);
        }
        let mut cut = call.requests.clone();
        if let Some(first) = cut.first_mut()
            && !first.is_empty()
        {
            *first = first.slice(..first.len() - 1);
            if let Err(m) = replayer.answer(&call.method, &cut) {
                crate::clean_message(&m.to_string());
            }
            asked += 1;
        }
        asked += 1;
    }
    let stats = replayer.stats();
    assert_eq!(stats.calls, asked);
    assert!(stats.mismatches <= asked);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeds::Seed;

    /// The seeds built from the corpus, and among them the `cassette` target's file seed.
    fn seeds_and_file() -> (Vec<Seed>, usize) {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let seeds = crate::seeds::build(&corpus).unwrap();
        let file = seeds
            .iter()
            .position(|s| s.target == "cassette" && s.name == "file")
            .unwrap();
        (seeds, file)
    }

    /// The file seed's sessions redact (the check's success path is reached): the secret is
    /// gone from every message, the configuration's and the diagnostic's.
    #[test]
    fn the_seed_cassette_redacts() {
        let (seeds, file) = seeds_and_file();
        let file = &seeds[file];
        let c = Cassette::read(&file.data[1..]).unwrap();
        assert_eq!(c.sessions.len(), 2);
        for mut s in c.sessions {
            redact(&mut s, &Masks::defaults()).unwrap();
            for m in s.calls[0].requests.iter().chain(&s.calls[0].responses) {
                assert!(!m.windows(12).any(|w| w == b"hunter2-pass"), "{m:?}");
            }
        }
        cassette(&file.data);
    }

    /// The replay check's success path is reached: the file seed's sessions build a
    /// replayer, which answers each recorded call with that call's own responses, and the
    /// message seeds (a request of the test schema's resource) build one too.
    #[test]
    fn the_seed_cassettes_replay() {
        let (seeds, file) = seeds_and_file();
        let file = &seeds[file];
        let c = Cassette::read(&file.data[1..]).unwrap();
        let replayer = Replayer::new(c.clone()).unwrap();
        for (s, session) in c.sessions.iter().enumerate() {
            for (i, call) in session.calls.iter().enumerate() {
                let answer = replayer.answer(&call.method, &call.requests).unwrap();
                assert_eq!(answer.recorded, Some((s, i)));
                assert_eq!(answer.responses, call.responses);
            }
        }
        replay(&c.sessions);
        let built = seeds
            .iter()
            .filter(|s| s.target == "cassette" && s.data.first().is_some_and(|m| m & MESSAGE != 0))
            .filter(|s| {
                Replayer::new(Cassette {
                    sessions: vec![message_input(s.data[0], &s.data[1..])],
                })
                .is_ok()
            })
            .count();
        assert!(built > 0, "no message seed builds a replayer");
    }
}
