//! Loading `terraform providers schema -json` / `tofu providers schema -json` documents.

use super::model::{
    Attribute, AttributeType, Block, Function, IdentityAttribute, IdentitySchema, NestedBlock,
    NestedType, Nesting, Parameter, ProviderSchema, ProviderSchemas, Schema,
};
use crate::error::{Error, ErrorKind, Path, PathStep};
use bumpalo::Bump;
use std::collections::BTreeMap;
use tfwire_json::Safe;
use tfwire_json::tape::{
    DEFAULT_MAX_DEPTH, Document, INPUT_PADDING, Subtree, TapeParser, TapeText,
};
use tfwire_json::view::{Json, Unexpected};

/// Deepest block nesting accepted (real providers nest up to 11).
const MAX_BLOCK_DEPTH: usize = 64;

impl ProviderSchemas {
    /// Loads a `terraform providers schema -json` (or `tofu providers schema -json`)
    /// document: format versions 0.x and 1.x (a document without `format_version`, as test
    /// fixtures are, is accepted), short (`aws`) or full (`registry.terraform.io/hashicorp/aws`)
    /// provider keys; resource, data source, ephemeral and list resource, provider,
    /// `provider_meta`, resource identity, action and state store schemas, and function
    /// signatures. A member of a provider this loader does not know (a kind newer than it)
    /// is named in [`ProviderSchema::unread`]; other unknown keys (`description_kind`, ...)
    /// are skipped.
    ///
    /// Errors name the JSON path and the byte offset of the offending value.
    pub fn from_json(input: &[u8]) -> Result<ProviderSchemas, Error> {
        with_document(input, |doc| doc.document(&mut Vec::new()))
    }

    /// Loads the value of a `provider_schemas` member (the map from provider address to
    /// provider schema) from the shared JSON view, in place: the schemas a Terraform Cloud
    /// redacted plan embeds, read from the plan's own parsed document with no text written or
    /// parsed again. The same loader as [`ProviderSchemas::from_json`] (same checks, same
    /// messages); `format_version` is `None`.
    ///
    /// Errors name the path from the document's root, which is where a `provider_schemas`
    /// member sits in both `providers schema -json` documents and redacted plans
    /// (`.provider_schemas["aws"].resource_schemas["x"].block.attributes["id"]`), and the
    /// byte offset of the offending value in that document.
    ///
    /// ```
    /// use tfwire_json::{json_shape, tape::{INPUT_PADDING, TapeParser}};
    /// let text = br#"{"resource_changes":[],"provider_schemas":{"registry.terraform.io/hashicorp/null":
    ///   {"resource_schemas":{"null_resource":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}"#;
    /// let mut buf = text.to_vec();
    /// buf.resize(text.len() + INPUT_PADDING, b' ');
    /// let shape = json_shape(text, 64, usize::MAX)?;
    /// let mut parser = TapeParser::default();
    /// let doc = parser.parse_document(&mut buf, text.len(), &shape)?;
    /// let schemas = tfwire::schema::ProviderSchemas::from_view(doc.root().get("provider_schemas").unwrap())?;
    /// let null = schemas.provider("null").unwrap();
    /// assert!(null.resources["null_resource"].block.attribute("id").unwrap().computed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ProviderSchemas::from_json`], for a value that is not a map of provider schemas.
    pub fn from_view(provider_schemas: Json<'_>) -> Result<ProviderSchemas, Error> {
        let mut out = ProviderSchemas::default();
        let path = &mut vec![PathStep::attr("provider_schemas")];
        let (Some(at), Some(doc)) = (provider_schemas.node_index(), provider_schemas.document())
        else {
            // `Json::null()`, which belongs to no document.
            let u = provider_schemas.unexpected("an object");
            return Err(Error::new(
                ErrorKind::InvalidSchema(u.to_string()),
                0,
                owned(path),
            ));
        };
        let bump = Bump::new();
        let doc = Doc {
            texts: doc.subtree(0),
            doc,
            bump: &bump,
        };
        doc.providers(at, path, &mut out)?;
        Ok(out)
    }
}

/// Parses `input` into a [`Document`] (the shared JSON layer: node offsets, exact numbers)
/// and runs `f` over it.
fn with_document<T>(
    input: &[u8],
    f: impl FnOnce(&Doc<'_, '_, Subtree<'_>>) -> Result<T, Error>,
) -> Result<T, Error> {
    // Nothing is allocated for a document nested too deep to parse (simd-json would size
    // its tape first, 28 bytes for each bracket).
    let shape = tfwire_json::json_shape(input, DEFAULT_MAX_DEPTH, usize::MAX)?;
    // A padded copy, which simd-json parses in place.
    let mut copy = Vec::with_capacity(input.len() + INPUT_PADDING);
    copy.extend_from_slice(input);
    copy.resize(input.len() + INPUT_PADDING, 0);
    let mut parser = TapeParser::default();
    let doc = parser.parse_document(&mut copy, input.len(), &shape)?;
    let bump = Bump::new();
    f(&Doc {
        texts: doc.subtree(0),
        doc: &doc,
        bump: &bump,
    })
}

/// The loader's walk: values by node index, read through the shared [`Json`] view (kinds,
/// members, subtree sizes, offsets); the schema's own errors (with its path) built here.
struct Doc<'a, 't, P> {
    /// The nodes' offsets.
    texts: P,
    doc: &'t Document<'a>,
    bump: &'a Bump,
}

type Steps<'t> = Vec<PathStep<'t>>;

/// The steps as an error's path.
fn owned(path: &Steps<'_>) -> Path<'static> {
    path.iter().map(|s| s.clone().into_owned()).collect()
}

impl<'a, 't, P: TapeText<'a>> Doc<'a, 't, P> {
    fn fail<T>(&self, at: usize, path: &Steps<'_>, message: impl Into<String>) -> Result<T, Error> {
        Err(Error::new(
            ErrorKind::InvalidSchema(message.into()),
            self.texts.offset(at),
            owned(path),
        ))
    }

    /// The shared view's description of a value of the wrong kind, as the loader's error.
    #[cold]
    fn unexpected(&self, at: usize, path: &Steps<'_>, u: Unexpected) -> Error {
        Error::new(
            ErrorKind::InvalidSchema(u.to_string()),
            u.offset.unwrap_or_else(|| self.texts.offset(at)),
            owned(path),
        )
    }

    /// The value at node `i`.
    fn value(&self, i: usize) -> Json<'t> {
        Json::new(&self.doc.nodes()[i..], self.doc)
    }

    /// Runs `f` on each member of the object at `at` (its key and value index), with the
    /// key's step on `path` while it runs.
    fn each_member(
        &self,
        at: usize,
        path: &mut Steps<'t>,
        mut f: impl FnMut(&'t str, usize, &mut Steps<'t>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        for (key, v) in self.object(at, path)? {
            path.push(PathStep::attr(key));
            f(key, v, path)?;
            path.pop();
        }
        Ok(())
    }

    /// The members of the object at `i` (key, value index); `None` if `i` is not an object.
    fn members(&self, i: usize) -> Option<Vec<(&'t str, usize)>> {
        let members = self.value(i).as_object()?.iter();
        Some(
            members
                .map(|(key, v)| (key, v.node_index().unwrap_or(i)))
                .collect(),
        )
    }

    fn object(&self, i: usize, path: &Steps<'_>) -> Result<Vec<(&'t str, usize)>, Error> {
        let object = self
            .value(i)
            .expect_object()
            .map_err(|u| self.unexpected(i, path, u))?;
        Ok(object
            .iter()
            .map(|(key, v)| (key, v.node_index().unwrap_or(i)))
            .collect())
    }

    fn string(&self, i: usize, path: &Steps<'_>) -> Result<&'t str, Error> {
        self.value(i)
            .expect_str()
            .map_err(|u| self.unexpected(i, path, u))
    }

    /// A bool (`null` is false).
    fn boolean(&self, i: usize, path: &Steps<'_>) -> Result<bool, Error> {
        let b = self.value(i).opt_bool();
        b.map(|b| b.unwrap_or(false))
            .map_err(|u| self.unexpected(i, path, u))
    }

    /// An integer (`null` is 0).
    fn integer(&self, i: usize, path: &Steps<'_>) -> Result<i64, Error> {
        let n = self.value(i).opt_i64();
        n.map(|n| n.unwrap_or(0))
            .map_err(|u| self.unexpected(i, path, u))
    }

    /// A non-negative integer (`null` is 0).
    fn count(&self, i: usize, path: &Steps<'_>) -> Result<u64, Error> {
        let n = self.value(i).opt_u64();
        n.map(|n| n.unwrap_or(0))
            .map_err(|u| self.unexpected(i, path, u))
    }

    /// Fails at the second of two members of `members` with the same name, or at a member
    /// whose name `others` (the block's attributes) also has.
    fn unique(
        &self,
        members: &[(&'t str, usize)],
        others: &[(&'t str, usize)],
        path: &mut Steps<'t>,
    ) -> Result<(), Error> {
        // Sorted by name (then position), so that the check is O(n log n) for any schema.
        let mut names: Vec<(&str, bool, usize)> = members
            .iter()
            .map(|&(n, v)| (n, false, v))
            .chain(others.iter().map(|&(n, v)| (n, true, v)))
            .collect();
        names.sort_unstable();
        // Two of `others` with one name are for the caller of `others` to report.
        let Some(w) = names
            .windows(2)
            .find(|w| w[0].0 == w[1].0 && !(w[0].1 && w[1].1))
        else {
            return Ok(());
        };
        // Members sort before `others` of the same name: `w[0]` is a member.
        let name = w[0].0;
        let (what, v) = if w[1].1 {
            let what = format!(
                "{} is both an attribute and a nested block type",
                Safe(name)
            );
            (what, w[0].2)
        } else {
            (format!("{} is declared twice", Safe(name)), w[1].2)
        };
        path.push(PathStep::key(name));
        self.fail(v, path, what)
    }

    fn document(&self, path: &mut Steps<'t>) -> Result<ProviderSchemas, Error> {
        let mut out = ProviderSchemas::default();
        let members = self.object(0, path)?;
        let mut schemas_at = None;
        for (key, v) in members {
            match key {
                "format_version" => {
                    path.push(PathStep::attr(key));
                    let version = self.string(v, path)?;
                    let major = version
                        .split('.')
                        .next()
                        .and_then(|m| m.parse::<u64>().ok());
                    if !matches!(major, Some(0 | 1)) {
                        return self.fail(
                            v,
                            path,
                            format!("unsupported format_version {}: this reader knows major versions 0 and 1", Safe(version)),
                        );
                    }
                    path.pop();
                    out.format_version = Some(version.to_owned());
                }
                "provider_schemas" => schemas_at = Some(v),
                _ => {}
            }
        }
        let Some(at) = schemas_at else {
            // `{"format_version":"1.0"}` is what Terraform and OpenTofu print for a
            // configuration without providers.
            if out.format_version.is_some() {
                return Ok(out);
            }
            return self.fail(
                0,
                path,
                "not a provider schemas document: no \"provider_schemas\"",
            );
        };
        path.push(PathStep::attr("provider_schemas"));
        self.providers(at, path, &mut out)?;
        path.pop();
        Ok(out)
    }

    /// The providers of the `provider_schemas` map at `at`, into `out`.
    fn providers(
        &self,
        at: usize,
        path: &mut Steps<'t>,
        out: &mut ProviderSchemas,
    ) -> Result<(), Error> {
        for (addr, v) in self.object(at, path)? {
            path.push(PathStep::key(addr));
            let p = self.provider(v, path)?;
            path.pop();
            out.providers.insert(addr.to_owned(), p);
        }
        Ok(())
    }

    fn provider(&self, at: usize, path: &mut Steps<'t>) -> Result<ProviderSchema, Error> {
        let mut p = ProviderSchema::default();
        self.each_member(at, path, |key, v, path| {
            match key {
                "provider" => p.provider = Some(self.schema(v, path)?),
                "provider_meta" => p.provider_meta = Some(self.schema(v, path)?),
                "resource_schemas" => p.resources = self.schemas(v, path)?,
                "data_source_schemas" => p.data_sources = self.schemas(v, path)?,
                "ephemeral_resource_schemas" => p.ephemeral_resources = self.schemas(v, path)?,
                "list_resource_schemas" => p.list_resources = self.schemas(v, path)?,
                "resource_identity_schemas" => p.identities = self.identities(v, path)?,
                "action_schemas" => p.actions = self.actions(v, path)?,
                "functions" => p.functions = self.functions(v, path)?,
                "state_store_schemas" => p.state_stores = self.schemas(v, path)?,
                _ => p.unread.push(key.to_owned()),
            }
            Ok(())
        })?;
        Ok(p)
    }

    fn schemas(&self, at: usize, path: &mut Steps<'t>) -> Result<BTreeMap<String, Schema>, Error> {
        // null, and the empty array some hand-trimmed fixtures have, mean no schemas.
        self.map(at, path, |doc, at, path| doc.schema(at, path))
    }

    /// The members of a map of schemas (`null` and `[]` are empty), each read by `f`.
    fn map<T>(
        &self,
        at: usize,
        path: &mut Steps<'t>,
        f: impl Fn(&Self, usize, &mut Steps<'t>) -> Result<T, Error>,
    ) -> Result<BTreeMap<String, T>, Error> {
        let mut out = BTreeMap::new();
        let v = self.value(at);
        if v.is_null() || v.as_array().is_some_and(|a| a.is_empty()) {
            return Ok(out);
        }
        for (name, v) in self.object(at, path)? {
            path.push(PathStep::key(name));
            out.insert(name.to_owned(), f(self, v, path)?);
            path.pop();
        }
        Ok(out)
    }

    /// `resource_identity_schemas`: `{"version": N, "attributes": {NAME: {"type": T,
    /// "required_for_import": B, "optional_for_import": B, "description": S}}}` each.
    fn identities(
        &self,
        at: usize,
        path: &mut Steps<'t>,
    ) -> Result<BTreeMap<String, IdentitySchema>, Error> {
        self.map(at, path, |doc, at, path| {
            let mut s = IdentitySchema::default();
            doc.each_member(at, path, |key, v, path| {
                match key {
                    "version" => s.version = doc.integer(v, path)?,
                    "attributes" if !doc.value(v).is_null() => {
                        let members = doc.object(v, path)?;
                        doc.unique(&members, &[], path)?;
                        for (name, av) in members {
                            path.push(PathStep::key(name));
                            s.attributes.push(doc.identity_attribute(name, av, path)?);
                            path.pop();
                        }
                    }
                    _ => {}
                }
                Ok(())
            })?;
            s.sort();
            Ok(s)
        })
    }

    fn identity_attribute(
        &self,
        name: &str,
        at: usize,
        path: &mut Steps<'t>,
    ) -> Result<IdentityAttribute, Error> {
        let mut a = IdentityAttribute {
            name: name.to_owned(),
            ty: crate::Type::Dynamic,
            required_for_import: false,
            optional_for_import: false,
            description: String::new(),
        };
        let mut typed = false;
        self.each_member(at, path, |key, v, path| {
            match key {
                "type" => {
                    a.ty = self.ty(v, path)?;
                    typed = true;
                }
                "required_for_import" => a.required_for_import = self.boolean(v, path)?,
                "optional_for_import" => a.optional_for_import = self.boolean(v, path)?,
                "description" => a.description = self.string(v, path)?.to_owned(),
                _ => {}
            }
            Ok(())
        })?;
        if !typed {
            return self.fail(at, path, "an identity attribute needs a \"type\"");
        }
        Ok(a)
    }

    /// `action_schemas`: `{"block": BLOCK}` each (no version: actions have none in
    /// `providers schema -json`; the protocol's is read as 0 there too).
    fn actions(&self, at: usize, path: &mut Steps<'t>) -> Result<BTreeMap<String, Schema>, Error> {
        self.map(at, path, |doc, at, path| doc.schema(at, path))
    }

    /// `functions`: `{"return_type": T, "parameters": [P], "variadic_parameter": P,
    /// "summary": S, "description": S, "deprecation_message": S}` each, a parameter being
    /// `{"name": S, "type": T, "is_nullable": B, "description": S}`.
    fn functions(
        &self,
        at: usize,
        path: &mut Steps<'t>,
    ) -> Result<BTreeMap<String, Function>, Error> {
        self.map(at, path, |doc, at, path| {
            let mut f = Function {
                parameters: Vec::new(),
                variadic: None,
                return_type: crate::Type::Dynamic,
                summary: String::new(),
                description: String::new(),
                deprecation_message: String::new(),
            };
            let mut returns = false;
            doc.each_member(at, path, |key, v, path| {
                match key {
                    "return_type" => {
                        f.return_type = doc.ty(v, path)?;
                        returns = true;
                    }
                    "parameters" if !doc.value(v).is_null() => {
                        let list = doc
                            .value(v)
                            .expect_array()
                            .map_err(|u| doc.unexpected(v, path, u))?;
                        for (i, p) in list.iter().enumerate() {
                            path.push(PathStep::Index(i as u64));
                            f.parameters
                                .push(doc.parameter(p.node_index().unwrap_or(v), path)?);
                            path.pop();
                        }
                    }
                    "variadic_parameter" if !doc.value(v).is_null() => {
                        f.variadic = Some(doc.parameter(v, path)?)
                    }
                    "summary" => f.summary = doc.string(v, path)?.to_owned(),
                    "description" => f.description = doc.string(v, path)?.to_owned(),
                    "deprecation_message" => {
                        f.deprecation_message = doc.string(v, path)?.to_owned()
                    }
                    _ => {}
                }
                Ok(())
            })?;
            if !returns {
                return doc.fail(at, path, "a function needs a \"return_type\"");
            }
            Ok(f)
        })
    }

    fn parameter(&self, at: usize, path: &mut Steps<'t>) -> Result<Parameter, Error> {
        let mut p = Parameter {
            name: String::new(),
            ty: crate::Type::Dynamic,
            allow_null: false,
            allow_unknown: false,
            description: String::new(),
        };
        let mut typed = false;
        self.each_member(at, path, |key, v, path| {
            match key {
                "name" => p.name = self.string(v, path)?.to_owned(),
                "type" => {
                    p.ty = self.ty(v, path)?;
                    typed = true;
                }
                "is_nullable" => p.allow_null = self.boolean(v, path)?,
                "description" => p.description = self.string(v, path)?.to_owned(),
                _ => {}
            }
            Ok(())
        })?;
        if !typed {
            return self.fail(at, path, "a function parameter needs a \"type\"");
        }
        Ok(p)
    }

    /// A type in its JSON form, at `at`.
    fn ty(&self, at: usize, path: &Steps<'t>) -> Result<crate::Type, Error> {
        let ty = crate::ty::tape::parse_at(
            self.doc.nodes(),
            &self.texts,
            at,
            self.bump,
            crate::ty::json::MAX_DEPTH,
        )
        .map_err(|e| {
            if e.is_arena() {
                Error::new(
                    ErrorKind::InvalidSchema("out of memory".into()),
                    0,
                    owned(path),
                )
            } else {
                let (kind, at) = e.into_parts();
                Error::new(kind, at, owned(path))
            }
        })?;
        Ok(ty.to_type())
    }

    fn schema(&self, at: usize, path: &mut Steps<'t>) -> Result<Schema, Error> {
        let mut s = Schema::default();
        let mut block = None;
        self.each_member(at, path, |key, v, path| {
            match key {
                "version" => s.version = self.integer(v, path)?,
                "block" => block = Some(self.block(v, path, 0)?),
                _ => {}
            }
            Ok(())
        })?;
        // A schema without a block (Terraform prints `{"version": 0}` for a provider with no
        // configuration) has an empty block.
        s.block = block.unwrap_or_default();
        Ok(s)
    }

    fn block(&self, at: usize, path: &mut Steps<'t>, depth: usize) -> Result<Block, Error> {
        if depth > MAX_BLOCK_DEPTH {
            return self.fail(
                at,
                path,
                format!("blocks nested more than {MAX_BLOCK_DEPTH} deep"),
            );
        }
        let mut b = Block::default();
        let members = self.object(at, path)?;
        // An attribute and a nested block type may not share a name (Terraform rejects
        // such schemas: the object type would have the attribute twice).
        let find = |key: &str| members.iter().rev().find(|m| m.0 == key).map(|m| m.1);
        if let (Some(a), Some(t)) = (find("attributes"), find("block_types"))
            && let (Some(attrs), Some(types)) = (self.members(a), self.members(t))
        {
            path.push(PathStep::attr("block_types"));
            self.unique(&types, &attrs, path)?;
            path.pop();
        }
        for (key, v) in members {
            path.push(PathStep::attr(key));
            match key {
                "attributes" => b.attributes = self.attributes(v, path, depth)?,
                "block_types" => {
                    let types = self.object(v, path)?;
                    self.unique(&types, &[], path)?;
                    for (name, nv) in types {
                        path.push(PathStep::key(name));
                        b.block_types
                            .push(self.nested_block(name, nv, path, depth)?);
                        path.pop();
                    }
                }
                "description" => b.description = self.string(v, path)?.to_owned(),
                "deprecated" => b.deprecated = self.boolean(v, path)?,
                _ => {}
            }
            path.pop();
        }
        b.sort();
        Ok(b)
    }

    fn attributes(
        &self,
        at: usize,
        path: &mut Steps<'t>,
        depth: usize,
    ) -> Result<Vec<Attribute>, Error> {
        let mut out = Vec::new();
        let members = self.object(at, path)?;
        self.unique(&members, &[], path)?;
        for (name, v) in members {
            path.push(PathStep::key(name));
            out.push(self.attribute(name, v, path, depth)?);
            path.pop();
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn attribute(
        &self,
        name: &str,
        at: usize,
        path: &mut Steps<'t>,
        depth: usize,
    ) -> Result<Attribute, Error> {
        let mut a = Attribute::named(name.to_owned());
        let mut typed = false;
        self.each_member(at, path, |key, v, path| {
            match key {
                "type" => {
                    a.ty = AttributeType::Type(self.ty(v, path)?);
                    typed = true;
                }
                "nested_type" => {
                    a.ty = AttributeType::Nested(self.nested_type(v, path, depth + 1)?);
                    typed = true;
                }
                "required" => a.required = self.boolean(v, path)?,
                "optional" => a.optional = self.boolean(v, path)?,
                "computed" => a.computed = self.boolean(v, path)?,
                "sensitive" => a.sensitive = self.boolean(v, path)?,
                "deprecated" => a.deprecated = self.boolean(v, path)?,
                "write_only" => a.write_only = self.boolean(v, path)?,
                "description" => a.description = self.string(v, path)?.to_owned(),
                _ => {}
            }
            Ok(())
        })?;
        if !typed {
            return self.fail(
                at,
                path,
                "an attribute needs a \"type\" or a \"nested_type\"",
            );
        }
        Ok(a)
    }

    fn nesting(&self, at: usize, path: &Steps<'t>, group: bool) -> Result<Nesting, Error> {
        Ok(match self.string(at, path)? {
            "single" => Nesting::Single,
            "list" => Nesting::List,
            "set" => Nesting::Set,
            "map" => Nesting::Map,
            "group" if group => Nesting::Group,
            other => return self.fail(at, path, format!("unknown nesting mode {}", Safe(other))),
        })
    }

    fn nested_type(
        &self,
        at: usize,
        path: &mut Steps<'t>,
        depth: usize,
    ) -> Result<NestedType, Error> {
        if depth > MAX_BLOCK_DEPTH {
            return self.fail(
                at,
                path,
                format!("nested attributes more than {MAX_BLOCK_DEPTH} deep"),
            );
        }
        let mut attributes = Vec::new();
        let mut nesting = None;
        self.each_member(at, path, |key, v, path| {
            match key {
                "attributes" => attributes = self.attributes(v, path, depth)?,
                "nesting_mode" => nesting = Some(self.nesting(v, path, false)?),
                // min_items/max_items of nested attributes: deprecated, never used.
                _ => {}
            }
            Ok(())
        })?;
        let Some(nesting) = nesting else {
            return self.fail(at, path, "a nested type needs a \"nesting_mode\"");
        };
        Ok(NestedType {
            attributes,
            nesting,
        })
    }

    fn nested_block(
        &self,
        name: &str,
        at: usize,
        path: &mut Steps<'t>,
        depth: usize,
    ) -> Result<NestedBlock, Error> {
        let (mut block, mut nesting, mut min, mut max) = (None, None, 0, 0);
        self.each_member(at, path, |key, v, path| {
            match key {
                "block" => block = Some(self.block(v, path, depth + 1)?),
                "nesting_mode" => nesting = Some(self.nesting(v, path, true)?),
                "min_items" => min = self.count(v, path)?,
                "max_items" => max = self.count(v, path)?,
                _ => {}
            }
            Ok(())
        })?;
        let Some(nesting) = nesting else {
            return self.fail(at, path, "a nested block type needs a \"nesting_mode\"");
        };
        if max > 0 && min > max {
            return self.fail(
                at,
                path,
                format!("min_items ({min}) is greater than max_items ({max})"),
            );
        }
        Ok(NestedBlock {
            type_name: name.to_owned(),
            block: block.unwrap_or_default(),
            nesting,
            min_items: min,
            max_items: max,
        })
    }
}

impl Block {
    /// Loads a block in the JSON form of `providers schema -json` (what a schema's `"block"`
    /// holds, also terraform-json's `SchemaBlock`).
    ///
    /// ```
    /// let block = tfwire::schema::Block::from_json(br#"{"attributes":{"id":{"type":"string","computed":true}},
    ///   "block_types":{"disk":{"nesting_mode":"list","block":{"attributes":{"size":{"type":"number"}}},"max_items":2}}}"#)?;
    /// assert_eq!(block.implied_type().to_string(), r#"["object",{"disk":["list",["object",{"size":"number"}]],"id":"string"}]"#);
    /// # Ok::<(), tfwire::Error>(())
    /// ```
    pub fn from_json(input: &[u8]) -> Result<Block, Error> {
        with_document(input, |doc| doc.block(0, &mut Vec::new(), 0))
    }
}
