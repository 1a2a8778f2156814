//! One module's files decoded into what `configs.Module` holds for `jsonconfig`: provider
//! requirements and configurations, variables, outputs, module calls, resources, actions.

use crate::expr::{self, Step};
use crate::value::{Ty, Val};
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Block, Body, Structure};
use std::collections::BTreeMap;

/// A `required_providers` entry.
#[derive(Debug, Default)]
pub(crate) struct Required {
    /// The fully qualified provider address.
    pub(crate) fqn: String,
    /// The version constraints as written.
    pub(crate) versions: Vec<String>,
    /// `configuration_aliases`: (local name, alias).
    pub(crate) aliases: Vec<(String, String)>,
}

/// A `provider` block.
pub(crate) struct ProviderBlock<'a> {
    pub(crate) name: String,
    pub(crate) alias: Option<String>,
    pub(crate) body: &'a Body,
}

/// A `variable` block.
#[derive(Default)]
pub(crate) struct Variable<'a> {
    pub(crate) ty: Option<Ty>,
    pub(crate) default: Option<&'a Expression>,
    pub(crate) description: String,
    pub(crate) sensitive: bool,
    pub(crate) ephemeral: bool,
    pub(crate) deprecated: String,
}

/// An `output` block.
#[derive(Default)]
pub(crate) struct Output<'a> {
    pub(crate) value: Option<&'a Expression>,
    pub(crate) description: String,
    pub(crate) sensitive: bool,
    pub(crate) ephemeral: bool,
    pub(crate) deprecated: String,
    pub(crate) depends_on: Option<Vec<String>>,
}

/// A provider configuration as a module names it: local name and alias.
pub(crate) type LocalConfig = (String, Option<String>);

/// A `module` block.
pub(crate) struct Call<'a> {
    pub(crate) source: String,
    pub(crate) version: String,
    pub(crate) count: Option<&'a Expression>,
    pub(crate) for_each: Option<&'a Expression>,
    pub(crate) depends_on: Option<Vec<String>>,
    /// `providers = { child = parent }`: (child local name, alias), (parent local name, alias).
    pub(crate) providers: Vec<(LocalConfig, LocalConfig)>,
    pub(crate) body: &'a Body,
}

/// The mode of a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Managed,
    Data,
    Ephemeral,
}

/// A `resource`, `data` or `ephemeral` block, or (Terraform) an `action` block.
pub(crate) struct Resource<'a> {
    pub(crate) mode: Mode,
    pub(crate) ty: String,
    pub(crate) name: String,
    /// `provider = local.alias`.
    pub(crate) provider: Option<(String, Option<String>)>,
    pub(crate) count: Option<&'a Expression>,
    pub(crate) for_each: Option<&'a Expression>,
    pub(crate) depends_on: Option<Vec<String>>,
    pub(crate) provisioners: Vec<(String, &'a Body)>,
    pub(crate) body: &'a Body,
}

impl Resource<'_> {
    /// The address within its module (`data.x.y`).
    pub(crate) fn address(&self) -> String {
        match self.mode {
            Mode::Managed => format!("{}.{}", self.ty, self.name),
            Mode::Data => format!("data.{}.{}", self.ty, self.name),
            Mode::Ephemeral => format!("ephemeral.{}.{}", self.ty, self.name),
        }
    }
}

/// A module's decoded blocks.
#[derive(Default)]
pub(crate) struct Module<'a> {
    pub(crate) required: BTreeMap<String, Required>,
    pub(crate) providers: Vec<ProviderBlock<'a>>,
    pub(crate) variables: BTreeMap<String, Variable<'a>>,
    pub(crate) outputs: BTreeMap<String, Output<'a>>,
    pub(crate) calls: BTreeMap<String, Call<'a>>,
    pub(crate) resources: Vec<Resource<'a>>,
    pub(crate) actions: Vec<Resource<'a>>,
    /// The default registry host (`registry.opentofu.org` or `registry.terraform.io`).
    host: &'static str,
}

impl<'a> Module<'a> {
    /// Decodes the bodies of a module's files, in file name order.
    pub(crate) fn decode(bodies: &[&'a Body], terraform: bool) -> Module<'a> {
        let mut m = Module {
            host: if terraform {
                "registry.terraform.io"
            } else {
                "registry.opentofu.org"
            },
            ..Module::default()
        };
        for body in bodies {
            for block in body.blocks() {
                m.block(block);
            }
        }
        m
    }

    fn block(&mut self, b: &'a Block) {
        let labels: Vec<&str> = b.labels.iter().map(|l| l.as_str()).collect();
        match (b.ident.value().as_str(), labels.as_slice()) {
            ("terraform", []) => {
                for rp in b.body.get_blocks("required_providers") {
                    for a in rp.body.attributes() {
                        let name = a.key.value().as_str().to_owned();
                        let req = self.required_entry(&name, &a.value);
                        self.required.insert(name, req);
                    }
                }
            }
            ("provider", [name]) => self.providers.push(ProviderBlock {
                name: (*name).to_owned(),
                alias: str_attr(&b.body, "alias"),
                body: &b.body,
            }),
            ("variable", [name]) => {
                let v = Variable {
                    ty: b
                        .body
                        .get_attribute("type")
                        .and_then(|a| expr::type_constraint(&a.value)),
                    default: b.body.get_attribute("default").map(|a| &a.value),
                    description: str_attr(&b.body, "description").unwrap_or_default(),
                    sensitive: bool_attr(&b.body, "sensitive"),
                    ephemeral: bool_attr(&b.body, "ephemeral"),
                    deprecated: str_attr(&b.body, "deprecated").unwrap_or_default(),
                };
                self.variables.insert((*name).to_owned(), v);
            }
            ("output", [name]) => {
                let o = Output {
                    value: b.body.get_attribute("value").map(|a| &a.value),
                    description: str_attr(&b.body, "description").unwrap_or_default(),
                    sensitive: bool_attr(&b.body, "sensitive"),
                    ephemeral: bool_attr(&b.body, "ephemeral"),
                    deprecated: str_attr(&b.body, "deprecated").unwrap_or_default(),
                    depends_on: depends_on(&b.body),
                };
                self.outputs.insert((*name).to_owned(), o);
            }
            ("module", [name]) => {
                let mut providers = Vec::new();
                if let Some(Expression::Object(o)) =
                    b.body.get_attribute("providers").map(|a| &a.value)
                {
                    for (k, v) in o.iter() {
                        let child = match k {
                            hcl_edit::expr::ObjectKey::Ident(i) => {
                                Some((i.value().as_str().to_owned(), None))
                            }
                            hcl_edit::expr::ObjectKey::Expression(e) => provider_ref(e),
                        };
                        if let (Some(c), Some(p)) = (child, provider_ref(v.expr())) {
                            providers.push((c, p));
                        }
                    }
                }
                let call = Call {
                    source: str_attr(&b.body, "source").unwrap_or_default(),
                    // go-version writes its constraints as they were written.
                    version: str_attr(&b.body, "version").unwrap_or_default(),
                    count: b.body.get_attribute("count").map(|a| &a.value),
                    for_each: b.body.get_attribute("for_each").map(|a| &a.value),
                    depends_on: depends_on(&b.body),
                    providers,
                    body: &b.body,
                };
                self.calls.insert((*name).to_owned(), call);
            }
            ("check", [_]) => {
                // A check's scoped data sources are the module's data resources.
                for d in b.body.get_blocks("data") {
                    self.block(d);
                }
            }
            (kind @ ("resource" | "data" | "ephemeral" | "action"), [ty, name]) => {
                let mode = match kind {
                    "data" => Mode::Data,
                    "ephemeral" => Mode::Ephemeral,
                    _ => Mode::Managed,
                };
                let provisioners = b
                    .body
                    .get_blocks("provisioner")
                    .filter_map(|p| {
                        let [l] = &p.labels[..] else { return None };
                        Some((l.as_str().to_owned(), &p.body))
                    })
                    .collect();
                let r = Resource {
                    mode,
                    ty: (*ty).to_owned(),
                    name: (*name).to_owned(),
                    provider: b
                        .body
                        .get_attribute("provider")
                        .and_then(|a| provider_ref(&a.value)),
                    count: b.body.get_attribute("count").map(|a| &a.value),
                    for_each: b.body.get_attribute("for_each").map(|a| &a.value),
                    depends_on: depends_on(&b.body),
                    provisioners,
                    body: &b.body,
                };
                if kind == "action" {
                    self.actions.push(r);
                } else {
                    self.resources.push(r);
                }
            }
            _ => {}
        }
    }

    fn required_entry(&self, name: &str, e: &Expression) -> Required {
        let mut req = Required {
            fqn: self.default_fqn(name),
            ..Required::default()
        };
        match e {
            Expression::Object(o) => {
                for (k, v) in o.iter() {
                    let key = match k {
                        hcl_edit::expr::ObjectKey::Ident(i) => i.value().as_str().to_owned(),
                        hcl_edit::expr::ObjectKey::Expression(e) => match expr::constant(e) {
                            Some(Val::String(s)) => s,
                            _ => continue,
                        },
                    };
                    match (key.as_str(), v.expr()) {
                        ("configuration_aliases", Expression::Array(a)) => {
                            for item in a.iter() {
                                if let Some((local, Some(alias))) = provider_ref(item) {
                                    req.aliases.push((local, alias));
                                }
                            }
                        }
                        ("source", v) => {
                            if let Some(Val::String(s)) = expr::constant(v) {
                                req.fqn = self.source_fqn(&s);
                            }
                        }
                        ("version", v) => {
                            if let Some(Val::String(s)) = expr::constant(v) {
                                req.versions.push(s);
                            }
                        }
                        _ => {}
                    }
                }
            }
            e => {
                if let Some(Val::String(v)) = expr::constant(e) {
                    req.versions.push(v);
                }
            }
        }
        req
    }

    /// The address a source string names (`tfwire/tfwire` → `registry.../tfwire/tfwire`).
    fn source_fqn(&self, source: &str) -> String {
        let parts: Vec<&str> = source.split('/').collect();
        let addr = match parts.as_slice() {
            [ty] => format!("{}/hashicorp/{ty}", self.host),
            [ns, ty] => format!("{}/{ns}/{ty}", self.host),
            _ => source.to_owned(),
        };
        addr.to_lowercase()
    }

    /// The address of a local name without a `required_providers` entry.
    fn default_fqn(&self, local: &str) -> String {
        if local == "terraform" {
            "terraform.io/builtin/terraform".to_owned()
        } else {
            format!("{}/hashicorp/{local}", self.host)
        }
    }

    /// The provider address a local name refers to in this module.
    pub(crate) fn fqn(&self, local: &str) -> String {
        match self.required.get(local) {
            Some(r) => r.fqn.clone(),
            None => self.default_fqn(local),
        }
    }

    /// The local name a resource type implies (`aws_instance` → `aws`).
    pub(crate) fn implied_local(ty: &str) -> &str {
        ty.split('_').next().unwrap_or(ty)
    }

    /// The provider local name and address of a resource: its `provider` argument, or the
    /// one its type implies.
    pub(crate) fn resource_provider(&self, r: &Resource<'_>) -> (String, Option<String>, String) {
        match &r.provider {
            Some((local, alias)) => (local.clone(), alias.clone(), self.fqn(local)),
            None => {
                let local = Module::implied_local(&r.ty);
                (local.to_owned(), None, self.fqn(local))
            }
        }
    }

    /// `ProviderRequirementsShallow`: every provider address the module uses, with the
    /// version constraints its `required_providers` give.
    pub(crate) fn requirements(&self) -> BTreeMap<String, Vec<String>> {
        let mut reqs: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in self.required.values() {
            reqs.entry(r.fqn.clone())
                .or_default()
                .extend(r.versions.iter().cloned());
        }
        for r in self.resources.iter().chain(&self.actions) {
            reqs.entry(self.resource_provider(r).2).or_default();
        }
        for p in &self.providers {
            reqs.entry(self.fqn(&p.name)).or_default();
        }
        reqs
    }
}

/// A string attribute's constant value.
fn str_attr(body: &Body, name: &str) -> Option<String> {
    match body
        .get_attribute(name)
        .and_then(|a| expr::constant(&a.value))
    {
        Some(Val::String(s)) => Some(s),
        _ => None,
    }
}

fn bool_attr(body: &Body, name: &str) -> bool {
    matches!(
        body.get_attribute(name)
            .and_then(|a| expr::constant(&a.value)),
        Some(Val::Bool(true))
    )
}

/// A provider reference (`aws` or `aws.west`).
///
/// An instance key after the alias (`aws.by_region[each.key]`, OpenTofu's providers with
/// `for_each`) does not change the configuration's address.
fn provider_ref(e: &Expression) -> Option<LocalConfig> {
    let ts = expr::traversals(e);
    let t = ts.first()?;
    match t.steps.as_slice() {
        [] if ts.len() == 1 => Some((t.root.clone(), None)),
        [Step::Attr(a), ..] => Some((t.root.clone(), Some(a.clone()))),
        _ => None,
    }
}

/// `depends_on`: each traversal's subject, as the client writes it (empty where it does not
/// parse).
fn depends_on(body: &Body) -> Option<Vec<String>> {
    let a = body.get_attribute("depends_on")?;
    let Expression::Array(items) = &a.value else {
        return None;
    };
    let out: Vec<String> = items.iter().map(expr::subject).collect();
    if out.is_empty() { None } else { Some(out) }
}

/// `getproviders.VersionConstraintsString` for the constraint strings of a provider: each
/// distinct constraint as operator and three-part version (`~>` with two parts keeps two),
/// sorted by version then operator, separated by `, `. A constraint that does not parse is
/// kept as written.
pub(crate) fn version_constraints_string(specs: &[String]) -> String {
    let mut sels: Vec<(Vec<u64>, String, u8, String)> = Vec::new();
    let mut unparsed = Vec::new();
    for c in specs.iter().flat_map(|s| s.split(',')).map(str::trim) {
        if c.is_empty() {
            continue;
        }
        match selection(c) {
            Some(sel) => {
                if !sels.contains(&sel) {
                    sels.push(sel);
                }
            }
            None => unparsed.push(c.to_owned()),
        }
    }
    sels.sort_by(|a, b| (&a.0, &a.1, a.2).cmp(&(&b.0, &b.1, b.2)));
    let mut out: Vec<String> = sels.into_iter().map(|s| s.3).collect();
    out.extend(unparsed);
    out.join(", ")
}

/// One constraint: its version numbers, prerelease, operator priority and written form.
fn selection(c: &str) -> Option<(Vec<u64>, String, u8, String)> {
    let op_len = c
        .find(|ch: char| ch.is_ascii_digit() || ch == 'v')
        .unwrap_or(c.len());
    let (op, ver) = c.split_at(op_len);
    let ver = ver.trim().trim_start_matches('v');
    let (ver, meta) = ver.split_once('+').map_or((ver, ""), |(v, m)| (v, m));
    let (ver, pre) = ver.split_once('-').map_or((ver, ""), |(v, p)| (v, p));
    let parts: Vec<u64> = ver
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let (prio, text) = match op.trim() {
        ">" => (1, "> "),
        ">=" => (2, ">= "),
        "" | "=" => (3, ""),
        "~>" if parts.len() >= 3 => (4, "~> "),
        "~>" => (5, "~> "),
        "<=" => (6, "<= "),
        "<" => (7, "< "),
        "!=" => (8, "!= "),
        _ => return None,
    };
    let mut nums = parts.clone();
    nums.resize(3, 0);
    let mut written = if prio == 5 {
        format!("{text}{}.{}", nums[0], nums[1])
    } else {
        format!("{text}{}.{}.{}", nums[0], nums[1], nums[2])
    };
    if !pre.is_empty() {
        written.push('-');
        written.push_str(pre);
    }
    if !meta.is_empty() {
        written.push('+');
        written.push_str(meta);
    }
    Some((nums, pre.to_owned(), prio, written))
}

/// The attributes and blocks of a body, skipping `names`.
pub(crate) fn structures<'b>(
    body: &'b Body,
    skip: &'b [&'b str],
) -> impl Iterator<Item = &'b Structure> + 'b {
    body.iter().filter(move |s| {
        let name = match s {
            Structure::Attribute(a) => a.key.value().as_str(),
            Structure::Block(b) => b.ident.value().as_str(),
        };
        !skip.contains(&name)
    })
}
