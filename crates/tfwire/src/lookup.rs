//! Lookups without a full decode: one value at a path inside a large MessagePack value, and
//! whether a whole value is null or known, reading only what leads there.
//!
//! A proxy's common question is one attribute of a large value (the `tags` of a resource for
//! a policy check). [`lookup`] walks the path with the tokenizer, skipping every value not on
//! it in constant memory ([`tfwire_msgpack::Tokenizer::skip_value`]: no allocation, no UTF-8
//! or type checks), and decodes only the value found, with the part of the program that
//! types it.
//!
//! ```
//! use tfwire::{Path, Program, Type};
//! let program = Program::compile(&Type::from_json(
//!     r#"["object",{"name":"string","tags":["map","string"]}]"#)?);
//! // {"name": "web", "tags": {"env": "prod"}}
//! let msgpack = b"\x82\xa4name\xa3web\xa4tags\x81\xa3env\xa4prod";
//! let arena = bumpalo::Bump::new();
//! let env = tfwire::lookup(&program, msgpack, &Path::parse(r#".tags["env"]"#)?, &arena)?;
//! assert_eq!(env.and_then(|v| v.as_str()), Some("prod"));
//! // A path the value does not have (or that goes through a null or unknown value) is None.
//! assert_eq!(tfwire::lookup(&program, msgpack, &Path::parse(".tags.owner")?, &arena)?, None);
//! assert!(!tfwire::Decoder::default().is_null_msgpack(&program, msgpack)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What a lookup checks
//!
//! The value found is decoded and checked exactly as a full decode checks it, and it equals
//! the full decode's value at that path ([`Value::at`]) whenever the full decode succeeds
//! (`tests/harness/lookup.rs` checks this on the conformance corpus). What is skipped is checked for
//! MessagePack framing only: a lookup may succeed on an input that a full decode rejects for
//! a bad value elsewhere, or for bytes after the value. Where the answer depends on more than
//! the path (a map whose keys need Unicode normalization, or repeat; a set, whose element
//! order depends on deduplication; a collection of `dynamic` elements, unified as a whole;
//! a `dynamic` value; an object whose attribute is absent; a `GROUP` block sent as null), the
//! lookup decodes that one container fully and goes on in the decoded value.

use crate::decode::{Config, Decoder};
use crate::error::{Error, ErrorKind};
use crate::path::{Path, PathStep};
use crate::program::{Node, NodeId, Program};
use crate::value::Value;
use bumpalo::Bump;
use tfwire_msgpack::{Kind, Tokenizer};

/// Looks up the value at `path` in `input`, a complete MessagePack value of `program`'s type,
/// with the default [`Config`] (see [`Decoder::lookup_msgpack`]).
pub fn lookup<'a>(
    program: &'a Program,
    input: &'a [u8],
    path: &Path<'_>,
    arena: &'a Bump,
) -> Result<Option<Value<'a>>, Error> {
    Decoder::new(Config::default()).lookup_msgpack(program, input, path, arena)
}

impl<'a> Value<'a> {
    /// The value at `path` inside this one: attributes of objects and keys of maps (an
    /// attribute step and a key step of one name select the same, see
    /// [`crate::path`]), elements of lists, tuples and sets (in the set's order); `None`
    /// where the path leaves the value, or goes through a null or unknown value.
    ///
    /// ```
    /// use tfwire::{Path, Program, Type};
    /// let program = Program::compile(&Type::from_json(
    ///     r#"["object",{"tags":["map","string"],"ports":["list","number"]}]"#)?);
    /// let arena = bumpalo::Bump::new();
    /// let v = tfwire::decode_json(&program, br#"{"tags":{"env":"prod"},"ports":[80,443]}"#, &arena)?;
    /// assert_eq!(v.at(&Path::parse(".tags.env")?).and_then(|v| v.as_str()), Some("prod"));
    /// assert_eq!(v.at(&Path::parse(r#".tags["env"]"#)?).and_then(|v| v.as_str()), Some("prod"));
    /// assert!(v.at(&Path::parse(".ports[1]")?).is_some());
    /// assert!(v.at(&Path::parse(".ports[2]")?).is_none());
    /// assert_eq!(v.at(&Path::root()), Some(v));
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn at(&self, path: &Path<'_>) -> Option<Value<'a>> {
        let mut v = *self;
        for step in path.steps() {
            v = v.unwrap_dynamic();
            v = match step {
                PathStep::Attr(n) | PathStep::Key(n) => match v {
                    Value::Object(_) | Value::Map(_) => v.get(n)?,
                    _ => return None,
                },
                PathStep::Index(i) => match v {
                    Value::List(_) | Value::Tuple(_) | Value::Set(_) => {
                        v.index(usize::try_from(*i).ok()?)?
                    }
                    _ => return None,
                },
            };
        }
        Some(v)
    }
}

/// Where a lookup stands: the value starting at the tokenizer's position, typed by `node`.
struct Walk<'a, 'd> {
    decoder: &'d mut Decoder,
    program: &'a Program,
    input: &'a [u8],
    arena: &'a Bump,
    tok: Tokenizer<'a>,
    path: &'d Path<'d>,
}

/// The steps as an error's path.
fn owned(steps: &[PathStep<'_>]) -> Path<'static> {
    steps.iter().map(|s| s.clone().into_owned()).collect()
}

/// What the walk found at one step.
enum Step {
    /// The next value starts at the tokenizer's position, typed by this node.
    Into(NodeId),
    /// The path leaves the value (absent element or key, or a null or unknown container).
    Absent,
    /// Decode the current value fully and go on in the decoded value.
    Decode,
}

/// What [`Walk::find_key`] found.
enum Found<'a> {
    /// The tokenizer at the value of the key.
    At(Tokenizer<'a>),
    /// No such key.
    None,
    /// A key the walk does not compare: decode.
    Decode,
}

fn syntax(e: tfwire_msgpack::Error, path: &[PathStep<'_>]) -> Error {
    let kind = match e.kind {
        tfwire_msgpack::ErrorKind::Incomplete { .. } => ErrorKind::UnexpectedEof,
        tfwire_msgpack::ErrorKind::ReservedMarker => ErrorKind::InvalidMarker(0xc1),
        _ => ErrorKind::UnexpectedEof,
    };
    Error::new(kind, e.offset, owned(path))
}

impl<'a> Walk<'a, '_> {
    /// Decodes the value at the tokenizer's position (typed by `node`), as the value at
    /// `steps` of the path.
    fn decode(&mut self, node: NodeId, done: usize) -> Result<Value<'a>, Error> {
        let steps = &self.path.steps()[..done];
        let span = self.tok.skip_value().map_err(|e| syntax(e, steps))?;
        self.decoder
            .decode_msgpack_at(
                self.program,
                node,
                &self.input[span.start..span.end],
                self.arena,
            )
            .map_err(|e| {
                let p = owned(steps)
                    .steps()
                    .iter()
                    .chain(e.path().steps())
                    .cloned()
                    .collect();
                e.with_base(span.start).with_path(p)
            })
    }

    /// Looks for the key `name` among the `n` entries of the map the tokenizer is at: the
    /// tokenizer positioned at the value of the first match (`last` false) or of the last
    /// one; [`Found::Decode`] at a key this walk does not compare (not a string, or not
    /// ASCII: a full decode normalizes it).
    fn find_key(&self, n: u32, name: &str, last: bool) -> Result<Found<'a>, tfwire_msgpack::Error> {
        let mut scan = self.tok.clone();
        scan.next_token()?;
        let mut found = Found::None;
        for _ in 0..n {
            let k = scan.next_token()?;
            let key = match k.kind {
                Kind::Str(_) | Kind::Bin(_) => scan.payload(&k),
                _ => return Ok(Found::Decode),
            };
            if !key.is_ascii() {
                return Ok(Found::Decode);
            }
            if key == name.as_bytes() {
                if !last {
                    return Ok(Found::At(scan));
                }
                found = Found::At(scan.clone());
            }
            scan.skip_value()?;
        }
        Ok(found)
    }

    fn step(&mut self, node: NodeId, step: &PathStep<'_>, done: usize) -> Result<Step, Error> {
        let steps = &self.path.steps()[..done];
        let err = |e| syntax(e, steps);
        let t = self.tok.peek_token().map_err(err)?;
        match t.kind {
            // A null container: the path leaves the value, as in a full decode (a GROUP
            // block sent as null is synthesized: decoded).
            Kind::Nil if !matches!(self.program.node(node), Node::Group { .. }) => {
                return Ok(Step::Absent);
            }
            // An unknown one may be refined into a known value (a list of exactly N unknown
            // elements): decoded, it is one small token.
            Kind::Ext(..) => return Ok(Step::Decode),
            _ => {}
        }
        let node_kind = match self.program.node(node) {
            Node::Group { object } => self.program.node(object),
            n => n,
        };
        Ok(match (node_kind, step, t.kind) {
            (
                Node::Object { start, len },
                PathStep::Attr(name) | PathStep::Key(name),
                Kind::Map(n),
            ) => {
                let attrs = self.program.attrs_of(start, len);
                let Ok(i) = attrs.binary_search_by(|a| (*a.name).cmp(name)) else {
                    return Ok(Step::Absent);
                };
                let child = attrs[i].node;
                match self.find_key(n, name, false).map_err(err)? {
                    Found::At(at) => {
                        self.tok = at;
                        Step::Into(child)
                    }
                    // Absent (optional, or an error): as the full decode says.
                    Found::Decode | Found::None => Step::Decode,
                }
            }
            (
                Node::Map {
                    elem,
                    dynamic: false,
                },
                PathStep::Attr(name) | PathStep::Key(name),
                Kind::Map(n),
            ) => {
                // The last of equal keys wins: read them all.
                match self.find_key(n, name, true).map_err(err)? {
                    Found::At(at) => {
                        self.tok = at;
                        Step::Into(elem)
                    }
                    Found::Decode => Step::Decode,
                    Found::None => Step::Absent,
                }
            }
            (
                Node::List {
                    elem,
                    dynamic: false,
                    ..
                },
                PathStep::Index(i),
                Kind::Array(n),
            ) => {
                if *i >= u64::from(n) {
                    return Ok(Step::Decode);
                }
                let mut scan = self.tok.clone();
                scan.next_token().map_err(err)?;
                for _ in 0..*i {
                    scan.skip_value().map_err(err)?;
                }
                self.tok = scan;
                Step::Into(elem)
            }
            (Node::Tuple { start, len }, PathStep::Index(i), Kind::Array(n)) if n == len => {
                let elems = self.program.elems_of(start, len);
                let Some(&child) = usize::try_from(*i).ok().and_then(|i| elems.get(i)) else {
                    return Ok(Step::Absent);
                };
                let mut scan = self.tok.clone();
                scan.next_token().map_err(err)?;
                for _ in 0..*i {
                    scan.skip_value().map_err(err)?;
                }
                self.tok = scan;
                Step::Into(child)
            }
            // A step the type does not have.
            (Node::Bool | Node::Number | Node::String, _, _)
            | (Node::Object { .. } | Node::Map { .. }, PathStep::Index(_), _)
            | (
                Node::List { .. } | Node::Set { .. } | Node::Tuple { .. },
                PathStep::Attr(_) | PathStep::Key(_),
                _,
            ) => Step::Absent,
            // Sets, dynamic values, collections of dynamic elements, and anything unexpected.
            _ => Step::Decode,
        })
    }
}

impl Decoder {
    /// Looks up the value at `path` in `input`, a complete MessagePack value of `program`'s
    /// type, skipping every value not on the path (see the [module documentation](mod@crate::lookup)
    /// for what is checked). `Ok(None)` when the value has no such path or the path goes
    /// through a null or unknown value.
    pub fn lookup_msgpack<'a>(
        &mut self,
        program: &'a Program,
        input: &'a [u8],
        path: &Path<'_>,
        arena: &'a Bump,
    ) -> Result<Option<Value<'a>>, Error> {
        let mut w = Walk {
            decoder: self,
            program,
            input,
            arena,
            tok: Tokenizer::new(input),
            path,
        };
        let mut node = program.root();
        for (done, step) in path.steps().iter().enumerate() {
            match w.step(node, step, done)? {
                Step::Into(child) => node = child,
                Step::Absent => return Ok(None),
                Step::Decode => {
                    let v = w.decode(node, done)?;
                    return Ok(v.at(&path.steps()[done..].iter().cloned().collect()));
                }
            }
        }
        w.decode(node, path.steps().len()).map(Some)
    }

    /// Whether `input`, a complete MessagePack value of `program`'s type, is null, from its
    /// first token (nothing else is read or checked): a `dynamic` value, or an unknown value
    /// (which may be refined as definitely null), is decoded to tell.
    pub fn is_null_msgpack(&mut self, program: &Program, input: &[u8]) -> Result<bool, Error> {
        self.first_token(program, input, |v| v.is_null())
    }

    /// Whether `input`, a complete MessagePack value of `program`'s type, is known (not
    /// itself unknown; what it contains may be), from its first token as
    /// [`Decoder::is_null_msgpack`] reads it.
    pub fn is_known_msgpack(&mut self, program: &Program, input: &[u8]) -> Result<bool, Error> {
        self.first_token(program, input, |v| !v.is_unknown())
    }

    fn first_token(
        &mut self,
        program: &Program,
        input: &[u8],
        test: impl Fn(&Value<'_>) -> bool,
    ) -> Result<bool, Error> {
        let root = program.root();
        let t = Tokenizer::new(input)
            .peek_token()
            .map_err(|e| syntax(e, &[]))?;
        let decode = matches!(t.kind, Kind::Ext(..))
            || matches!(program.node(root), Node::Dynamic | Node::Group { .. });
        if !decode {
            return Ok(test(&match t.kind {
                Kind::Nil => Value::Null,
                _ => Value::Bool(true),
            }));
        }
        let arena = Bump::new();
        let span = if matches!(t.kind, Kind::Ext(..)) {
            t.span.start..t.span.end
        } else {
            0..input.len()
        };
        let v = self.decode_msgpack_at(program, root, &input[span], &arena)?;
        Ok(test(&v))
    }
}
