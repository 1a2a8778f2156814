//! A redacted session's answers with the request's own secrets put back.
//!
//! In a redacted session a secret is a placeholder (`"(redacted-N)"`, the number `N`), the
//! same one wherever the same secret occurred. A request matches such a session with its real
//! values at those positions; the recorded responses still hold the placeholders, and a client
//! checks some of them against its request (a planned value of a non-computed attribute must
//! equal the configuration's). So the placeholders the matched request's values stand for
//! are put back into the responses: every placeholder string wherever it occurs, a
//! placeholder number at a sensitive (or masked) position only. A placeholder the request
//! does not explain (a secret the provider computed) stays as it is.

use super::proto::Node;
use super::value::{At, V};
use crate::Programs;
use crate::cassette::is_placeholder;
use crate::rpc::{Direction, Message, Method};
use bumpalo::Bump;
use bytes::Bytes;
use std::collections::HashMap;
use tfwire::mask::{Cursor, Masks};
use tfwire::{Number, Value};

/// What each placeholder of a matched request stands for.
#[derive(Debug, Default)]
pub(crate) struct Secrets {
    strings: HashMap<Box<str>, Box<str>>,
    numbers: HashMap<Box<str>, Box<str>>,
}

impl Secrets {
    pub(crate) fn is_empty(&self) -> bool {
        self.strings.is_empty() && self.numbers.is_empty()
    }

    /// Pairs the placeholders of the recorded request `a` with the values of the request
    /// `b` at the same positions.
    pub(crate) fn pair(&mut self, a: &Node, b: &Node) {
        match (a, b) {
            (Node::Message(x), Node::Message(y)) => {
                for (n, _, va) in x {
                    if let Some((_, _, vb)) = y.iter().find(|(m, _, _)| m == n) {
                        for (p, q) in va.iter().zip(vb) {
                            self.pair(p, q);
                        }
                    }
                }
            }
            (Node::Map(x), Node::Map(y)) => {
                for (k, va) in x {
                    if let Some((_, vb)) = y.iter().find(|(l, _)| l == k) {
                        self.pair(va, vb);
                    }
                }
            }
            (Node::Value(x), Node::Value(y)) => self.value(x, y, false),
            _ => {}
        }
    }

    fn value(&mut self, a: &V, b: &V, inside: bool) {
        match (a, b) {
            (V::Sensitive(x), V::Sensitive(y)) => self.value(x, y, true),
            (V::String(p), V::String(r)) if is_placeholder(p) && p != r => {
                self.strings.insert(p.clone(), r.clone());
            }
            (V::Number(p), V::Number(r)) if inside => {
                self.numbers.insert(p.text().into(), r.text().into());
            }
            (V::Map(x), V::Map(y)) if inside && x.len() == y.len() => {
                // The keys of a secret map are placeholders too: paired in order.
                for ((ka, va), (kb, vb)) in x.iter().zip(y) {
                    if is_placeholder(ka) && ka != kb {
                        self.strings.insert(ka.clone(), kb.clone());
                    }
                    self.value(va, vb, inside);
                }
            }
            (V::Object(x), V::Object(y)) | (V::Map(x), V::Map(y)) => {
                for (k, va) in x {
                    if let Some((_, vb)) = y.iter().find(|(l, _)| l == k) {
                        self.value(va, vb, inside);
                    }
                }
            }
            (V::List(x), V::List(y)) | (V::Tuple(x), V::Tuple(y)) | (V::Set(x), V::Set(y)) => {
                for (va, vb) in x.iter().zip(y) {
                    self.value(va, vb, inside);
                }
            }
            (V::Dynamic(_, x), V::Dynamic(_, y)) => self.value(x, y, inside),
            _ => {}
        }
    }
}

/// The responses with the placeholders `secrets` explains replaced (a response whose values
/// do not decode is kept as recorded).
pub(crate) fn restore(
    method: Method,
    type_name: &str,
    programs: &Programs,
    responses: &[Bytes],
    secrets: &Secrets,
) -> Vec<Bytes> {
    responses
        .iter()
        .map(|r| message(method, type_name, programs, r, secrets).unwrap_or_else(|| r.clone()))
        .collect()
}

fn message(
    method: Method,
    type_name: &str,
    programs: &Programs,
    frame: &Bytes,
    secrets: &Secrets,
) -> Option<Bytes> {
    let Ok(Message::Values(decoded)) = method.decode(Direction::Response, frame.clone()) else {
        return None;
    };
    let mut fields = Vec::new();
    decoded.dynamic_values(type_name, &mut |f| fields.push((f.schema, f.value)));
    let base = frame.as_ptr() as usize;
    let arena = Bump::new();
    let mut decoder = tfwire::Decoder::default();
    let mut replacements = Vec::new();
    for (schema, value) in fields {
        let program = programs.get(schema).ok()?;
        let v = decoder.decode_dynamic_value(&program, value, &arena).ok()?;
        let mut walk = Walk {
            secrets,
            masks: programs.masks(),
            arena: &arena,
            changed: false,
        };
        let at = programs.block(schema);
        let cur = walk.masks.start(schema.type_name());
        let new = walk.value(v, at.map_or(At::Plain, At::Block), &cur, false);
        if !walk.changed {
            continue;
        }
        let (slice, bytes) = if value.msgpack.is_empty() {
            (
                value.json,
                tfwire::encode_json(&program, &new).ok()?.into_bytes(),
            )
        } else {
            (value.msgpack, tfwire::encode_msgpack(&program, &new).ok()?)
        };
        let start = (slice.as_ptr() as usize)
            .checked_sub(base)
            .filter(|s| s + slice.len() <= frame.len())?;
        replacements.push((start..start + slice.len(), bytes));
    }
    if replacements.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(frame.len());
    crate::cassette::redact::rewrite(frame, 0, &replacements, &mut out).ok()?;
    Some(Bytes::from(out))
}

struct Walk<'m, 'a> {
    secrets: &'m Secrets,
    masks: &'m Masks,
    arena: &'a Bump,
    changed: bool,
}

impl<'a> Walk<'_, 'a> {
    fn value(&mut self, v: Value<'a>, at: At<'_>, cur: &Cursor, inside: bool) -> Value<'a> {
        let inside = inside || cur.is_masked();
        match v {
            Value::String(s) => match self.secrets.strings.get(s) {
                Some(r) => {
                    self.changed = true;
                    Value::String(self.arena.alloc_str(r))
                }
                None => v,
            },
            Value::Number(n) if inside => match self.secrets.numbers.get(n.to_string().as_str()) {
                Some(r) => match Number::parse(self.arena.alloc_str(r)) {
                    Ok(n) => {
                        self.changed = true;
                        Value::Number(n)
                    }
                    Err(_) => v,
                },
                None => v,
            },
            Value::List(vs) => Value::List(self.all(vs, at, cur, inside)),
            Value::Set(vs) => Value::Set(self.all(vs, at, cur, inside)),
            Value::Tuple(vs) => Value::Tuple(self.all(vs, At::Plain, cur, inside)),
            Value::Map(es) => {
                let mut out: Vec<(&'a str, Value<'a>)> = Vec::with_capacity(es.len());
                for &(k, x) in es {
                    let key = match self.secrets.strings.get(k) {
                        Some(r) => {
                            self.changed = true;
                            &*self.arena.alloc_str(r)
                        }
                        None => k,
                    };
                    let c = self.masks.step(cur, k);
                    out.push((key, self.value(x, at, &c, inside)));
                }
                out.sort_by(|a, b| a.0.cmp(b.0));
                Value::Map(self.arena.alloc_slice_fill_iter(out))
            }
            Value::Object(es) => {
                let mut out = Vec::with_capacity(es.len());
                for &(k, x) in es {
                    let c = self.masks.step(cur, k);
                    out.push((k, self.attribute(k, x, at, &c, inside)));
                }
                Value::Object(self.arena.alloc_slice_fill_iter(out))
            }
            Value::Dynamic(d) => {
                let value = self.value(d.value, At::Plain, cur, inside);
                Value::Dynamic(self.arena.alloc(tfwire::Dynamic { ty: d.ty, value }))
            }
            other => other,
        }
    }

    fn all(
        &mut self,
        vs: &'a [Value<'a>],
        at: At<'_>,
        cur: &Cursor,
        inside: bool,
    ) -> &'a [Value<'a>] {
        let out: Vec<_> = vs.iter().map(|&x| self.value(x, at, cur, inside)).collect();
        self.arena.alloc_slice_fill_iter(out)
    }

    fn attribute(
        &mut self,
        name: &str,
        v: Value<'a>,
        at: At<'_>,
        cur: &Cursor,
        inside: bool,
    ) -> Value<'a> {
        let (at, a) = at.member(name);
        let inside = inside || a.is_some_and(|a| a.sensitive || a.write_only);
        self.value(v, at, cur, inside)
    }
}
