//! [`TypedJson`]: what tfwire adds to the JSON layer's untyped view: a compiled
//! [`Program`] run over a value in place, and a [`Path`] followed into it.

use crate::decode::{Config, Decoder};
use crate::error::Error;
use crate::path::{Path, PathStep};
use crate::program::Program;
use crate::value::Value;
use tfwire_json::view::Json;

/// Typed decoding and path lookup on [`tfwire_json::view::Json`], the JSON layer's untyped
/// view of one value of a parsed document (which knows nothing of types or paths).
///
/// ```
/// use tfwire::TypedJson as _;
/// use tfwire_json::{json_shape, tape::{INPUT_PADDING, TapeParser}};
/// let text = br#"{"values":{"id":"i-1","port":8080.50,"tags":{"a":"b"}}}"#;
/// let mut buf = text.to_vec();
/// buf.resize(text.len() + INPUT_PADDING, b' ');
/// let shape = json_shape(text, 64, usize::MAX)?;
/// let mut parser = TapeParser::default();
/// let tape = parser.parse_document(&mut buf, text.len(), &shape)?;
/// let ty = tfwire::Type::from_json(
///     r#"["object",{"id":"string","port":"number","tags":["map","string"]}]"#)?;
/// let program = tfwire::Program::compile(&ty);
/// let arena = bumpalo::Bump::new();
/// let values = tape.root().get("values").unwrap();
/// let v = values.decode_typed(&program, &mut tfwire::Decoder::default(), &arena)?;
/// assert_eq!(v.get("port").unwrap().as_number().unwrap().to_string(), "8080.5");
/// assert_eq!(v.get("tags").unwrap().get("a").unwrap().as_str(), Some("b"));
/// let env = tape.root().at(&tfwire::Path::parse(r#".values.tags["a"]"#)?);
/// assert_eq!(env.and_then(|v| v.as_str()), Some("b"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TypedJson<'a> {
    /// This value decoded by [`TypedJson::decode_typed`] with a fresh decoder whose
    /// [`Config::plain_dynamic`] is set (`show -json` writes a value at a `dynamic`
    /// position as plain JSON), or `None` when it is `null`: the typed form of a resource's
    /// `before`, `after` or `values`.
    ///
    /// # Errors
    ///
    /// As [`TypedJson::decode_typed`].
    fn typed(
        &self,
        program: &'a Program,
        arena: &'a bumpalo::Bump,
    ) -> Result<Option<Value<'a>>, Error>;

    /// Decodes this value with a compiled `Program` (a resource type's schema, from a
    /// [`ProgramCache`](crate::schema::ProgramCache)) in place: tfwire's JSON state machine
    /// runs over this value's tape nodes, the same nodes the document model reads, with no
    /// text written or parsed again. The value equals what [`Decoder::decode_json`] gives
    /// for the value's text.
    ///
    /// `show -json` plans and states write values at `dynamic` positions of the schema as
    /// plain JSON, without go-cty's `{"type", "value"}` wrapper: decode them with a decoder
    /// whose [`Config::plain_dynamic`] is set (as [`TypedJson::typed`] does).
    ///
    /// Numbers are exact: the decoder reads each from its text in the document. Error
    /// offsets are those of the offending value in the input.
    ///
    /// # Errors
    ///
    /// The [`Error`] of a value that does not conform to the program's type.
    fn decode_typed(
        &self,
        program: &'a Program,
        decoder: &mut Decoder,
        arena: &'a bumpalo::Bump,
    ) -> Result<Value<'a>, Error>;

    /// The value at `path` inside this one, if every step exists (see
    /// [`TypedJson::child`]).
    fn at(&self, path: &Path<'_>) -> Option<Json<'a>>;

    /// The member or element one step selects: an attribute step and a key step both
    /// select an object member (see [`crate::path`]), an index step an array element.
    fn child(&self, step: &PathStep<'_>) -> Option<Json<'a>>;
}

impl<'a> TypedJson<'a> for Json<'a> {
    fn typed(
        &self,
        program: &'a Program,
        arena: &'a bumpalo::Bump,
    ) -> Result<Option<Value<'a>>, Error> {
        if self.is_null() {
            return Ok(None);
        }
        let config = Config::default().plain_dynamic(true);
        self.decode_typed(program, &mut Decoder::new(config), arena)
            .map(Some)
    }

    fn decode_typed(
        &self,
        program: &'a Program,
        decoder: &mut Decoder,
        arena: &'a bumpalo::Bump,
    ) -> Result<Value<'a>, Error> {
        match (self.document(), self.node_index()) {
            (Some(doc), Some(first)) => {
                decoder.decode_json_nodes(program, self.nodes(), &doc.subtree(first), arena)
            }
            // `null` outside any document.
            _ => decoder.decode_json_nodes(program, self.nodes(), &NoText, arena),
        }
    }

    fn at(&self, path: &Path<'_>) -> Option<Json<'a>> {
        path.steps().iter().try_fold(*self, |v, step| v.child(step))
    }

    fn child(&self, step: &PathStep<'_>) -> Option<Json<'a>> {
        match step {
            PathStep::Attr(name) | PathStep::Key(name) => self.get(name),
            PathStep::Index(i) => self.index(usize::try_from(*i).ok()?),
        }
    }
}

/// The texts of a value that stands in no document (`null`): offset 0, no number.
struct NoText;

impl<'a> tfwire_json::tape::TapeText<'a> for NoText {
    fn offset(&self, _node: usize) -> usize {
        0
    }

    fn number_text(&self, _node: usize) -> &'a str {
        ""
    }
}
