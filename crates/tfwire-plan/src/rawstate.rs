//! Raw state files (`terraform.tfstate`): version 4 (Terraform ≥ 0.12, OpenTofu) and the
//! legacy version 3 (Terraform 0.9–0.11).

use crate::build::{Cx, Result};
use crate::error::{Error, ErrorKind};
use crate::json::Json;
use crate::values::{Index, Mode, Output};
use crate::{Path, PathStep};
use core::fmt;
use std::borrow::Cow;
use tfwire_json::{Escape, JsonWriter};

/// A marker tree being built from paths.
enum MarkTree {
    None,
    All,
    Object(Vec<(String, MarkTree)>),
    Array(Vec<MarkTree>),
}

impl MarkTree {
    fn insert(&mut self, steps: &[PathStep<'_>]) {
        let Some((first, rest)) = steps.split_first() else {
            *self = MarkTree::All;
            return;
        };
        let child = match (first, &mut *self) {
            (_, MarkTree::All) => return,
            (PathStep::Index(i), MarkTree::None | MarkTree::Array(_)) => {
                if matches!(self, MarkTree::None) {
                    *self = MarkTree::Array(Vec::new());
                }
                let MarkTree::Array(items) = self else {
                    return;
                };
                // Bounded: a state's index keys index its own lists.
                let i = usize::try_from(*i).unwrap_or(usize::MAX).min(1 << 20);
                while items.len() <= i {
                    items.push(MarkTree::None);
                }
                &mut items[i]
            }
            (PathStep::Attr(k) | PathStep::Key(k), MarkTree::None | MarkTree::Object(_)) => {
                if matches!(self, MarkTree::None) {
                    *self = MarkTree::Object(Vec::new());
                }
                let MarkTree::Object(members) = self else {
                    return;
                };
                let at = match members.iter().position(|(n, _)| n == k.as_ref()) {
                    Some(at) => at,
                    None => {
                        members.push((k.to_string(), MarkTree::None));
                        members.len() - 1
                    }
                };
                &mut members[at].1
            }
            // A path that disagrees with another on the shape: mark the whole node.
            _ => {
                *self = MarkTree::All;
                return;
            }
        };
        child.insert(rest);
    }

    fn write(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.write_to(&mut JsonWriter::new(out, Escape::Safe));
    }

    fn write_to(&self, w: &mut JsonWriter<&mut String>) -> core::fmt::Result {
        match self {
            MarkTree::None => w.bool(false),
            MarkTree::All => w.bool(true),
            MarkTree::Object(members) => {
                w.begin_object()?;
                for (k, v) in members {
                    w.key(k)?;
                    v.write_to(w)?;
                }
                w.end_object()
            }
            MarkTree::Array(items) => {
                w.begin_array()?;
                for v in items {
                    v.write_to(w)?;
                }
                w.end_array()
            }
        }
    }
}

/// The members every version of a raw state file has.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct StateHeader<'a> {
    /// `version`: 4 in a [`RawState`], 3 in a [`LegacyState`].
    pub version: u64,
    /// `terraform_version`: the Terraform (or OpenTofu) version that last wrote the state.
    pub terraform_version: Option<&'a str>,
    /// `serial`: incremented on every write.
    pub serial: Option<u64>,
    /// `lineage`: a UUID fixed when the state was created.
    pub lineage: Option<&'a str>,
}

impl<'a> StateHeader<'a> {
    fn new(version: u64) -> StateHeader<'a> {
        StateHeader {
            version,
            terraform_version: None,
            serial: None,
            lineage: None,
        }
    }

    /// Reads the member `k` if it is one of the header's; false for the others.
    fn read(&mut self, k: &str, item: Json<'a>) -> Result<bool> {
        match k {
            "terraform_version" => self.terraform_version = item.opt_str()?,
            "serial" => self.serial = item.opt_u64()?,
            "lineage" => self.lineage = item.opt_str()?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A raw state file, version 4.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RawState<'a> {
    /// `version` (always 4 here), `terraform_version`, `serial` and `lineage`.
    pub header: StateHeader<'a>,
    /// `outputs`: root module outputs, in document order.
    pub outputs: &'a [Output<'a>],
    /// `resources`, in document order.
    pub resources: &'a [RawResource<'a>],
    /// `check_results`, as written.
    pub check_results: Option<Json<'a>>,
    /// The whole object as written, including properties this model does not know.
    pub raw: Json<'a>,
}

/// A resource (all its instances) in a raw state.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RawResource<'a> {
    /// `module`: the module instance address (`module.a["x"].module.b`); absent in the
    /// root module.
    pub module: Option<&'a str>,
    /// `mode`.
    pub mode: Mode<'a>,
    /// `type`.
    pub type_name: &'a str,
    /// `name`.
    pub name: &'a str,
    /// `each`: `"list"` (count) or `"map"` (for_each); absent for a single instance.
    pub each: Option<&'a str>,
    /// `provider`: the provider configuration address, e.g.
    /// `provider["registry.terraform.io/hashicorp/aws"].west`.
    pub provider: Option<&'a str>,
    /// `instances`, in document order.
    pub instances: &'a [RawInstance<'a>],
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// An instance object of a resource in a raw state (the current object, or a deposed
/// one).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RawInstance<'a> {
    /// `index_key`: absent for a single-instance resource.
    pub index_key: Option<Index<'a>>,
    /// `status`: `"tainted"`, or absent.
    pub status: Option<&'a str>,
    /// `deposed`: the deposed key, for a deposed object.
    pub deposed: Option<&'a str>,
    /// `schema_version`.
    pub schema_version: Option<u64>,
    /// `attributes`: the object's attribute values.
    pub attributes: Option<Json<'a>>,
    /// `attributes_flat`: the legacy flatmap form (states upgraded from version 3).
    pub attributes_flat: Option<Json<'a>>,
    /// `sensitive_attributes`: paths of sensitive values, as written.
    pub sensitive_attributes: Option<Json<'a>>,
    /// `identity` (Terraform ≥ 1.12).
    pub identity: Option<Json<'a>>,
    /// `identity_schema_version`.
    pub identity_schema_version: Option<u64>,
    /// `private`: provider-private data (base64), as written.
    pub private: Option<&'a str>,
    /// `dependencies`: addresses this object depends on.
    pub dependencies: &'a [&'a str],
    /// `create_before_destroy`.
    pub create_before_destroy: Option<bool>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// A resource instance address: module prefix, mode, type, name, index key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceAddress<'a> {
    /// The module instance address, if not the root module.
    pub module: Option<&'a str>,
    /// The resource mode.
    pub mode: Mode<'a>,
    /// The resource type.
    pub type_name: &'a str,
    /// The resource name.
    pub name: &'a str,
    /// The instance key.
    pub index: Option<Index<'a>>,
}

/// `module.a.aws_instance.b[0]`, `data.aws_ami.x`, `aws_s3_bucket.c["logs"]`.
impl fmt::Display for InstanceAddress<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.module.filter(|m| !m.is_empty()) {
            write!(f, "{m}.")?;
        }
        write!(
            f,
            "{}{}.{}",
            self.mode.address_prefix(),
            self.type_name,
            self.name
        )?;
        if let Some(i) = self.index {
            write!(f, "{i}")?;
        }
        Ok(())
    }
}

impl<'a> RawState<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>, version: u64) -> Result<RawState<'a>> {
        let mut s = RawState {
            header: StateHeader::new(version),
            outputs: &[],
            resources: &[],
            check_results: None,
            raw: v,
        };
        cx.members(v, |k, item| {
            if s.header.read(k, item)? {
                return Ok(());
            }
            match k {
                "outputs" => s.outputs = cx.named(item, Output::build)?,
                "resources" => s.resources = cx.list(item, RawResource::build)?,
                "check_results" => s.check_results = item.opt(),
                _ => {}
            }
            Ok(())
        })?;
        Ok(s)
    }

    /// The address of every resource instance (current objects; an instance with only
    /// deposed objects is listed once), in document order: the addresses `tofu state list` /
    /// `terraform state list` print (the commands sort them: [`crate::address::sort_state_list`];
    /// checked against both clients in `corpus/real-client*`).
    pub fn addresses(&self) -> impl Iterator<Item = InstanceAddress<'a>> + use<'a> {
        self.resources.iter().flat_map(|r| {
            let r = *r;
            r.instances.iter().enumerate().filter_map(move |(i, inst)| {
                if inst.deposed.is_some() {
                    // Listed through its current object, or through the first deposed one.
                    let seen = r.instances[..i]
                        .iter()
                        .any(|o| o.index_key == inst.index_key);
                    let current = r.instances[i..]
                        .iter()
                        .any(|o| o.deposed.is_none() && o.index_key == inst.index_key);
                    if seen || current {
                        return None;
                    }
                }
                Some(r.address(inst.index_key))
            })
        })
    }
}

impl<'a> RawResource<'a> {
    fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<RawResource<'a>> {
        let mut r = RawResource {
            module: None,
            mode: Mode::Managed,
            type_name: "",
            name: "",
            each: None,
            provider: None,
            instances: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "module" => r.module = item.opt_str()?,
                "mode" => r.mode = Mode::from_name(item.expect_str()?),
                "type" => r.type_name = item.expect_str()?,
                "name" => r.name = item.expect_str()?,
                "each" => r.each = item.opt_str()?,
                "provider" => r.provider = item.opt_str()?,
                "instances" => r.instances = cx.list(item, RawInstance::build)?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(r)
    }

    /// The address of this resource's instance with the given key.
    pub fn address(&self, index: Option<Index<'a>>) -> InstanceAddress<'a> {
        InstanceAddress {
            module: self.module,
            mode: self.mode,
            type_name: self.type_name,
            name: self.name,
            index,
        }
    }
}

impl<'a> RawInstance<'a> {
    /// The paths of `sensitive_attributes`, as written by Terraform ≥ 0.15 and OpenTofu:
    /// a list of paths, each a list of steps `{"type":"get_attr","value":NAME}` or
    /// `{"type":"index","value":{"value":KEY,"type":"string"|"number"}}`. A step of any
    /// other form ends its path there, so the value it is in counts as sensitive
    /// (hiding too much rather than too little). Likewise a path that is not a list counts
    /// as the empty path (the whole value), and `sensitive_attributes` that is neither a
    /// list nor `null` (a string, an object, ...) gives the empty path: all of
    /// `attributes` is sensitive.
    pub fn sensitive_paths(&self) -> Vec<Path<'a>> {
        let Some(v) = self.sensitive_attributes.filter(|v| !v.is_null()) else {
            return Vec::new();
        };
        let Some(list) = v.as_array() else {
            return vec![Path::root()];
        };
        list.iter()
            .map(|p| {
                let mut path = Path::root();
                for step in p.as_array().into_iter().flatten() {
                    let value = step.get("value");
                    let s = match step.get("type").and_then(|t| t.as_str()) {
                        Some("get_attr") => value
                            .and_then(|v| v.as_str())
                            .map(|n| PathStep::Attr(Cow::Borrowed(n))),
                        Some("index") => {
                            let key = value.and_then(|v| v.get("value"));
                            match (key.and_then(|k| k.as_str()), key.and_then(|k| k.as_u64())) {
                                (Some(k), _) => Some(PathStep::Key(Cow::Borrowed(k))),
                                (None, Some(i)) => Some(PathStep::Index(i)),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    match s {
                        Some(s) => path.push(s),
                        None => break,
                    }
                }
                path
            })
            .collect()
    }

    /// [`RawInstance::sensitive_paths`] as a marker tree in the form of `sensitive_values`
    /// (`{"password":true,"tags":{"env":true}}`, arrays padded with `false`), as JSON text:
    /// parse it and read it with [`crate::Mark::from_json`] to get a [`crate::Merged`]
    /// view of `attributes`.
    ///
    /// ```
    /// let mut input = br#"{"version":4,"resources":[{"mode":"managed","type":"t","name":"n",
    ///   "instances":[{"attributes":{"pw":"x","l":["a","b"]},"sensitive_attributes":[
    ///     [{"type":"get_attr","value":"pw"}],
    ///     [{"type":"get_attr","value":"l"},{"type":"index","value":{"value":1,"type":"number"}}]]}]}]}"#.to_vec();
    /// let tape = tfwire_plan::Parser::new().parse(&mut input)?;
    /// let arena = bumpalo::Bump::new();
    /// let state = tape.raw_state(&arena)?;
    /// let inst = &state.resources[0].instances[0];
    /// assert_eq!(inst.sensitive_marker_json(), r#"{"pw":true,"l":[false,true]}"#);
    /// # Ok::<(), tfwire_plan::Error>(())
    /// ```
    pub fn sensitive_marker_json(&self) -> String {
        let mut tree = MarkTree::None;
        for p in self.sensitive_paths() {
            tree.insert(p.steps());
        }
        let mut out = String::new();
        tree.write(&mut out);
        out
    }

    fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<RawInstance<'a>> {
        let mut i = RawInstance {
            index_key: None,
            status: None,
            deposed: None,
            schema_version: None,
            attributes: None,
            attributes_flat: None,
            sensitive_attributes: None,
            identity: None,
            identity_schema_version: None,
            private: None,
            dependencies: &[],
            create_before_destroy: None,
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "index_key" => i.index_key = Index::build(cx, item)?,
                "status" => i.status = item.opt_str()?,
                "deposed" => i.deposed = item.opt_str()?,
                "schema_version" => i.schema_version = item.opt_u64()?,
                "attributes" => i.attributes = item.opt(),
                "attributes_flat" => i.attributes_flat = item.opt(),
                "sensitive_attributes" => i.sensitive_attributes = item.opt(),
                "identity" => i.identity = item.opt(),
                "identity_schema_version" => i.identity_schema_version = item.opt_u64()?,
                "private" => i.private = item.opt_str()?,
                "dependencies" => i.dependencies = cx.strings(item)?,
                "create_before_destroy" => i.create_before_destroy = item.opt_bool()?,
                _ => {}
            }
            Ok(())
        })?;
        Ok(i)
    }
}

/// A legacy raw state file, version 3 (Terraform 0.9 to 0.11).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct LegacyState<'a> {
    /// `version` (always 3 here), `terraform_version`, `serial` and `lineage`.
    pub header: StateHeader<'a>,
    /// `modules`, in document order.
    pub modules: &'a [LegacyModule<'a>],
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// A module of a version 3 state.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct LegacyModule<'a> {
    /// `path`: `["root"]`, `["root", "network"]`, ...
    pub path: &'a [&'a str],
    /// `outputs`, as written.
    pub outputs: Option<Json<'a>>,
    /// `resources`: by their state key (`aws_instance.web`, `aws_instance.web.1`,
    /// `data.aws_ami.ubuntu`), in document order.
    pub resources: &'a [LegacyResource<'a>],
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// A resource of a version 3 state.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct LegacyResource<'a> {
    /// The key in the module's `resources` object.
    pub key: &'a str,
    /// `type`.
    pub type_name: Option<&'a str>,
    /// `provider`, e.g. `provider.aws`.
    pub provider: Option<&'a str>,
    /// `primary`: the current object (`id`, flatmap `attributes`, `meta`, `tainted`).
    pub primary: Option<Json<'a>>,
    /// `deposed`: deposed objects.
    pub deposed: Option<Json<'a>>,
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> LegacyState<'a> {
    pub(crate) fn build(cx: &Cx<'a>, v: Json<'a>, version: u64) -> Result<LegacyState<'a>> {
        let mut s = LegacyState {
            header: StateHeader::new(version),
            modules: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            if !s.header.read(k, item)? && k == "modules" {
                s.modules = cx.list(item, LegacyModule::build)?;
            }
            Ok(())
        })?;
        Ok(s)
    }

    /// The address of every resource instance, in document order, in today's syntax
    /// (`module.network.aws_subnet.a[1]`).
    pub fn addresses(&self) -> impl Iterator<Item = String> + use<'a> {
        self.modules
            .iter()
            .flat_map(|m| m.resources.iter().map(move |r| r.address(m.path)))
    }
}

impl<'a> LegacyModule<'a> {
    fn build(cx: &Cx<'a>, v: Json<'a>) -> Result<LegacyModule<'a>> {
        let mut m = LegacyModule {
            path: &[],
            outputs: None,
            resources: &[],
            raw: v,
        };
        cx.members(v, |k, item| {
            match k {
                "path" => m.path = cx.strings(item)?,
                "outputs" => m.outputs = item.opt(),
                "resources" => {
                    m.resources = cx.named(item, |cx, key, r| {
                        let mut res = LegacyResource {
                            key,
                            type_name: None,
                            provider: None,
                            primary: None,
                            deposed: None,
                            raw: r,
                        };
                        cx.members(r, |k, v| {
                            match k {
                                "type" => res.type_name = v.opt_str()?,
                                "provider" => res.provider = v.opt_str()?,
                                "primary" => res.primary = v.opt(),
                                "deposed" => res.deposed = v.opt(),
                                _ => {}
                            }
                            Ok(())
                        })?;
                        Ok(res)
                    })?
                }
                _ => {}
            }
            Ok(())
        })?;
        Ok(m)
    }
}

impl LegacyResource<'_> {
    /// The instance address in today's syntax, given the module's `path`: the state key
    /// `aws_instance.web.1` in module `["root","net"]` is `module.net.aws_instance.web[1]`.
    pub fn address(&self, module_path: &[&str]) -> String {
        let mut s = String::new();
        for m in module_path.iter().skip(1) {
            s.push_str("module.");
            s.push_str(m);
            s.push('.');
        }
        let (prefix, rest) = match self.key.strip_prefix("data.") {
            Some(rest) => ("data.", rest),
            None => ("", self.key),
        };
        s.push_str(prefix);
        let mut parts = rest.splitn(3, '.');
        let (ty, name, index) = (parts.next(), parts.next(), parts.next());
        match (ty, name, index) {
            (Some(ty), Some(name), Some(ix)) if ix.bytes().all(|b| b.is_ascii_digit()) => {
                s.push_str(ty);
                s.push('.');
                s.push_str(name);
                s.push('[');
                s.push_str(ix);
                s.push(']');
            }
            _ => s.push_str(rest),
        }
        s
    }
}

/// Reads `version` of a raw state and checks it.
pub(crate) fn state_version(v: Json<'_>) -> Result<u64> {
    let n = v.opt_u64()?.unwrap_or(0);
    match n {
        3 | 4 => Ok(n),
        _ => Err(Error::new(ErrorKind::UnsupportedVersion {
            property: "version",
            found: v.to_string(),
            supported: "raw state files of version 3 and 4",
        })
        .with_offset(v.offset())),
    }
}
