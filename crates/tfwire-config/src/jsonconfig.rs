//! The `configuration` member of `show -json` (the client's `jsonconfig` package) built from
//! the decoded module tree and the provider schemas.

use crate::blocktoattr;
use crate::error::{Error, ErrorKind};
use crate::expr;
use crate::module::{self, Mode, Module, Resource};
use crate::value::{Ty, Val};
use core::fmt;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Body, Structure};
use std::collections::BTreeMap;
use tfwire::schema::{Block, Nesting, ProgramCache};
use tfwire_json::JsonWriter;

/// Which client's `show -json` to reproduce where the two differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Client {
    /// OpenTofu.
    OpenTofu,
    /// Terraform.
    Terraform,
}

/// A module and its children, keyed by call name.
pub(crate) struct Tree<'a> {
    /// `module.a.module.b` (empty for the root).
    pub(crate) path: String,
    /// The file the module's errors name (its first file, or its folder).
    pub(crate) file: String,
    pub(crate) module: Module<'a>,
    pub(crate) children: BTreeMap<String, Tree<'a>>,
}

/// A JSON value under construction: objects keep the order members are added in.
pub(crate) enum Node {
    Str(String),
    Bool(bool),
    Uint(u64),
    Val(Val),
    Ty(Ty),
    Arr(Vec<Node>),
    Obj(Vec<(String, Node)>),
}

impl Node {
    pub(crate) fn write<W: fmt::Write>(&self, w: &mut JsonWriter<W>) -> fmt::Result {
        match self {
            Node::Str(s) => w.string(s),
            Node::Bool(b) => w.bool(*b),
            Node::Uint(n) => w.uint(*n),
            Node::Val(v) => v.write(w),
            Node::Ty(t) => t.write(w),
            Node::Arr(items) => {
                w.begin_array()?;
                for i in items {
                    i.write(w)?;
                }
                w.end_array()
            }
            Node::Obj(members) => {
                w.begin_object()?;
                for (k, v) in members {
                    w.key(k)?;
                    v.write(w)?;
                }
                w.end_object()
            }
        }
    }
}

/// An object's members, added only when not empty (Go's `omitempty`).
#[derive(Default)]
struct Obj(Vec<(String, Node)>);

impl Obj {
    fn put(&mut self, key: &str, n: Node) {
        self.0.push((key.to_owned(), n));
    }
    fn str(&mut self, key: &str, s: &str) {
        if !s.is_empty() {
            self.put(key, Node::Str(s.to_owned()));
        }
    }
    fn flag(&mut self, key: &str, b: bool) {
        if b {
            self.put(key, Node::Bool(true));
        }
    }
    fn map(&mut self, key: &str, m: BTreeMap<String, Node>) {
        if !m.is_empty() {
            self.put(key, Node::Obj(m.into_iter().collect()));
        }
    }
    fn strings(&mut self, key: &str, items: &Option<Vec<String>>) {
        if let Some(items) = items
            && !items.is_empty()
        {
            self.put(
                key,
                Node::Arr(items.iter().map(|s| Node::Str(s.clone())).collect()),
            );
        }
    }
    fn done(self) -> Node {
        Node::Obj(self.0)
    }
}

/// A provider configuration entry (`providerConfig`).
struct ProviderConfig {
    name: String,
    full_name: String,
    alias: String,
    version_constraint: String,
    module_address: String,
    expressions: BTreeMap<String, Node>,
    parent_key: String,
}

fn opaque_key(provider: &str, addr: &str) -> String {
    if addr.is_empty() {
        provider.to_owned()
    } else {
        format!("{addr}:{provider}")
    }
}

fn find_source_key(start: &str, full_name: &str, m: &BTreeMap<String, ProviderConfig>) -> String {
    let mut parent_key = String::new();
    let mut key = start.to_owned();
    // Each step moves to a parent key set earlier: bounded by the number of entries.
    for _ in 0..=m.len() {
        if key.is_empty() {
            break;
        }
        match m.get(&key) {
            Some(p) if p.full_name == full_name => {
                parent_key = key.clone();
                key = p.parent_key.clone();
            }
            _ => break,
        }
    }
    parent_key
}

/// The writer's state: the schemas, the dialect.
pub(crate) struct Marshal<'s> {
    pub(crate) schemas: &'s ProgramCache,
    pub(crate) client: Client,
}

impl Marshal<'_> {
    fn terraform(&self) -> bool {
        self.client == Client::Terraform
    }

    /// The whole `configuration` object.
    pub(crate) fn config(&self, root: &Tree<'_>) -> Result<Node, Error> {
        let mut pcs = BTreeMap::new();
        self.provider_configs(root, None, &mut pcs);
        let root_module = self.module(root, &pcs)?;
        let mut out = Obj::default();
        let mut configs = BTreeMap::new();
        for (k, pc) in pcs {
            if !pc.parent_key.is_empty() {
                continue;
            }
            let mut o = Obj::default();
            o.str("name", &pc.name);
            o.str("full_name", &pc.full_name);
            o.str("alias", &pc.alias);
            o.str("version_constraint", &pc.version_constraint);
            o.str("module_address", &pc.module_address);
            o.map("expressions", pc.expressions);
            configs.insert(k, o.done());
        }
        out.map("provider_config", configs);
        out.put("root_module", root_module);
        Ok(out.done())
    }

    fn provider_configs(
        &self,
        c: &Tree<'_>,
        parent: Option<&Tree<'_>>,
        m: &mut BTreeMap<String, ProviderConfig>,
    ) {
        let md = &c.module;
        let reqs = md.requirements();
        let version = |fqn: &str| {
            reqs.get(fqn)
                .map(|v| module::version_constraints_string(v))
                .unwrap_or_default()
        };
        for p in &md.providers {
            let fqn = md.fqn(&p.name);
            let block = self
                .schemas
                .schemas()
                .provider(&fqn)
                .and_then(|s| s.provider.as_ref())
                .map(|s| &s.block);
            let key_name = match &p.alias {
                Some(a) => format!("{}.{a}", p.name),
                None => p.name.clone(),
            };
            let pc = ProviderConfig {
                name: p.name.clone(),
                full_name: fqn.clone(),
                alias: p.alias.clone().unwrap_or_default(),
                version_constraint: version(&fqn),
                module_address: c.path.clone(),
                expressions: self.expressions(p.body, block, &["alias", "version"]),
                parent_key: String::new(),
            };
            m.insert(opaque_key(&key_name, &c.path), pc);
        }
        for (local, r) in &md.required {
            // A provider the module requires but configures nowhere: no alias, no expressions.
            let implied = |parent_key: String| ProviderConfig {
                name: local.clone(),
                full_name: r.fqn.clone(),
                alias: String::new(),
                version_constraint: version(&r.fqn),
                module_address: c.path.clone(),
                expressions: BTreeMap::new(),
                parent_key,
            };
            for (alias_local, alias) in &r.aliases {
                let key = opaque_key(&format!("{alias_local}.{alias}"), &c.path);
                if m.contains_key(&key) {
                    continue;
                }
                m.insert(key, implied(String::new()));
            }
            let key = opaque_key(local, &c.path);
            if m.contains_key(&key) {
                continue;
            }
            let parent_key = match parent {
                Some(p) => find_source_key(&opaque_key(local, &p.path), &r.fqn, m),
                None => String::new(),
            };
            m.insert(key, implied(parent_key));
        }
        for fqn in reqs.keys() {
            let ty = fqn.rsplit('/').next().unwrap_or(fqn);
            let key = opaque_key(ty, &c.path);
            if m.contains_key(&key) {
                continue;
            }
            let parent_key = match parent {
                Some(p) => find_source_key(&opaque_key(ty, &p.path), fqn, m),
                None => String::new(),
            };
            m.insert(
                key,
                ProviderConfig {
                    name: ty.to_owned(),
                    full_name: fqn.clone(),
                    alias: String::new(),
                    version_constraint: String::new(),
                    module_address: c.path.clone(),
                    expressions: BTreeMap::new(),
                    parent_key,
                },
            );
        }
        for (name, call) in &md.calls {
            let Some(cc) = c.children.get(name) else {
                continue;
            };
            for ((child, child_alias), (parent_name, parent_alias)) in &call.providers {
                let in_child = match child_alias {
                    Some(a) => format!("{child}.{a}"),
                    None => child.clone(),
                };
                let in_parent = match parent_alias {
                    Some(a) => format!("{parent_name}.{a}"),
                    None => parent_name.clone(),
                };
                let fqn = cc.module.fqn(child);
                let parent_key = find_source_key(&opaque_key(&in_parent, &c.path), &fqn, m);
                m.insert(
                    opaque_key(&in_child, &cc.path),
                    ProviderConfig {
                        name: in_child,
                        full_name: fqn,
                        alias: String::new(),
                        version_constraint: String::new(),
                        module_address: cc.path.clone(),
                        expressions: BTreeMap::new(),
                        parent_key,
                    },
                );
            }
            self.provider_configs(cc, Some(c), m);
        }
    }

    fn module(&self, c: &Tree<'_>, pcs: &BTreeMap<String, ProviderConfig>) -> Result<Node, Error> {
        let md = &c.module;
        let mut out = Obj::default();

        let mut outputs = BTreeMap::new();
        for (name, o) in &md.outputs {
            let mut n = Obj::default();
            n.flag("sensitive", o.sensitive);
            if !self.terraform() {
                n.flag("ephemeral", o.ephemeral);
                n.str("deprecated", &o.deprecated);
            }
            n.put("expression", self.expression(o.value));
            n.strings("depends_on", &o.depends_on);
            n.str("description", &o.description);
            outputs.insert(name.clone(), n.done());
        }
        out.map("outputs", outputs);

        let mut resources = Vec::new();
        for mode in [Mode::Managed, Mode::Data, Mode::Ephemeral] {
            if mode == Mode::Ephemeral && self.terraform() {
                continue;
            }
            let mut rs: Vec<(String, Node)> = Vec::new();
            for r in md.resources.iter().filter(|r| r.mode == mode) {
                rs.push((r.address(), self.resource(c, r, pcs)?));
            }
            rs.sort_by(|a, b| a.0.cmp(&b.0));
            resources.extend(rs.into_iter().map(|(_, n)| n));
        }
        if !resources.is_empty() {
            out.put("resources", Node::Arr(resources));
        }

        let mut calls = BTreeMap::new();
        for (name, call) in &md.calls {
            let Some(cc) = c.children.get(name) else {
                continue;
            };
            let mut n = Obj::default();
            n.str("source", &call.source);
            let mut schema = Block::default();
            for (vname, v) in &cc.module.variables {
                schema.attributes.push(tfwire::schema::Attribute {
                    name: vname.clone(),
                    ty: tfwire::schema::AttributeType::Type(tfwire::Type::Dynamic),
                    required: v.default.is_none(),
                    optional: v.default.is_some(),
                    computed: false,
                    sensitive: false,
                    deprecated: false,
                    write_only: false,
                    description: String::new(),
                });
            }
            let skip = [
                "source",
                "version",
                "count",
                "for_each",
                "providers",
                "depends_on",
            ];
            n.map(
                "expressions",
                self.expressions(call.body, Some(&schema), &skip),
            );
            self.count_for_each(&mut n, call.count, call.for_each);
            n.put("module", self.module(cc, pcs)?);
            n.str("version_constraint", &call.version);
            n.strings("depends_on", &call.depends_on);
            calls.insert(name.clone(), n.done());
        }
        out.map("module_calls", calls);

        let mut vars = BTreeMap::new();
        for (name, v) in &md.variables {
            let mut n = Obj::default();
            let default = match v.default {
                Some(e) => Some(variable_default(e, v.ty.as_ref()).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Unsupported(format!(
                            "the default of variable {name:?} (a value this crate cannot \
                             evaluate or convert to the declared type)"
                        )),
                        c.file.clone(),
                        None,
                    )
                })?),
                None => None,
            };
            if self.terraform() {
                if let Some(d) = default {
                    n.put("default", Node::Val(d));
                }
                n.str("description", &v.description);
                n.flag("sensitive", v.sensitive);
            } else {
                match &v.ty {
                    Some(Ty::Any) | None => {}
                    Some(t) => n.put("type", Node::Ty(t.clone())),
                }
                let required = default.is_none();
                if let Some(d) = default {
                    n.put("default", Node::Val(d));
                }
                n.str("description", &v.description);
                n.flag("required", required);
                n.flag("sensitive", v.sensitive);
                n.flag("ephemeral", v.ephemeral);
                n.str("deprecated", &v.deprecated);
            }
            vars.insert(name.clone(), n.done());
        }
        out.map("variables", vars);

        if self.terraform() {
            let mut actions: Vec<(String, Node)> = Vec::new();
            for a in &md.actions {
                let mut n = Obj::default();
                let address = format!("action.{}.{}", a.ty, a.name);
                n.str("address", &address);
                n.str("type", &a.ty);
                n.str("name", &a.name);
                n.str("provider_config_key", &self.provider_key(c, a, pcs));
                self.count_for_each(&mut n, a.count, a.for_each);
                actions.push((address, n.done()));
            }
            actions.sort_by(|a, b| a.0.cmp(&b.0));
            if !actions.is_empty() {
                out.put(
                    "actions",
                    Node::Arr(actions.into_iter().map(|(_, n)| n).collect()),
                );
            }
        }
        Ok(out.done())
    }

    /// A resource's provider configuration key, normalised to the configuration it inherits.
    fn provider_key(
        &self,
        c: &Tree<'_>,
        r: &Resource<'_>,
        pcs: &BTreeMap<String, ProviderConfig>,
    ) -> String {
        let (local, alias, _) = c.module.resource_provider(r);
        let compact = match alias {
            Some(a) => format!("{local}.{a}"),
            None => local,
        };
        let key = opaque_key(&compact, &c.path);
        match pcs.get(&key) {
            Some(pc) if pcs.contains_key(&pc.parent_key) => pc.parent_key.clone(),
            _ => key,
        }
    }

    fn resource(
        &self,
        c: &Tree<'_>,
        r: &Resource<'_>,
        pcs: &BTreeMap<String, ProviderConfig>,
    ) -> Result<Node, Error> {
        let mut n = Obj::default();
        let address = r.address();
        n.str("address", &address);
        n.str(
            "mode",
            match r.mode {
                Mode::Managed => "managed",
                Mode::Data => "data",
                Mode::Ephemeral => "ephemeral",
            },
        );
        n.str("type", &r.ty);
        n.str("name", &r.name);
        n.str("provider_config_key", &self.provider_key(c, r, pcs));
        if !r.provisioners.is_empty() {
            let mut ps = Vec::new();
            for (ty, body) in &r.provisioners {
                let mut p = Obj::default();
                p.str("type", ty);
                let schema = provisioner_schema(ty);
                p.map(
                    "expressions",
                    self.expressions(body, Some(&schema), &["when", "on_failure", "connection"]),
                );
                ps.push(p.done());
            }
            n.put("provisioners", Node::Arr(ps));
        }
        let fqn = c.module.resource_provider(r).2;
        let schema = self
            .schemas
            .schemas()
            .provider(&fqn)
            .and_then(|p| match r.mode {
                Mode::Managed => p.resources.get(&r.ty),
                Mode::Data => p.data_sources.get(&r.ty),
                Mode::Ephemeral => p.ephemeral_resources.get(&r.ty),
            });
        let Some(schema) = schema else {
            return Err(Error::new(
                ErrorKind::Invalid(format!(
                    "no schema found for {address} (in provider {fqn}): add the provider's \
                     schema to the schemas given"
                )),
                c.file.clone(),
                None,
            ));
        };
        let skip = [
            "count",
            "for_each",
            "provider",
            "depends_on",
            "lifecycle",
            "connection",
            "provisioner",
        ];
        n.map(
            "expressions",
            self.expressions(r.body, Some(&schema.block), &skip),
        );
        n.put("schema_version", Node::Uint(schema.version.max(0) as u64));
        self.count_for_each(&mut n, r.count, r.for_each);
        n.strings("depends_on", &r.depends_on);
        Ok(n.done())
    }

    fn count_for_each(
        &self,
        n: &mut Obj,
        count: Option<&Expression>,
        for_each: Option<&Expression>,
    ) {
        let c = self.expression_parts(count);
        if !c.is_empty() {
            n.put("count_expression", Node::Obj(c));
            return;
        }
        let f = self.expression_parts(for_each);
        if !f.is_empty() {
            n.put("for_each_expression", Node::Obj(f));
        }
    }

    /// `marshalExpression`.
    fn expression(&self, e: Option<&Expression>) -> Node {
        Node::Obj(self.expression_parts(e))
    }

    fn expression_parts(&self, e: Option<&Expression>) -> Vec<(String, Node)> {
        let mut out = Vec::new();
        let Some(e) = e else { return out };
        if let Some(v) = expr::constant(e) {
            out.push(("constant_value".to_owned(), Node::Val(v)));
        }
        let refs = expr::references(e, self.terraform());
        if !refs.is_empty() {
            out.push((
                "references".to_owned(),
                Node::Arr(refs.into_iter().map(Node::Str).collect()),
            ));
        }
        out
    }

    /// `marshalExpressions`: the body's attributes the schema declares, and its nested
    /// blocks, keyed by name.
    fn expressions(
        &self,
        body: &Body,
        schema: Option<&Block>,
        skip: &[&str],
    ) -> BTreeMap<String, Node> {
        let mut out = BTreeMap::new();
        let Some(schema) = schema else { return out };
        let mut lists: BTreeMap<String, Vec<Node>> = BTreeMap::new();
        let mut maps: BTreeMap<String, BTreeMap<String, Node>> = BTreeMap::new();
        let ambiguous = blocktoattr::ambiguous_names(schema);
        let mut as_blocks: BTreeMap<&str, Vec<&Body>> = BTreeMap::new();
        for s in module::structures(body, skip) {
            match s {
                Structure::Attribute(a) => {
                    let name = a.key.value().as_str();
                    if schema.attributes.iter().any(|x| x.name == name) {
                        out.insert(name.to_owned(), self.expression(Some(&a.value)));
                    }
                }
                Structure::Block(b) => {
                    let name = b.ident.value().as_str();
                    if ambiguous.iter().any(|(n, _)| *n == name) && !body.has_attribute(name) {
                        as_blocks.entry(name).or_default().push(&b.body);
                        continue;
                    }
                    let Some(nb) = schema.block_types.iter().find(|x| x.type_name == name) else {
                        continue;
                    };
                    let inner = self.expressions(&b.body, Some(&nb.block), &[]);
                    let inner = Node::Obj(inner.into_iter().collect());
                    match nb.nesting {
                        Nesting::Single | Nesting::Group => {
                            out.insert(name.to_owned(), inner);
                        }
                        Nesting::List | Nesting::Set => {
                            lists.entry(name.to_owned()).or_default().push(inner);
                        }
                        Nesting::Map => {
                            if let Some(l) = b.labels.first() {
                                maps.entry(name.to_owned())
                                    .or_default()
                                    .insert(l.as_str().to_owned(), inner);
                            }
                        }
                    }
                }
            }
        }
        for (name, bodies) in as_blocks {
            let Some((_, ety)) = ambiguous.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            let mut parts = Vec::new();
            if let Some(v) = blocktoattr::value(&bodies, ety) {
                parts.push(("constant_value".to_owned(), Node::Val(v)));
            }
            let mut args = Vec::new();
            blocktoattr::arguments(&bodies, &mut args);
            let refs: Vec<Node> = args
                .into_iter()
                .flat_map(|e| expr::references(e, self.terraform()))
                .map(Node::Str)
                .collect();
            if !refs.is_empty() {
                parts.push(("references".to_owned(), Node::Arr(refs)));
            }
            out.insert(name.to_owned(), Node::Obj(parts));
        }
        for (k, v) in lists {
            out.insert(k, Node::Arr(v));
        }
        for (k, v) in maps {
            out.insert(k, Node::Obj(v.into_iter().collect()));
        }
        out
    }
}

/// A variable's default, converted to its type constraint.
pub(crate) fn variable_default(e: &Expression, ty: Option<&Ty>) -> Option<Val> {
    let v = expr::constant(e)?;
    match ty {
        Some(t) => t.convert(&v),
        None => Some(v),
    }
}

/// The schemas of the provisioners built into the clients (`local-exec`, `remote-exec`,
/// `file`): their argument names (the types do not matter for the expressions written).
fn provisioner_schema(ty: &str) -> Block {
    let names: &[&str] = match ty {
        "local-exec" => &[
            "command",
            "environment",
            "interpreter",
            "quiet",
            "working_dir",
        ],
        "remote-exec" => &["inline", "script", "scripts"],
        "file" => &["content", "destination", "source"],
        _ => &[],
    };
    let mut b = Block::default();
    for n in names {
        b.attributes.push(tfwire::schema::Attribute::optional(
            *n,
            tfwire::Type::Dynamic,
        ));
    }
    b
}
