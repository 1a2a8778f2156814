//! Loading the protobuf `GetProviderSchema.Response` and `Schema` messages of plugin protocol
//! versions 5 and 6, as a proxy sees them on the wire.

use super::{
    Attribute, AttributeType, Block, Function, IdentityAttribute, IdentitySchema, NestedBlock,
    NestedType, Nesting, Parameter, ProviderSchema, Schema,
};
use crate::error::{Error, ErrorKind, Path, PathStep};
use crate::proto::{Field, Fields};
use crate::ty::Type;
use tfwire_json::Safe;

/// The plugin protocol's major version: a few `Schema.Attribute` field numbers differ.
///
/// | field | protocol 5 | protocol 6 |
/// |---|---|---|
/// | `nested_type` | — | 10 |
/// | `write_only` | 10 | 11 |
/// | `deprecation_message` | 11 | 12 |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// `tfplugin5`.
    V5,
    /// `tfplugin6`.
    V6,
}

fn invalid(at: usize, m: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidSchema(m.into()), at, Path::root())
}

fn text<'a>(fields: &Fields<'_>, b: &'a [u8], what: &str) -> Result<&'a str, Error> {
    core::str::from_utf8(b)
        .map_err(|_| invalid(fields.offset_of(b), format!("{what} is not valid UTF-8")))
}

impl ProviderSchema {
    /// Loads a `GetProviderSchema.Response` message (protocol 5 or 6): the provider, resource,
    /// data source, ephemeral and list resource, action and (protocol 6) state store
    /// schemas, `provider_meta`, and function signatures. Diagnostics and capabilities are
    /// skipped; a field this reader does not know is named in [`ProviderSchema::unread`].
    /// Identity schemas come from another call: [`ProviderSchema::add_identities_from_protobuf`].
    ///
    /// ```
    /// use tfwire::schema::{ProviderSchema, Protocol};
    /// // resource_schemas = {"x": Schema{block: Block{attributes: [Attribute{name: "id", type: "string"}]}}}
    /// let attr = [b"\x0a\x02id\x12\x08\"string\"".as_slice()].concat();
    /// let block = [&[0x12, attr.len() as u8][..], &attr].concat();
    /// let schema = [&[0x12, block.len() as u8][..], &block].concat();
    /// let entry = [&b"\x0a\x01x"[..], &[0x12, schema.len() as u8], &schema].concat();
    /// let response = [&[0x12, entry.len() as u8][..], &entry].concat();
    /// let p = ProviderSchema::from_protobuf(&response, Protocol::V6)?;
    /// assert_eq!(p.resources["x"].block.implied_type().to_string(), r#"["object",{"id":"string"}]"#);
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn from_protobuf(response: &[u8], protocol: Protocol) -> Result<ProviderSchema, Error> {
        let mut p = ProviderSchema::default();
        let mut fields = Fields::new(response, 0, "GetProviderSchema.Response");
        while let Some(f) = fields.next() {
            let (n, v) = f?;
            let Field::Bytes(b) = v else {
                p.unread.push(format!("field {n}"));
                continue;
            };
            let base = fields.offset_of(b);
            match n {
                1 => p.provider = Some(schema(b, base, protocol)?),
                5 => p.provider_meta = Some(schema(b, base, protocol)?),
                // Diagnostics, server capabilities.
                4 | 6 => {}
                7 => {
                    let (name, f) = map_entry(b, base, "functions entry", function)?;
                    p.functions.insert(name, f);
                }
                11 => {
                    let (name, s) = map_entry(b, base, "action_schemas entry", |b, at| {
                        action_schema(b, at, protocol)
                    })?;
                    p.actions.insert(name, s);
                }
                2 | 3 | 8 | 9 | 10 if n != 10 || protocol == Protocol::V6 => {
                    let (name, s) =
                        map_entry(b, base, "schema map entry", |b, at| schema(b, at, protocol))?;
                    let map = match n {
                        2 => &mut p.resources,
                        3 => &mut p.data_sources,
                        8 => &mut p.ephemeral_resources,
                        9 => &mut p.list_resources,
                        _ => &mut p.state_stores,
                    };
                    map.insert(name, s);
                }
                _ => p.unread.push(format!("field {n}")),
            }
        }
        Ok(p)
    }
}

impl ProviderSchema {
    /// Adds the identity schemas of a `GetResourceIdentitySchemas.Response` message (the same
    /// in protocols 5 and 6) to [`ProviderSchema::identities`]. Diagnostics are skipped.
    ///
    /// ```
    /// use tfwire::schema::ProviderSchema;
    /// // identity_schemas = {"x": {version: 1, identity_attributes: [{name: "id", type: "string", required_for_import: true}]}}
    /// let attr = b"\x0a\x02id\x12\x08\"string\"\x18\x01";
    /// let schema = [&b"\x08\x01\x12"[..], &[attr.len() as u8], attr].concat();
    /// let entry = [&b"\x0a\x01x\x12"[..], &[schema.len() as u8], &schema].concat();
    /// let response = [&[0x0a, entry.len() as u8][..], &entry].concat();
    /// let mut p = ProviderSchema::default();
    /// p.add_identities_from_protobuf(&response)?;
    /// assert_eq!(p.identities["x"].version, 1);
    /// assert!(p.identities["x"].attribute("id").unwrap().required_for_import);
    /// assert_eq!(p.identities["x"].implied_type().to_string(), r#"["object",{"id":"string"}]"#);
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn add_identities_from_protobuf(&mut self, response: &[u8]) -> Result<(), Error> {
        let mut fields = Fields::new(response, 0, "GetResourceIdentitySchemas.Response");
        while let Some(f) = fields.next() {
            if let (1, Field::Bytes(b)) = f? {
                let at = fields.offset_of(b);
                let (name, s) = map_entry(b, at, "identity_schemas entry", identity_schema)?;
                self.identities.insert(name, s);
            }
        }
        Ok(())
    }
}

impl Schema {
    /// Loads a `Schema` message (protocol 5 or 6).
    pub fn from_protobuf(bytes: &[u8], protocol: Protocol) -> Result<Schema, Error> {
        schema(bytes, 0, protocol)
    }
}

/// A `map<string, M>` entry: `{1: key, 2: value}`, the value read by `read` (a missing value
/// is read from no bytes: proto3's default message).
fn map_entry<T>(
    b: &[u8],
    base: usize,
    what: &'static str,
    read: impl Fn(&[u8], usize) -> Result<T, Error>,
) -> Result<(String, T), Error> {
    let (mut key, mut value) = (None, None);
    let mut fields = Fields::new(b, base, what);
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Bytes(k)) => key = Some(text(&fields, k, "a schema name")?.to_owned()),
            (2, Field::Bytes(v)) => value = Some((v, fields.offset_of(v))),
            _ => {}
        }
    }
    // proto3 maps: a missing key is "", a missing value the default message.
    let key: String = key.unwrap_or_default();
    let (v, at) = value.unwrap_or((&[], base));
    // An error names the entry (the resource type, function, ...) it is in.
    let value = read(v, at).map_err(|e| {
        e.with_path(Path::from(vec![PathStep::Key(
            key.as_str().to_owned().into(),
        )]))
    })?;
    Ok((key, value))
}

/// An `ActionSchema`: `{1: Schema}`.
fn action_schema(b: &[u8], base: usize, protocol: Protocol) -> Result<Schema, Error> {
    let mut s = Schema::default();
    let mut fields = Fields::new(b, base, "ActionSchema");
    while let Some(f) = fields.next() {
        if let (1, Field::Bytes(v)) = f? {
            s = schema(v, fields.offset_of(v), protocol)?;
        }
    }
    Ok(s)
}

/// A type JSON field of `fields`' message, required (an empty one is an error: Terraform
/// cannot read it either).
fn required_type(
    fields: &Fields<'_>,
    t: Option<&[u8]>,
    base: usize,
    what: &str,
) -> Result<Type, Error> {
    let Some(t) = t.filter(|t| !t.is_empty()) else {
        return Err(invalid(base, format!("{what} has no type")));
    };
    let at = fields.offset_of(t);
    let json = text(fields, t, "a type")?;
    Type::from_json(json).map_err(|e| e.with_base(at))
}

/// A `Function`: parameters 1, variadic parameter 2, return 3 (`{1: type}`), summary 4,
/// description 5, deprecation message 7.
fn function(b: &[u8], base: usize) -> Result<Function, Error> {
    let mut f = Function {
        parameters: Vec::new(),
        variadic: None,
        return_type: Type::Dynamic,
        summary: String::new(),
        description: String::new(),
        deprecation_message: String::new(),
    };
    let mut returns = None;
    let mut fields = Fields::new(b, base, "Function");
    while let Some(field) = fields.next() {
        match field? {
            (1, Field::Bytes(p)) => f.parameters.push(parameter(p, fields.offset_of(p))?),
            (2, Field::Bytes(p)) => f.variadic = Some(parameter(p, fields.offset_of(p))?),
            (3, Field::Bytes(r)) => {
                let mut rf = Fields::new(r, fields.offset_of(r), "Function.Return");
                let mut ty = None;
                for x in rf.by_ref() {
                    if let (1, Field::Bytes(t)) = x? {
                        ty = Some(t);
                    }
                }
                returns = Some(required_type(&rf, ty, fields.offset_of(r), "the return")?);
            }
            (4, Field::Bytes(s)) => f.summary = text(&fields, s, "a summary")?.to_owned(),
            (5, Field::Bytes(d)) => f.description = text(&fields, d, "a description")?.to_owned(),
            (7, Field::Bytes(d)) => {
                f.deprecation_message = text(&fields, d, "a deprecation message")?.to_owned()
            }
            _ => {}
        }
    }
    f.return_type = returns.ok_or_else(|| invalid(base, "a function without a return type"))?;
    Ok(f)
}

/// A `Function.Parameter`: name 1, type 2, allow_null_value 3, allow_unknown_values 4,
/// description 5.
fn parameter(b: &[u8], base: usize) -> Result<Parameter, Error> {
    let mut p = Parameter {
        name: String::new(),
        ty: Type::Dynamic,
        allow_null: false,
        allow_unknown: false,
        description: String::new(),
    };
    let mut ty = None;
    let mut fields = Fields::new(b, base, "Function.Parameter");
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Bytes(n)) => p.name = text(&fields, n, "a parameter name")?.to_owned(),
            (2, Field::Bytes(t)) => ty = Some(t),
            (3, Field::Varint(v)) => p.allow_null = v != 0,
            (4, Field::Varint(v)) => p.allow_unknown = v != 0,
            (5, Field::Bytes(d)) => p.description = text(&fields, d, "a description")?.to_owned(),
            _ => {}
        }
    }
    let what = format!("parameter {}", Safe(&p.name));
    p.ty = required_type(&fields, ty, base, &what)?;
    Ok(p)
}

/// A `ResourceIdentitySchema`: version 1, identity attributes 2 (name 1, type 2,
/// required_for_import 3, optional_for_import 4, description 5).
fn identity_schema(b: &[u8], base: usize) -> Result<IdentitySchema, Error> {
    let mut s = IdentitySchema::default();
    let mut fields = Fields::new(b, base, "ResourceIdentitySchema");
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Varint(v)) => s.version = v as i64,
            (2, Field::Bytes(a)) => {
                let at = fields.offset_of(a);
                let mut attr = IdentityAttribute {
                    name: String::new(),
                    ty: Type::Dynamic,
                    required_for_import: false,
                    optional_for_import: false,
                    description: String::new(),
                };
                let mut ty = None;
                let mut af = Fields::new(a, at, "ResourceIdentitySchema.IdentityAttribute");
                while let Some(x) = af.next() {
                    match x? {
                        (1, Field::Bytes(n)) => {
                            attr.name = text(&af, n, "an attribute name")?.to_owned()
                        }
                        (2, Field::Bytes(t)) => ty = Some(t),
                        (3, Field::Varint(v)) => attr.required_for_import = v != 0,
                        (4, Field::Varint(v)) => attr.optional_for_import = v != 0,
                        (5, Field::Bytes(d)) => {
                            attr.description = text(&af, d, "a description")?.to_owned()
                        }
                        _ => {}
                    }
                }
                let what = format!("identity attribute {}", Safe(&attr.name));
                attr.ty = required_type(&af, ty, at, &what)?;
                s.attributes.push(attr);
            }
            _ => {}
        }
    }
    if let Some(m) = s.sort() {
        return Err(invalid(base, m));
    }
    Ok(s)
}

fn schema(b: &[u8], base: usize, protocol: Protocol) -> Result<Schema, Error> {
    let mut s = Schema::default();
    let mut fields = Fields::new(b, base, "Schema");
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Varint(v)) => s.version = v as i64,
            (2, Field::Bytes(blk)) => s.block = block(blk, fields.offset_of(blk), protocol, 0)?,
            _ => {}
        }
    }
    Ok(s)
}

fn block(b: &[u8], base: usize, protocol: Protocol, depth: usize) -> Result<Block, Error> {
    if depth > 64 {
        return Err(invalid(base, "blocks nested more than 64 deep"));
    }
    let mut blk = Block::default();
    let mut fields = Fields::new(b, base, "Schema.Block");
    while let Some(f) = fields.next() {
        match f? {
            (2, Field::Bytes(a)) => {
                blk.attributes
                    .push(attribute(a, fields.offset_of(a), protocol, depth)?)
            }
            (3, Field::Bytes(nb)) => {
                blk.block_types
                    .push(nested_block(nb, fields.offset_of(nb), protocol, depth)?)
            }
            (4, Field::Bytes(d)) => blk.description = text(&fields, d, "a description")?.to_owned(),
            (6, Field::Varint(v)) => blk.deprecated = v != 0,
            _ => {}
        }
    }
    blk.sort();
    if let Some(m) = blk.name_clash() {
        return Err(invalid(base, m));
    }
    Ok(blk)
}

fn attribute(b: &[u8], base: usize, protocol: Protocol, depth: usize) -> Result<Attribute, Error> {
    let mut a = Attribute::named(String::new());
    let (mut ty, mut nested) = (None, None);
    let write_only = if protocol == Protocol::V5 { 10 } else { 11 };
    let mut fields = Fields::new(b, base, "Schema.Attribute");
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Bytes(n)) => a.name = text(&fields, n, "an attribute name")?.to_owned(),
            (2, Field::Bytes(t)) if !t.is_empty() => {
                let at = fields.offset_of(t);
                let json = text(&fields, t, "a type")?;
                // The type JSON is bytes of the message: the offset of the offending byte.
                ty = Some(Type::from_json(json).map_err(|e| e.with_base(at))?);
            }
            (3, Field::Bytes(d)) => a.description = text(&fields, d, "a description")?.to_owned(),
            (4, Field::Varint(v)) => a.required = v != 0,
            (5, Field::Varint(v)) => a.optional = v != 0,
            (6, Field::Varint(v)) => a.computed = v != 0,
            (7, Field::Varint(v)) => a.sensitive = v != 0,
            (9, Field::Varint(v)) => a.deprecated = v != 0,
            (10, Field::Bytes(o)) if protocol == Protocol::V6 => {
                nested = Some(nested_type(o, fields.offset_of(o), protocol, depth + 1)?);
            }
            (n, Field::Varint(v)) if n == write_only => a.write_only = v != 0,
            _ => {}
        }
    }
    a.ty = match (ty, nested) {
        (_, Some(n)) => AttributeType::Nested(n),
        (Some(t), None) => AttributeType::Type(t),
        (None, None) => {
            return Err(invalid(
                base,
                format!(
                    "attribute {} has neither a type nor a nested type",
                    Safe(&a.name)
                ),
            ));
        }
    };
    Ok(a)
}

fn nested_type(
    b: &[u8],
    base: usize,
    protocol: Protocol,
    depth: usize,
) -> Result<NestedType, Error> {
    if depth > 64 {
        return Err(invalid(base, "nested attributes more than 64 deep"));
    }
    let (mut attributes, mut nesting) = (Vec::new(), None);
    let mut fields = Fields::new(b, base, "Schema.Object");
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Bytes(a)) => {
                attributes.push(attribute(a, fields.offset_of(a), protocol, depth)?)
            }
            (3, Field::Varint(v)) => nesting = Some(nesting_mode(v, base, false)?),
            _ => {}
        }
    }
    attributes.sort_by(|a: &Attribute, b| a.name.cmp(&b.name));
    if let Some(w) = attributes.windows(2).find(|w| w[0].name == w[1].name) {
        return Err(invalid(
            base,
            format!("{} is declared twice", Safe(&w[1].name)),
        ));
    }
    let nesting = nesting.ok_or_else(|| invalid(base, "a nested type without a nesting mode"))?;
    Ok(NestedType {
        attributes,
        nesting,
    })
}

fn nesting_mode(v: u64, at: usize, group: bool) -> Result<Nesting, Error> {
    Ok(match v {
        1 => Nesting::Single,
        2 => Nesting::List,
        3 => Nesting::Set,
        4 => Nesting::Map,
        5 if group => Nesting::Group,
        _ => return Err(invalid(at, format!("invalid nesting mode {v}"))),
    })
}

fn nested_block(
    b: &[u8],
    base: usize,
    protocol: Protocol,
    depth: usize,
) -> Result<NestedBlock, Error> {
    let mut nb = NestedBlock {
        type_name: String::new(),
        block: Block::default(),
        nesting: Nesting::Single,
        min_items: 0,
        max_items: 0,
    };
    let mut nesting = None;
    let mut fields = Fields::new(b, base, "Schema.NestedBlock");
    while let Some(f) = fields.next() {
        match f? {
            (1, Field::Bytes(n)) => {
                nb.type_name = text(&fields, n, "a block type name")?.to_owned()
            }
            (2, Field::Bytes(blk)) => {
                nb.block = block(blk, fields.offset_of(blk), protocol, depth + 1)?
            }
            (3, Field::Varint(v)) => nesting = Some(nesting_mode(v, base, true)?),
            (4, Field::Varint(v)) => nb.min_items = v,
            (5, Field::Varint(v)) => nb.max_items = v,
            _ => {}
        }
    }
    nb.nesting = nesting.ok_or_else(|| {
        invalid(
            base,
            format!(
                "nested block {} without a nesting mode",
                Safe(&nb.type_name)
            ),
        )
    })?;
    if nb.max_items > 0 && nb.min_items > nb.max_items {
        return Err(invalid(
            base,
            format!(
                "nested block {}: min_items ({}) is greater than max_items ({})",
                Safe(&nb.type_name),
                nb.min_items,
                nb.max_items
            ),
        ));
    }
    Ok(nb)
}
