//! The readable side of a call line: every `DynamicValue` of the call as JSON, decoded with
//! the session's schema, beside the bytes (for a reader and for `diff`, never read back).

use super::data::{Call, Session};
use crate::Programs;
use crate::rpc::{Direction, Message, Method};
use tfwire::schema::{Protocol, ProviderSchema};
use tfwire_json::{Escape, JsonWriter};

/// The session's schema, compiled on demand, to show the values of its calls.
pub(crate) struct Viewer {
    programs: Option<Programs>,
}

/// The protocol of a session's `protocol` number.
pub(crate) fn protocol_of(n: u32) -> Protocol {
    if n >= 6 { Protocol::V6 } else { Protocol::V5 }
}

/// The schemas of a session, identity schemas included: `None` when its schema response
/// does not convert.
pub(crate) fn schemas_of(s: &Session) -> Result<ProviderSchema, tfwire::Error> {
    let mut schemas = ProviderSchema::from_protobuf(&s.schema, protocol_of(s.protocol))?;
    if let Some(ids) = &s.identities {
        schemas.add_identities_from_protobuf(ids)?;
    }
    Ok(schemas)
}

impl Viewer {
    pub(crate) fn new(s: &Session) -> Viewer {
        Viewer {
            programs: schemas_of(s).ok().map(Programs::new),
        }
    }

    /// Appends `,"type_name":…,"values":{…}` to a call line being written (nothing when the
    /// call has no values or the session no schema). Values are written as the tap's log
    /// writes them: sensitive and write-only attributes `"(sensitive)"`, unknowns
    /// `"(known after apply)"`.
    pub(crate) fn write_values(&self, out: &mut String, call: &Call) {
        let (Some(programs), Some(method)) = (&self.programs, Method::from_path(&call.method))
        else {
            return;
        };
        let decode = |d, m: &bytes::Bytes| match method.decode(d, m.clone()) {
            Ok(Message::Values(v)) => Some(v),
            _ => None,
        };
        let requests: Vec<_> = call
            .requests
            .iter()
            .map(|m| decode(Direction::Request, m))
            .collect();
        let responses: Vec<_> = call
            .responses
            .iter()
            .map(|m| decode(Direction::Response, m))
            .collect();
        let type_name = requests
            .iter()
            .flatten()
            .map(|r| r.type_name().to_owned())
            .next()
            .unwrap_or_default();
        let mut body = String::new();
        let mut decoder = tfwire::Decoder::new(tfwire::Config::default());
        let mut arena = bumpalo::Bump::new();
        for (direction, messages) in [
            (Direction::Request, &requests),
            (Direction::Response, &responses),
        ] {
            let several = messages.len() > 1;
            for (i, m) in messages.iter().enumerate() {
                let Some(m) = m else { continue };
                m.dynamic_values(&type_name, &mut |f| {
                    let mut key = String::from(direction.name());
                    if several {
                        key.push_str(&format!("[{i}]"));
                    }
                    key.push('.');
                    key.push_str(f.name);
                    if let Some(x) = f.index {
                        key.push_str(&format!("[{x}]"));
                    }
                    let _ = JsonWriter::new(&mut body, Escape::Safe).key(&key);
                    let value = programs.get(f.schema).and_then(|p| {
                        let v = decoder.decode_dynamic_value(&p, f.value, &arena)?;
                        let mut s = String::new();
                        match programs.block(f.schema) {
                            Some(b) => crate::redact::write_block(&mut s, &v, b),
                            None => crate::redact::write_plain(&mut s, &v),
                        }
                        Ok(s)
                    });
                    match value {
                        Ok(s) => body.push_str(&s),
                        Err(e) => {
                            let _ = JsonWriter::new(&mut body, Escape::Safe)
                                .string(&format!("(does not decode: {e})"));
                        }
                    }
                    body.push(',');
                });
                arena.reset();
            }
        }
        if body.is_empty() {
            return;
        }
        body.pop();
        out.push_str(",\"type_name\":");
        let _ = JsonWriter::new(&mut *out, Escape::Safe).string(&type_name);
        out.push_str(",\"values\":{");
        out.push_str(&body);
        out.push('}');
    }
}
