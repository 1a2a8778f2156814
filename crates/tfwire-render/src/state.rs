//! One resource of a state as `tofu state show` draws it: OpenTofu's
//! state renderer (`jsonformat`'s `State`, one resource) is the plan renderer run on a
//! change whose before and after are both the resource's values, with every member shown
//! and no action symbols. Here too one renderer draws every resource (the `show` module's):
//! without the provider's schema it draws with a schema typed from the values.
//!
//! Sensitivity fails closed: an attribute the schema marks sensitive is hidden whatever the
//! document's own markers say (OpenTofu adds the schema's marks to `sensitive_values` when
//! it writes a state, so they agree for its documents), and a marker tfwire cannot read
//! hides the whole value it covers.

use crate::error::Error;
use crate::escape::{Padded, column_width, inline};
use crate::show::differ;
use crate::show::draw::{Opts, render};
use crate::show::fallback::block_from_value;
use crate::show::value::{Val, non_null};
use bumpalo::Bump;
use std::fmt::Write as _;
use tfwire::Value;
use tfwire::mask::{Cursor, Masks};
use tfwire::schema::{Attribute, AttributeType, Block, NestedBlock, Nesting};
use tfwire_plan::{Json, Mode};

pub use crate::show::{Dialect, Node};

/// One object of a resource instance in a state: what `state show` draws.
#[derive(Clone, Copy, Debug)]
pub struct Resource<'a> {
    /// The resource's mode: a data source is drawn `data "TYPE" "NAME"`, any other
    /// `resource "TYPE" "NAME"`.
    pub mode: Mode<'a>,
    /// The resource type (`aws_instance`).
    pub type_name: &'a str,
    /// The resource name (`web`).
    pub name: &'a str,
    /// The object's values: a `show -json` state's `values` or a raw state's `attributes`,
    /// as the document holds them or decoded with the type's schema ([`Node::Typed`], as
    /// `tfwire::Value`s read). `None`: absent or null.
    pub values: Option<Node<'a>>,
    /// The document's sensitivity marks, in the shape of `sensitive_values` (a raw state's
    /// `sensitive_attributes` turned into that shape).
    pub sensitive: Option<Json<'a>>,
}

/// `resource "TYPE" "NAME" {` ... `}` (or `data ...`), without a final newline: the
/// resource's values as `tofu state show` (or `terraform state show`, with
/// [`Dialect::Terraform`]) draws them with its schema block `schema`.
///
/// Without a schema, the same renderer draws the values with a schema typed from them
/// (every object an object type, every array a tuple, down to the depth drawn): as the
/// clients draw an object type, members are sorted by name and those that are null (and at
/// the top level the empty string) are left out, multi-line strings are heredocs, JSON
/// strings `jsonencode(...)`, numbers in positional notation (`-0.00000015`, as go-cty writes
/// them). Nested blocks cannot be told from lists of objects, nor maps from objects: they
/// are drawn as lists and objects (a map's null entries are left out too).
///
/// # Errors
///
/// Document values that are neither an object nor null (a resource's values are always an
/// object of attributes): the error names what was found and its byte offset.
///
/// Sensitivity fails closed: a value is drawn `(sensitive value)` when the document's marks
/// say so, when the schema marks its attribute sensitive, or when `masks` match it (from
/// the root of a resource of its type); a mark that does not fit its value hides all of it.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use tfwire_render::state::{Dialect, Node, Resource, render_resource};
/// let mut json = br#"{"values":{"ami":"ami-1","password":"hunter2","tags":{}},
///   "sensitive_values":{"password":true}}"#.to_vec();
/// let tape = tfwire_plan::Parser::new().parse(&mut json)?;
/// let root = tape.root();
/// let resource = Resource {
///     mode: tfwire_plan::Mode::Managed,
///     type_name: "aws_instance",
///     name: "web",
///     values: root.get("values").map(Node::Json),
///     sensitive: root.get("sensitive_values"),
/// };
/// let text = render_resource(&resource, None, &tfwire::mask::Masks::new(), Dialect::OpenTofu)?;
/// assert_eq!(
///     text,
///     "resource \"aws_instance\" \"web\" {\n    ami      = \"ami-1\"\n    \
///      password = (sensitive value)\n    tags     = {}\n}"
/// );
/// # Ok(()) }
/// ```
pub fn render_resource(
    resource: &Resource<'_>,
    schema: Option<&Block>,
    masks: &Masks,
    dialect: Dialect,
) -> Result<String, Error> {
    if let Some(Node::Json(v)) = resource.values
        && !v.is_null()
        && v.as_object().is_none()
    {
        let at = v
            .offset()
            .map_or_else(String::new, |n| format!(" (at byte {n})"));
        return Err(Error::new(format!(
            "{}{at}",
            v.unexpected("an object of attribute values")
        )));
    }
    let owned;
    let schema = match (schema, resource.values) {
        (Some(b), _) => b,
        (None, values) => {
            owned = block_from_value(values);
            &owned
        }
    };
    let arena = Bump::new();
    let marks = sensitive_marks(
        resource.values,
        resource.sensitive,
        schema,
        masks,
        resource.type_name,
        &arena,
    );
    Ok(draw(
        keyword(resource.mode),
        resource.type_name,
        resource.name,
        resource.values,
        marks,
        schema,
        dialect,
    ))
}

/// `resource` or `data`: the word a resource's drawing opens with.
fn keyword(mode: Mode<'_>) -> &'static str {
    if mode == Mode::Data {
        "data"
    } else {
        "resource"
    }
}

/// The flat attributes of a version 3 state's resource (`"tags.%" = "1"`), drawn in
/// `resource "TYPE" "NAME" {` ... `}` (without a final newline), sorted by key, each value
/// as the document writes it. An attribute `masks` match is drawn `(sensitive value)`: the
/// numeric parts of a key are list indexes and `%`/`#` counts, not steps (see
/// [`flat_masked`]).
pub fn render_flat(
    mode: Mode<'_>,
    type_name: &str,
    name: &str,
    attributes: Option<Json<'_>>,
    masks: &Masks,
) -> String {
    let mut pairs: Vec<(String, String)> = attributes
        .and_then(|a| a.as_object())
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let v = if flat_masked(masks, type_name, k) {
                "(sensitive value)".to_string()
            } else {
                v.to_string()
            };
            (crate::escape::Inline(k).to_string(), v)
        })
        .collect();
    pairs.sort();
    let mut out = format!(
        "{} {} {} {{\n",
        keyword(mode),
        crate::escape::quote(type_name),
        crate::escape::quote(name)
    );
    let width = column_width(pairs.iter().map(|(k, _)| k.chars().count()));
    for (k, v) in pairs {
        let _ = writeln!(out, "    {} = {v}", Padded::chars(&k, width));
    }
    out.push('}');
    out
}

/// Whether the flat (version 3) attribute `key` (`password`, `env.0.value`, `tags.%`) of a
/// resource of type `type_name` is masked: its numeric parts are list indices, `%` and `#`
/// counts, neither is a step.
pub fn flat_masked(masks: &Masks, type_name: &str, key: &str) -> bool {
    let mut at = masks.start(type_name);
    for part in key.split('.') {
        if part.is_empty() || part == "%" || part == "#" || part.bytes().all(|b| b.is_ascii_digit())
        {
            continue;
        }
        at = masks.step(&at, part);
        if at.is_masked() {
            return true;
        }
    }
    at.is_masked()
}

/// `resource "TYPE" "NAME" {` ... `}` for `values` under `schema`, hidden by the marker
/// tree `sensitive` (see [`sensitive_marks`]).
fn draw(
    keyword: &str,
    type_name: &str,
    name: &str,
    values: Option<Node<'_>>,
    sensitive: Node<'_>,
    schema: &Block,
    dialect: Dialect,
) -> String {
    let values = non_null(values);
    let sensitive = non_null(Some(sensitive));
    let v = Val::unchanged(values, sensitive, None, dialect);
    let diff = differ::block(&v, schema);
    let o = Opts {
        show_unchanged: true,
        hide_symbols: true,
        dialect,
        ..Opts::default()
    };
    format!(
        "{keyword} \"{}\" \"{}\" {}",
        inline(type_name),
        inline(name),
        render(&diff, 0, o)
    )
}

/// The sensitivity marker tree (the shape of `sensitive_values`) of `values` under
/// `schema`, built in `arena` for the renderer to walk: the document's `marks` with every
/// attribute the schema marks sensitive added, at any depth (in nested blocks and nested
/// attributes, for every element). A mark that does not fit its value (not `true`/`false`,
/// an object of marks on a value that is not an object, a list of marks on one that is not
/// a list) becomes `true`: it hides the whole value. Members whose mark is `false` are left
/// out; the document's marks are kept as they are where the tree needs no change. Every node
/// the masks match (from the root of a resource of type `type_name`) is marked `true`: the
/// one place where the schema-drawn state learns what the masks hide.
fn sensitive_marks<'a>(
    values: Option<Node<'a>>,
    marks: Option<Json<'a>>,
    schema: &Block,
    masks: &Masks,
    type_name: &str,
    arena: &'a Bump,
) -> Node<'a> {
    let b = Builder { arena, masks };
    b.block(
        non_null(values),
        marks.filter(|m| !m.is_null()),
        &schema.attributes,
        &schema.block_types,
        &masks.start(type_name),
    )
}

/// Whether `mark` hides all of `value`: `true`, or a mark that does not fit the value.
fn hides(mark: Option<Json<'_>>, value: Node<'_>) -> bool {
    let Some(m) = mark else { return false };
    if let Some(b) = m.as_bool() {
        return b;
    }
    if m.as_object().is_some() {
        return value.as_object().is_none();
    }
    if m.as_array().is_some() {
        return value.as_array().is_none();
    }
    true
}

/// A mark the tree leaves out of its object: `false`.
fn is_false(n: Node<'_>) -> bool {
    n.as_bool() == Some(false)
}

/// A built `true` or `false`.
fn flag<'a>(b: bool) -> Node<'a> {
    Node::Typed(Value::Bool(b))
}

/// Builds the marks of [`sensitive_marks`] in its arena.
struct Builder<'a, 'm> {
    arena: &'a Bump,
    masks: &'m Masks,
}

/// Builds the marks of one object from its value and the document's marks.
type Marks<'f, 'a, 'm> =
    dyn Fn(&Builder<'a, 'm>, Option<Node<'a>>, Option<Json<'a>>, &Cursor) -> Node<'a> + 'f;

impl<'a, 'm> Builder<'a, 'm> {
    /// The document's mark, with every node below that the masks match (from `at`) marked.
    fn copy_masked(
        &self,
        value: Option<Node<'a>>,
        mark: Option<Json<'a>>,
        at: &Cursor,
    ) -> Node<'a> {
        if at.is_masked() {
            return flag(true);
        }
        let Some(v) = value.filter(|v| !at.is_dead() && !hides(mark, *v)) else {
            return self.copy(value, mark);
        };
        if let Some(obj) = v.as_object() {
            let mut members = Vec::new();
            for (key, child) in obj.iter() {
                let child_mark = mark.and_then(|m| m.get(key)).filter(|m| !m.is_null());
                let m =
                    self.copy_masked(non_null(Some(child)), child_mark, &self.masks.step(at, key));
                if !is_false(m) {
                    members.push((key, m));
                }
            }
            return Node::Object(self.arena.alloc_slice_copy(&members));
        }
        if let Some(arr) = v.as_array() {
            let elements: Vec<Node<'a>> = arr
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let m = mark.and_then(|m| m.index(i)).filter(|m| !m.is_null());
                    self.copy_masked(non_null(Some(e)), m, at)
                })
                .collect();
            return Node::Array(self.arena.alloc_slice_copy(&elements));
        }
        self.copy(value, mark)
    }

    /// The document's mark as it is (`false` when there is none).
    fn copy(&self, value: Option<Node<'a>>, mark: Option<Json<'a>>) -> Node<'a> {
        match (value, mark) {
            (Some(v), m) if hides(m, v) => flag(true),
            (_, Some(m)) if !m.is_null() => Node::Json(m),
            _ => flag(false),
        }
    }

    /// The marks of an object of attributes and nested blocks.
    fn block(
        &self,
        value: Option<Node<'a>>,
        mark: Option<Json<'a>>,
        attrs: &[Attribute],
        blocks: &[NestedBlock],
        at: &Cursor,
    ) -> Node<'a> {
        if at.is_masked() {
            return flag(true);
        }
        let Some(v) = value.filter(|v| !hides(mark, *v)) else {
            return self.copy(value, mark);
        };
        let Some(obj) = v.as_object() else {
            return self.copy(value, mark);
        };
        let mut members = Vec::new();
        for (key, child) in obj.iter() {
            let child_mark = mark.and_then(|m| m.get(key)).filter(|m| !m.is_null());
            let child = non_null(Some(child));
            let at = self.masks.step(at, key);
            let m = if at.is_masked() {
                flag(true)
            } else if let Some(a) = attrs.iter().find(|a| a.name == key) {
                self.attribute(child, child_mark, a, &at)
            } else if let Some(nb) = blocks.iter().find(|b| b.type_name == key) {
                let inner = &nb.block;
                self.collection(child, child_mark, nb.nesting, &at, &|b, v, m, at| {
                    b.block(v, m, &inner.attributes, &inner.block_types, at)
                })
            } else {
                self.copy_masked(child, child_mark, &at)
            };
            if !is_false(m) {
                members.push((key, m));
            }
        }
        Node::Object(self.arena.alloc_slice_copy(&members))
    }

    fn attribute(
        &self,
        value: Option<Node<'a>>,
        mark: Option<Json<'a>>,
        a: &Attribute,
        at: &Cursor,
    ) -> Node<'a> {
        if a.sensitive {
            return flag(true);
        }
        match &a.ty {
            AttributeType::Type(_) => self.copy_masked(value, mark, at),
            AttributeType::Nested(n) => {
                self.collection(value, mark, n.nesting, at, &|b, v, m, at| {
                    b.block(v, m, &n.attributes, &[], at)
                })
            }
        }
    }

    /// The marks of a block (or nested attribute object) collection: one object, or one per
    /// element or key.
    fn collection(
        &self,
        value: Option<Node<'a>>,
        mark: Option<Json<'a>>,
        nesting: Nesting,
        at: &Cursor,
        each: &Marks<'_, 'a, 'm>,
    ) -> Node<'a> {
        let Some(v) = value.filter(|v| !hides(mark, *v)) else {
            return self.copy(value, mark);
        };
        match nesting {
            Nesting::Single | Nesting::Group => each(self, Some(v), mark, at),
            Nesting::List | Nesting::Set => {
                let Some(arr) = v.as_array() else {
                    return self.copy(value, mark);
                };
                let elements: Vec<Node<'a>> = arr
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let m = mark.and_then(|m| m.index(i)).filter(|m| !m.is_null());
                        each(self, non_null(Some(e)), m, at)
                    })
                    .collect();
                Node::Array(self.arena.alloc_slice_copy(&elements))
            }
            Nesting::Map => {
                let Some(obj) = v.as_object() else {
                    return self.copy(value, mark);
                };
                // Every key, `false` marks included (a map's marks keep all its keys).
                let members: Vec<(&'a str, Node<'a>)> = obj
                    .iter()
                    .map(|(k, e)| {
                        let m = mark.and_then(|m| m.get(k)).filter(|m| !m.is_null());
                        (k, each(self, non_null(Some(e)), m, &self.masks.step(at, k)))
                    })
                    .collect();
                Node::Object(self.arena.alloc_slice_copy(&members))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, Node, Resource, draw as render_resource, flat_masked, sensitive_marks};
    use bumpalo::Bump;
    use tfwire::TypedJson as _;
    use tfwire::mask::Masks;
    use tfwire::schema::{Block, Kind, ProgramCache, ProviderSchemas};
    use tfwire_plan::Json;

    /// The marks built in the arena, as text; checks that the resource draws the same with
    /// them as with that text parsed as a document (how the marks reached the renderer
    /// before they were built as a tree).
    fn marks_text(values: Option<Node<'_>>, marks: Option<Json<'_>>, schema: &Block) -> String {
        let arena = Bump::new();
        let tree = sensitive_marks(
            values,
            marks,
            schema,
            &tfwire::mask::Masks::new(),
            "t",
            &arena,
        );
        let text = tree.to_string();
        let mut buf = text.clone().into_bytes();
        let parsed = tfwire_plan::Parser::new().parse(&mut buf).unwrap();
        let built = render_resource(
            "resource",
            "t",
            "n",
            values,
            tree,
            schema,
            Dialect::OpenTofu,
        );
        let reparsed = render_resource(
            "resource",
            "t",
            "n",
            values,
            Node::Json(parsed.root()),
            schema,
            Dialect::OpenTofu,
        );
        assert_eq!(built, reparsed, "{text}");
        text
    }

    const SCHEMA: &str = r#"{"attributes":{
        "id":{"type":"string"},
        "secret":{"type":"string","sensitive":true},
        "tags":{"type":["map","string"]},
        "nested":{"nested_type":{"nesting_mode":"list","attributes":{
            "k":{"type":"string"},"pw":{"type":"string","sensitive":true}}}}},
      "block_types":{
        "one":{"nesting_mode":"single","block":{"attributes":{"a":{"type":"string"},"s":{"type":"string","sensitive":true}}}},
        "many":{"nesting_mode":"set","block":{"attributes":{"a":{"type":"string"}}}},
        "byname":{"nesting_mode":"map","block":{"attributes":{"a":{"type":"string"},"s":{"type":"number","sensitive":true}}}}}}"#;

    /// The schema's marks are added at every depth, marks that do not fit their value hide
    /// it, `false` members are left out (not in maps), a repeated key reads as its last
    /// occurrence, and document marks with no schema counterpart are kept as written.
    #[test]
    fn marks_merge_the_schema_and_the_document_and_fail_closed() {
        let schema = Block::from_json(SCHEMA.as_bytes()).unwrap();
        let values = r#"{"id":"i","secret":"s","tags":{"a":"1","b":"2"},
            "nested":[{"k":"x","pw":"p"},{"k":"y","pw":null}],
            "one":{"a":"q","s":"r"},"many":[{"a":"m"},{"a":"n"}],
            "byname":{"x":{"a":"1","s":2},"y":{"a":"3","s":4}},"extra":{"deep":[1]},"id":"again"}"#;
        for (marks, want) in [
            (
                "null",
                r#"{"secret":true,"nested":[{"pw":true},{"pw":true}],"one":{"s":true},"many":[{},{}],"byname":{"x":{"s":true},"y":{"s":true}}}"#,
            ),
            (
                r#"{"id":false,"tags":{"b":true},"extra":{"deep":[true]},"many":"yes","byname":[],"nested":[{"k":true}],"one":{"a":{"x":1}}}"#,
                r#"{"secret":true,"tags":{"b":true},"nested":[{"k":true,"pw":true},{"pw":true}],"one":{"a":true,"s":true},"many":true,"byname":true,"extra":{"deep":[true]}}"#,
            ),
            (
                r#"{"id":true,"id":false}"#,
                r#"{"secret":true,"nested":[{"pw":true},{"pw":true}],"one":{"s":true},"many":[{},{}],"byname":{"x":{"s":true},"y":{"s":true}}}"#,
            ),
            ("true", "true"),
            ("[true]", "true"),
            ("7", "true"),
        ] {
            let text = format!(r#"{{"v":{values},"m":{marks}}}"#);
            let mut buf = text.into_bytes();
            let doc = tfwire_plan::Parser::new().parse(&mut buf).unwrap();
            let v = doc.root().get("v").map(Node::Json);
            let m = doc.root().get("m");
            assert_eq!(marks_text(v, m, &schema), want, "{marks}");
        }
        // No values: the document's marks as they are.
        let mut buf = br#"{"m":{"a":["x"]}}"#.to_vec();
        let doc = tfwire_plan::Parser::new().parse(&mut buf).unwrap();
        assert_eq!(
            marks_text(None, doc.root().get("m"), &schema),
            r#"{"a":["x"]}"#
        );
        assert_eq!(marks_text(None, None, &schema), "false");
    }

    #[test]
    fn flat_keys() {
        let m = tfwire::mask::Masks::defaults();
        assert!(flat_masked(&m, "x", "db_password"));
        assert!(flat_masked(&m, "k", "spec.0.container.1.env.2.value"));
        assert!(!flat_masked(&m, "k", "spec.0.container.1.env.2.name"));
        assert!(!flat_masked(&m, "x", "tags.%"));
    }

    /// Every resource of every real-client state, decoded with its schema as `state show
    /// --schemas` decodes it, draws the same with the built marks as with their text.
    #[test]
    fn real_client_states_draw_the_same_with_built_marks() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/real-client");
        let mut drawn = 0;
        for entry in std::fs::read_dir(&root).unwrap() {
            let dir = entry.unwrap().path();
            let (state, schemas) = (dir.join("state.json"), dir.join("schemas.json"));
            if !state.is_file() || !schemas.is_file() {
                continue;
            }
            let cache = ProgramCache::new(
                ProviderSchemas::from_json(&std::fs::read(&schemas).unwrap()).unwrap(),
            );
            let mut text = std::fs::read(&state).unwrap();
            let tape = tfwire_plan::Parser::new().parse(&mut text).unwrap();
            let model_arena = Bump::new();
            let state = tape.state(&model_arena).unwrap();
            for r in state.values.iter().flat_map(|v| v.resources()) {
                let kind = match r.mode {
                    tfwire_plan::Mode::Data => Kind::DataSource,
                    _ => Kind::Resource,
                };
                let provider = r.provider_name.unwrap_or_default();
                let schema = cache.schema(provider, kind, r.type_name).unwrap();
                let program = cache.get(provider, kind, r.type_name).unwrap();
                let arena = Bump::new();
                let typed = r.values.and_then(|v| v.typed(&program, &arena).unwrap());
                marks_text(typed.map(Node::Typed), r.sensitive_values, &schema.block);
                marks_text(r.values.map(Node::Json), r.sensitive_values, &schema.block);
                drawn += 1;
            }
        }
        assert!(drawn > 50, "{drawn} resources drawn");
    }

    /// A document's values drawn without a schema: one resource `a.r`.
    fn untyped(values: &str, marks: &str) -> Result<String, crate::Error> {
        let mut buf = format!(r#"{{"v":{values},"m":{marks}}}"#).into_bytes();
        let doc = tfwire_plan::Parser::new().parse(&mut buf).unwrap();
        let resource = Resource {
            mode: tfwire_plan::Mode::Managed,
            type_name: "a",
            name: "r",
            values: doc.root().get("v").map(Node::Json),
            sensitive: doc.root().get("m"),
        };
        super::render_resource(&resource, None, &Masks::new(), Dialect::OpenTofu)
    }

    /// Without a schema the values are typed from themselves and drawn as the clients draw
    /// values of those types: sorted, null members (and top-level empty strings) left out,
    /// heredocs, `jsonencode`, go-cty's numbers, the last of a repeated key, the marks.
    #[test]
    fn untyped_values_draw_as_typed_values() {
        let got = untyped(
            r#"{"z":"a\nb","n":-1.5e-7,"e":"","gone":null,"m":{"y":null,"x":{"k":null},"w":[null,1,"s"]},
                "j":"{\"b\":1}","dup":1,"dup":"two","pw":"hunter2"}"#,
            r#"{"pw":true}"#,
        )
        .unwrap();
        assert_eq!(
            got,
            "resource \"a\" \"r\" {\n    \
                 dup = \"two\"\n    \
                 j   = jsonencode(\n        \
                     {\n            \
                         b = 1\n        \
                     }\n    \
                 )\n    \
                 m   = {\n        \
                     w = [\n            \
                         null,\n            \
                         1,\n            \
                         \"s\",\n        \
                     ]\n        \
                     x = {}\n    \
                 }\n    \
                 n   = -0.00000015\n    \
                 pw  = (sensitive value)\n    \
                 z   = <<-EOT\n        \
                     a\n        \
                     b\n    \
                 EOT\n\
             }"
        );
        assert_eq!(untyped("null", "{}").unwrap(), "resource \"a\" \"r\" {}");
        assert_eq!(untyped("{}", "{}").unwrap(), "resource \"a\" \"r\" {}");
    }

    /// Values nested deeper than the drawing goes end in its marker; values that are not an
    /// object are an error naming what was found and where.
    #[test]
    fn untyped_values_deep_and_not_objects() {
        let deep = format!("{{\"d\":{}1{}}}", "[".repeat(40), "]".repeat(40));
        let got = untyped(&deep, "{}").unwrap();
        assert!(
            got.contains("# (nested deeper than 32 levels, not shown)"),
            "{got}"
        );
        assert!(!got.contains("        1"), "{got}");
        for (values, found) in [
            ("\"s\"", "a string"),
            ("[1]", "an array"),
            ("7", "the number 7"),
        ] {
            let e = untyped(values, "{}").unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("expected an object of attribute values, found {found} (at byte 5)")
            );
        }
    }

    /// On every resource of every real-client state, an attribute the schema types as a
    /// primitive (and not write-only: the schema draws those, whose values no state holds)
    /// is drawn without the schema as with it (compared word by word: the
    /// alignment depends on the names drawn, and without the schema nested blocks are
    /// attributes).
    #[test]
    fn untyped_primitives_draw_as_with_the_schema() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/real-client");
        let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut compared = 0;
        for entry in std::fs::read_dir(&root).unwrap() {
            let dir = entry.unwrap().path();
            let (state, schemas) = (dir.join("state.json"), dir.join("schemas.json"));
            if !state.is_file() || !schemas.is_file() {
                continue;
            }
            let schemas = ProviderSchemas::from_json(&std::fs::read(&schemas).unwrap()).unwrap();
            let mut text = std::fs::read(&state).unwrap();
            let tape = tfwire_plan::Parser::new().parse(&mut text).unwrap();
            let model_arena = Bump::new();
            let state = tape.state(&model_arena).unwrap();
            for r in state.values.iter().flat_map(|v| v.resources()) {
                let provider = schemas
                    .provider(r.provider_name.unwrap_or_default())
                    .unwrap();
                let types = match r.mode {
                    tfwire_plan::Mode::Data => &provider.data_sources,
                    _ => &provider.resources,
                };
                let block = &types[r.type_name].block;
                let resource = Resource {
                    mode: r.mode,
                    type_name: r.type_name,
                    name: r.name,
                    values: r.values.map(Node::Json),
                    sensitive: r.sensitive_values,
                };
                let draw = |b| {
                    super::render_resource(&resource, b, &Masks::new(), Dialect::OpenTofu).unwrap()
                };
                let (with, without) = (draw(Some(block)), draw(None));
                let without: Vec<String> = without.lines().map(words).collect();
                for line in with.lines() {
                    let Some(name) = line
                        .strip_prefix("    ")
                        .filter(|l| !l.starts_with(' '))
                        .and_then(|l| l.split_once(" = "))
                        .map(|(n, _)| n.trim_end())
                    else {
                        continue;
                    };
                    let primitive = block.attributes.iter().any(|a| {
                        a.name == name
                            && !a.write_only
                            && matches!(
                                a.ty,
                                tfwire::schema::AttributeType::Type(
                                    tfwire::Type::String
                                        | tfwire::Type::Number
                                        | tfwire::Type::Bool
                                )
                            )
                    });
                    if primitive {
                        assert!(
                            without.contains(&words(line)),
                            "{} {}: {line}\n{with}\n{}",
                            dir.display(),
                            r.address,
                            without.join("\n")
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 250, "{compared} attributes compared");
    }
}
