//! Reads OpenTofu and Terraform binary plan files — what `tofu plan -out=FILE` and
//! `terraform plan -out=FILE` write, each in its own dialect of the format — without either
//! client, a working directory or provider plugins.
//!
//! ```
//! use tfwire_planfile::Planfile;
//!
//! let bytes = std::fs::read("../../corpus/planfiles/changes/plan.tfplan")?;
//! let planfile = Planfile::read(&bytes)?;
//!
//! // The plan as `tofu show -json` prints it (here without the provider schemas: see
//! // below for what they add) ...
//! let mut json = planfile.to_json(None)?.into_bytes();
//!
//! // ... read by tfwire-plan into the same model as any JSON plan.
//! let tape = tfwire_plan::Parser::new().parse(&mut json)?;
//! let arena = bumpalo::Bump::new();
//! let summary = tfwire_plan::Summary::of(tape.plan(&arena)?);
//! assert_eq!(summary.counts.get("replace"), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Why the JSON document, and why a crate of its own
//!
//! tfwire-plan's model (`tfwire_plan::Plan`) is a typed view over a parsed JSON tape:
//! every object keeps its `raw` JSON, and every view, filter, summary and diff works on
//! those JSON values. The planfile is therefore turned into the document OpenTofu's own
//! `tofu show -json` would print for it (same fields, same order of resource changes, same
//! `after_unknown` and sensitivity trees, built as OpenTofu's `jsonplan` builds them), and
//! parsed by tfwire-plan like any other plan: one model, no second code path that could
//! drift from the first, and no change to tfwire-plan. Writing and re-parsing the JSON
//! costs a fraction of the ZIP inflate and protobuf decode (see `benches/README.md`).
//!
//! A separate crate keeps the ZIP reader, its inflater and the protobuf runtime out of
//! tfwire-plan's dependencies: a program that reads only JSON plans does not build them.
//!
//! # What is read
//!
//! A plan file is a ZIP archive: `tfplan` (a protobuf `Plan` message, format
//! [`FORMAT_VERSION`]), `tfstate` and `tfstate-prev` (the prior state, and the state before
//! refresh, as raw `.tfstate` JSON: [`Planfile::state`]), `.terraform.lock.hcl` and the
//! configuration snapshot under `tfconfig/`. OpenTofu and Terraform write the same members
//! and the same format version, but two dialects of `tfplan` that give some field numbers
//! different meanings; [`Planfile::dialect`] tells which from the file itself ([`Dialect`]
//! has the rule and where it can be wrong). OpenTofu's is decoded with OpenTofu v1.12.6's
//! `planfile.proto` (in `proto/`, MPL-2.0), Terraform's with tfwire's own description of
//! it, `proto/terraform.proto`, both compiled at build time by protox and prost-build (pure
//! Rust: no `protoc`). A Terraform plan is read into the same types ([`Planfile::plan`]),
//! with Terraform's own fields (deferred changes, action invocations, provider-function
//! results, apply-time variables, the state store) in [`Planfile::terraform`].
//!
//! Values inside are `DynamicValue` MessagePack, decoded by `tfwire`: outputs and variables
//! as `dynamic` (always), resource values with the provider schemas when they are given.
//!
//! # What the document holds, with and without schemas
//!
//! With the provider schemas, the document's `resource_changes`, `resource_drift`,
//! `output_changes`, `variables` (those the plan set), `relevant_attributes`, `checks`,
//! `terraform_version`, `timestamp` and `errored` equal `tofu show -json`'s (the tests
//! compare them on every plan of the corpus, real providers included). A resource whose
//! schema is missing is an error naming the provider.
//!
//! Without schemas, resource values are decoded with the type their structure implies
//! (values at `dynamic` positions are recognised by their type header), which gives the
//! same JSON with two exceptions: a number go-cty sent as a string (one no 64-bit integer
//! or binary64 holds) reads as that string, and the sensitivity trees hold only the paths
//! the plan file records, **which need not include the attributes the provider schema
//! declares sensitive**: read values for display with the schemas. Everything a summary
//! needs is exact either way.
//!
//! Both clients write a change's `before_identity`/`after_identity` and an import's
//! `identity`, each by its own rule: with the schemas they are decoded with the resource
//! type's identity schema ([`tfwire::schema::ProgramCache::identity`]); a type without one
//! gets `"importing": {}` and identities of their implied type from OpenTofu, no
//! identities and an error for an import by identity from Terraform. OpenTofu leaves a
//! null identity out.
//!
//! For a Terraform plan the document also has what `terraform show -json` adds:
//! `applyable` and `complete`, `deferred_changes` (each `{"reason", "resource_change"}`,
//! `index_unknown` for an instance key not known yet), `action_invocations` and
//! `deferred_action_invocations`, an import's `unknown`, and the actions
//! `["create","forget"]`. With the schemas an action's configuration is decoded with the
//! action type's schema, and `config_sensitive` adds the attributes it declares sensitive
//! to the paths the plan records; an action type missing from them is an error, as in
//! Terraform.
//!
//! Without schemas, identities and action configurations are decoded, like resource
//! values, with the type their MessagePack implies: a number go-cty sent as a string (a
//! `ratio = 0.001`, which no binary64 holds exactly) reads as that string, and an action's
//! `config_sensitive` holds only the paths the plan records. `terraform show -json` always
//! has the schemas: compare with it, or render for display, with them.
//!
//! [`Planfile::to_json`] always leaves out what needs the configuration (HCL) or the
//! state decoded with schemas: `configuration`, `planned_values`, `prior_state` and the
//! defaults of variables the plan did not set.
//!
//! # The client's whole document
//!
//! [`Planfile::show_json`] writes the whole document the client's `show -json PLANFILE`
//! writes, byte for byte and in the client's member order, from the plan file and the
//! provider schemas: `planned_values` (the changes' after values, as `jsonplan` builds
//! them), `prior_state` (the `tfstate` member through [`tfwire_plan::write_state_json`]),
//! `configuration` and the root variables' defaults (the `tfconfig/` snapshot,
//! [`Planfile::config_snapshot`], through `tfwire_config`), strings escaped as Go's
//! `encoding/json` escapes them. The tests compare it member by member with `plan.json` of
//! every scenario of both real-client corpora.
//!
//! # What protects the caller
//!
//! Members are inflated with a limit ([`Config::max_inflated_bytes`], 512 MiB in total by
//! default; the CLI sets it to its `--max-input-bytes`, 256 MiB by default): a declared size above it is refused before anything is reserved, and the
//! inflated bytes are counted too (a hostile archive may declare less than it holds), so
//! memory stays within the limit plus the file whatever the archive claims. Only stored and
//! deflate members are read. Values are decoded by tfwire with its default limits. Every
//! failure is an [`Error`] whose one-line message says what the file is and what to do:
//! an OpenTofu encrypted plan, a pre-0.12 plan, a ZIP that is not a plan, another format
//! version, a damaged archive. No `unsafe` code.
//!
//! The `tfplan` member is then charged against [`Config::max_nodes`] (2^26 nodes of 8 bytes
//! by default, 512 MiB) in one pass over its protobuf wire format before prost decodes it:
//! its own bytes, and the memory every message, repeated entry, map entry and string it
//! holds will take once decoded (in the dialect it is written in: Terraform's deferred
//! changes, action invocations and function results are counted as OpenTofu's lists are);
//! a few kilobytes of deflated protobuf holding millions of
//! empty entries are refused ([`ErrorKind::TooManyNodes`]) before anything is allocated
//! for them. [`Planfile::to_json`] writes at most [`Config::max_inflated_bytes`] of JSON
//! ([`ErrorKind::DocumentTooLarge`]), and decodes one change's values at a time.

#![forbid(unsafe_code)]

mod address;
mod budget;
mod container;
mod dialect;
mod document;
mod error;
mod parallel;
mod relevant;
mod show;
mod whole;

pub use container::looks_encrypted;
pub use dialect::{DeferredChange, Dialect, TerraformPlan};
pub use error::{Error, ErrorKind};
pub use whole::ShowJson;

/// Writes a wholly known value as `show -json` writes it: go-cty's JSON
/// (`ctyjson.Marshal`), a value at a `dynamic` position written as its own value (the
/// clients marshal values with their concrete types). For callers that decoded a plan or
/// state value typed and need its `show -json` text (the CLI's renderer draws a typed
/// number with the text written here). [`tfwire_plan::ctyjson`] has the writer's other
/// trees.
///
/// ```
/// use tfwire::{Config, Decoder, Program, Type};
/// let ty: Type = r#"["object",{"id":"string","n":"number"}]"#.parse()?;
/// let program = Program::compile(&ty);
/// let mut decoder = Decoder::new(Config::default());
/// let arena = tfwire::bumpalo::Bump::new();
/// let value = decoder.decode_json(&program, br#"{"id":"a","n":1.50}"#, &arena)?;
/// let mut out = String::new();
/// tfwire_planfile::write_show_json(&mut out, value)?;
/// assert_eq!(out, r#"{"id":"a","n":1.5}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Invalid`] for a value that is not wholly known, or a number go-cty cannot
/// write.
pub fn write_show_json(out: &mut String, v: tfwire::Value<'_>) -> Result<(), Error> {
    tfwire_plan::ctyjson::write_known(&mut tfwire_plan::ctyjson::writer(out), v)?;
    Ok(())
}

/// The generated protobuf types of the `tfplan` member: OpenTofu's dialect (from OpenTofu
/// v1.12.6's `planfile.proto`, with tfwire's additions: Terraform's `applyable` and
/// `complete`, and [`Importing::unknown`](proto::Importing::unknown)), and Terraform's in
/// [`proto::terraform`].
#[allow(missing_docs, unreachable_pub, clippy::all, clippy::pedantic)]
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/tfplan.rs"));

    /// Terraform's dialect (`proto/terraform.proto`, tfwire's description of what
    /// Terraform v1.16.0 writes): the messages whose wire form differs from OpenTofu's, and
    /// those only Terraform has.
    pub mod terraform {
        include!(concat!(env!("OUT_DIR"), "/tfplan.terraform.rs"));
    }
}

/// The `tfplan` format version this crate reads (OpenTofu 1.x writes 3).
pub const FORMAT_VERSION: u64 = 3;

/// The `format_version` of the JSON document [`Planfile::to_json`] writes (OpenTofu's).
pub const JSON_FORMAT_VERSION: &str = "1.2";

/// Limits for [`Planfile::read_with`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The most bytes the members read (`tfplan`, `tfstate`, `tfstate-prev`,
    /// `.terraform.lock.hcl`, the files under `tfconfig/`) may inflate to, together. Default 512 MiB: the largest real
    /// plans are tens of megabytes.
    pub max_inflated_bytes: u64,
    /// The most nodes of 8 bytes the `tfplan` member and the message it decodes to may take
    /// together (the member's bytes; the decoded messages, the entries of their repeated
    /// fields and maps, their strings), counted in one pass over the protobuf wire format
    /// before anything is decoded. Default 2^26, one node per 8 bytes of the default
    /// `max_inflated_bytes`, the rule of the JSON plan reader's `max_nodes` (the CLI sets
    /// both to its `--max-input-bytes` / 8): the member and the decoded plan take at most
    /// `8 × max_nodes` bytes (512 MiB by default).
    pub max_nodes: usize,
}

impl Config {
    /// With `max_inflated_bytes`.
    pub fn max_inflated_bytes(mut self, n: u64) -> Config {
        self.max_inflated_bytes = n;
        self
    }

    /// With `max_nodes`.
    pub fn max_nodes(mut self, n: usize) -> Config {
        self.max_nodes = n;
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_inflated_bytes: 512 << 20,
            max_nodes: 1 << 26,
        }
    }
}

/// The members of the archive, inflated.
pub(crate) struct Members {
    pub(crate) tfplan: Vec<u8>,
    pub(crate) state: Option<Vec<u8>>,
    pub(crate) prev_state: Option<Vec<u8>>,
    pub(crate) lock_file: Option<Vec<u8>>,
    pub(crate) config_files: Vec<String>,
    /// The files of the configuration snapshot: (name relative to `tfconfig/`, bytes).
    pub(crate) config: Vec<(String, Vec<u8>)>,
}

/// A plan file, read: the decoded `tfplan` message and the other members.
#[derive(Debug)]
pub struct Planfile {
    /// The `tfplan` message, in OpenTofu's types whichever client wrote it. A Terraform
    /// plan ([`Planfile::dialect`]) fills the fields both dialects share, keeps its own in
    /// [`Planfile::terraform`], and keeps two things in its own terms: a change's `action`
    /// 9 is Terraform's create-then-forget (OpenTofu's number for it is 10, as
    /// forget-then-create), and [`proto::Importing::unknown`] is its flag.
    pub plan: proto::Plan,
    dialect: Dialect,
    terraform: Option<TerraformPlan>,
    state: Option<Vec<u8>>,
    prev_state: Option<Vec<u8>>,
    lock_file: Option<Vec<u8>>,
    config_files: Vec<String>,
    config: Vec<(String, Vec<u8>)>,
    tfplan_len: usize,
    max_document_bytes: u64,
}

/// Whether `bytes` is a ZIP archive (a plan file, or another archive): what readers of
/// several formats sniff before choosing one.
pub fn is_zip(bytes: &[u8]) -> bool {
    container::is_zip(bytes)
}

impl Planfile {
    /// Reads a plan file with the default [`Config`].
    ///
    /// # Errors
    ///
    /// See [`Planfile::read_with`].
    pub fn read(bytes: &[u8]) -> Result<Planfile, Error> {
        Planfile::read_with(bytes, &Config::default())
    }

    /// Reads a plan file.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Legacy`], [`ErrorKind::Encrypted`] or [`ErrorKind::NotAPlanfile`] for a
    /// file that is not a ZIP archive; [`ErrorKind::NotAPlan`] for an archive without a
    /// `tfplan` member; [`ErrorKind::Zip`] or [`ErrorKind::TooLarge`] for a damaged or
    /// hostile archive; [`ErrorKind::Protobuf`] and [`ErrorKind::UnsupportedVersion`] for a
    /// `tfplan` member that is not a version 3 plan.
    pub fn read_with(bytes: &[u8], config: &Config) -> Result<Planfile, Error> {
        if !container::is_zip(bytes) {
            return Err(container::not_a_zip(bytes));
        }
        let members = container::read(bytes, config)?;
        let dialect = dialect::detect(&members.tfplan, members.state.as_deref());
        let protobuf = |e: prost::DecodeError| {
            Error::new(ErrorKind::Protobuf(match dialect {
                Dialect::OpenTofu => e.to_string(),
                Dialect::Terraform => format!("{e} (read as a Terraform plan)"),
            }))
        };
        let (plan, terraform) = match dialect {
            Dialect::OpenTofu => {
                budget::check(&members.tfplan, budget::PLAN, config.max_nodes)?;
                let plan = <proto::Plan as prost::Message>::decode(&members.tfplan[..])
                    .map_err(protobuf)?;
                (plan, None)
            }
            Dialect::Terraform => {
                budget::check(&members.tfplan, budget::TERRAFORM_PLAN, config.max_nodes)?;
                let plan = <proto::terraform::Plan as prost::Message>::decode(&members.tfplan[..])
                    .map_err(protobuf)?;
                let (plan, extra) = dialect::split(plan)?;
                (plan, Some(extra))
            }
        };
        if plan.version != FORMAT_VERSION {
            return Err(Error::new(ErrorKind::UnsupportedVersion(plan.version)));
        }
        Ok(Planfile {
            plan,
            dialect,
            terraform,
            state: members.state,
            prev_state: members.prev_state,
            lock_file: members.lock_file,
            config_files: members.config_files,
            config: members.config,
            tfplan_len: members.tfplan.len(),
            max_document_bytes: config.max_inflated_bytes,
        })
    }

    /// The plan as the JSON document `tofu show -json` prints for it (see the crate
    /// documentation for what it lacks), ready for `tfwire_plan::Parser`. With `schemas`,
    /// resource changes carry their values, decoded with their provider's schema.
    ///
    /// # Errors
    ///
    /// A value that does not decode (with the resource address and which value), an
    /// invalid field (unknown action, malformed address), or — with `schemas` — a resource
    /// whose schema is not among them ([`ErrorKind::MissingSchema`], naming the provider).
    pub fn to_json(&self, schemas: Option<&tfwire::schema::ProgramCache>) -> Result<String, Error> {
        document::document(self, schemas, document::Form::Tfwire)
    }

    /// The whole document `tofu show -json PLANFILE` or `terraform show -json PLANFILE`
    /// writes for this plan file (the client that wrote it: [`Planfile::dialect`]), byte for
    /// byte, every member in the client's order: `format_version`, `terraform_version`,
    /// `variables` (with the defaults of the root variables the plan did not set),
    /// `planned_values`, `resource_drift`, `resource_changes`, Terraform's
    /// `deferred_changes` and action invocations, `output_changes`, `prior_state` (the
    /// `tfstate` member, through [`tfwire_plan::write_state_json`]), `configuration` (the
    /// configuration snapshot, through `tfwire_config`), `relevant_attributes`, `checks`,
    /// `timestamp`, Terraform's `applyable` and `complete`, `errored`. Strings are escaped
    /// as Go's `encoding/json` escapes them. Built from the plan file and `schemas` alone
    /// (the providers' `providers schema -json`): no client, no provider.
    ///
    /// ```
    /// use tfwire::schema::{ProgramCache, ProviderSchemas};
    /// let dir = "../../corpus/real-client/outputs";
    /// let planfile = tfwire_planfile::Planfile::read(&std::fs::read(format!("{dir}/plan.tfplan"))?)?;
    /// let schemas = ProgramCache::new(ProviderSchemas::from_json(&std::fs::read(format!("{dir}/schemas.json"))?)?);
    /// // Without the configuration snapshot's members (see `ShowJson`):
    /// let options = tfwire_planfile::ShowJson::default().configuration(false);
    /// let doc = planfile.show_json_with(&schemas, &options)?;
    /// assert!(doc.starts_with(r#"{"format_version":"1.2","terraform_version":"1.12.6","planned_values":{"outputs":{"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Planfile::to_json`]; also a state member or configuration snapshot that does
    /// not read, a resource type the schemas lack, a state whose schema version differs
    /// from the schemas' (as the clients refuse it), a document larger than
    /// [`Config::max_inflated_bytes`] ([`ErrorKind::DocumentTooLarge`]).
    pub fn show_json(&self, schemas: &tfwire::schema::ProgramCache) -> Result<String, Error> {
        self.show_json_with(schemas, &ShowJson::default())
    }

    /// [`Planfile::show_json`] with options: [`ShowJson::configuration`] leaves out what
    /// the configuration snapshot gives.
    ///
    /// # Errors
    ///
    /// As [`Planfile::show_json`].
    pub fn show_json_with(
        &self,
        schemas: &tfwire::schema::ProgramCache,
        options: &ShowJson,
    ) -> Result<String, Error> {
        document::document(
            self,
            Some(schemas),
            document::Form::Show {
                schemas,
                options: *options,
            },
        )
    }

    /// Which client's dialect the plan file is written in, told from the file itself (see
    /// [`Dialect`] for the rule and where it can be wrong).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Terraform's own fields (deferred changes, action invocations, function results,
    /// ...) of a plan in Terraform's dialect; `None` for OpenTofu's.
    pub fn terraform(&self) -> Option<&TerraformPlan> {
        self.terraform.as_ref()
    }

    /// The `tfstate` member: the prior state as a raw `.tfstate` JSON document (read it
    /// with `tfwire_plan::Parser`); `None` if the archive has none.
    pub fn state(&self) -> Option<&[u8]> {
        self.state.as_deref()
    }

    /// The `tfstate` member, taken out of the plan file (no copy: a state of hundreds of
    /// megabytes is not held twice). Its capacity leaves `tfwire_plan::INPUT_PADDING`
    /// bytes spare, so that `tfwire_plan::Parser` pads it in place.
    pub fn take_state(&mut self) -> Option<Vec<u8>> {
        self.state.take()
    }

    /// The `tfstate-prev` member: the state before refresh.
    pub fn prev_state(&self) -> Option<&[u8]> {
        self.prev_state.as_deref()
    }

    /// The `.terraform.lock.hcl` member.
    pub fn lock_file(&self) -> Option<&[u8]> {
        self.lock_file.as_deref()
    }

    /// The names of the configuration snapshot's members (under `tfconfig/`).
    pub fn config_files(&self) -> &[String] {
        &self.config_files
    }

    /// The files of the configuration snapshot, for `tfwire_config::Configuration::read`:
    /// each member under `tfconfig/` (directories aside) with its name relative to it
    /// (`modules.json`, `m-/main.tf`, `m-child/x.tf`), inflated within
    /// [`Config::max_inflated_bytes`] together with the other members.
    ///
    /// ```
    /// let bytes = std::fs::read("../../corpus/real-client/create/plan.tfplan")?;
    /// let planfile = tfwire_planfile::Planfile::read(&bytes)?;
    /// let files = planfile.config_snapshot();
    /// assert!(files.iter().any(|(name, _)| *name == "modules.json"));
    /// assert!(files.iter().any(|(name, text)| *name == "m-/main.tf" && !text.is_empty()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn config_snapshot(&self) -> Vec<(&str, &[u8])> {
        self.config
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect()
    }
}
