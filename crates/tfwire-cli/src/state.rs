//! `tfwire state`: read states (`terraform show -json`) and raw `.tfstate` files.

use crate::failure::Failure;
use crate::mask::MaskArgs;
use crate::plan::Wording;
use crate::{input, output, suggest};
use clap::Subcommand;
use std::fmt::Write as _;
use tfwire::TypedJson as _;
use tfwire::mask::Masks;
use tfwire::schema::{Kind, ProgramCache};
use tfwire_plan::{Document, Parser, RawInstance, RawResource};
use tfwire_render::escape::{Inline, quote};
use tfwire_render::state::{Dialect, Node, Resource, render_flat, render_resource};

/// Read states: `terraform show -json` output and raw .tfstate files (versions 3 and 4),
/// told apart automatically, and the prior state inside a binary plan file.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire state list terraform.tfstate\n  \
    tfwire state show terraform.tfstate 'aws_instance.web[0]'\n\n\
    Exit codes: 0 success, 1 input rejected (or address not found), 2 usage error.")]
pub(crate) struct Args {
    #[command(subcommand)]
    command: StateCommand,
}

#[derive(Subcommand)]
enum StateCommand {
    List(ListArgs),
    Show(ShowArgs),
}

/// Print the address of every resource instance, one a line (like `terraform state list`).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire state list terraform.tfstate\n  \
    terraform show -json | tfwire state list -\n  \
    tfwire state list terraform.tfstate.gz\n  \
    tfwire state list terraform.tfstate module.network aws_instance.web\n\n\
    tfwire state list plan.tfplan\n\n\
    Exit codes: 0 success, 1 input rejected, 2 usage error.")]
struct ListArgs {
    /// Accepted as every command takes them, and checked; `state list` prints addresses only
    /// (instance keys are addresses, not attribute values), so no mask changes its output.
    #[command(flatten)]
    masks: MaskArgs,
    /// The state file: `show -json` output, a raw .tfstate, or a binary plan file (its
    /// prior state) (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "STATE")]
    file: String,
    /// Only these addresses, as `terraform state list ADDRESS` takes them: an instance, a
    /// resource (all its instances), or a module (everything in it); `*` and `?` glob.
    #[arg(value_name = "ADDRESS")]
    addresses: Vec<String>,
}

/// Whether `address` is selected by `filter` (see [`ListArgs::addresses`]).
fn selected(filter: &str, address: &str) -> bool {
    if filter.contains(['*', '?']) {
        return tfwire_plan::Glob::new(filter).matches(address);
    }
    address == filter
        || address
            .strip_prefix(filter)
            .is_some_and(|rest| rest.starts_with('[') || rest.starts_with('.'))
}

/// Print one resource instance's attributes (like `terraform state show`).
///
/// Sensitive values (`sensitive_values` of a `show -json` state, `sensitive_attributes`
/// of a raw state) are printed as `(sensitive value)`; markers tfwire cannot read hide the
/// whole value they cover. Attributes that are null (or, at the top level, the empty
/// string) and null members of nested objects are left out, as `tofu state show` leaves
/// them out (without a schema a map looks like an object: its null entries are left out
/// too). Without --schemas the resource is drawn as with them, with a schema typed from its
/// values: attributes sorted by name, multi-line strings as heredocs, numbers as go-cty
/// writes them (`-0.00000015`), nested blocks as lists of objects; values that are not an
/// object are an error. Only the instance's current object is printed, as `tofu state show` and
/// `terraform state show` print it; --deposed prints its deposed objects after it too (an
/// instance with no current object is an error without it, as in both clients).
///
/// With --schemas, the resource is drawn as `tofu state show` draws it with the provider
/// schema: nested blocks as blocks (`block {`), maps as maps (keys quoted), lists and sets
/// of objects as OpenTofu lays them out, a raw state's values at `dynamic` positions
/// unwrapped as `show -json` writes them); the values are first decoded with the schema
/// (a value that does not conform is an error naming its path and byte). Every attribute
/// the schema marks sensitive is printed as `(sensitive value)`, whatever the document's
/// own markers say (they may leave one out: tfwire fails closed). A resource whose type
/// the schemas lack is an error: without its schema tfwire cannot know what is sensitive.
/// A version 3 state (flat attributes) is printed as without --schemas.
///
/// The drawing follows OpenTofu's rules or Terraform's (`--wording`): they differ where a
/// schema of the legacy plugin SDK holds an empty string inside a collection (Terraform
/// shows it as `null`) and for a string that starts with JSON and goes on (OpenTofu draws
/// the JSON alone). `auto` takes a raw state whose instances record
/// `identity_schema_version` (Terraform writes it since v1.12, OpenTofu v1.12 does not) as
/// Terraform's, and any other as OpenTofu's (a `show -json` state does not tell).
///
/// Limits of the drawing: `=` signs align on names up to 128 characters (a longer name is
/// written unpadded); values nest at most 32 levels deep, deeper ones are drawn `# (nested
/// deeper than 32 levels, not shown)`.
/// Values the masks match (see the Masks options) are printed as `(sensitive value)` too,
/// flat attributes included.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire state show terraform.tfstate aws_instance.web\n  \
    tfwire state show --schemas schemas.json state.json aws_instance.web\n  \
    tfwire state show terraform.tfstate 'module.net.aws_subnet.this[\"a\"]'\n  \
    terraform show -json | tfwire state show - data.aws_ami.ubuntu\n\n\
    Exit codes: 0 success, 1 input rejected or no such address (near matches are\n\
    suggested), 2 usage error.")]
struct ShowArgs {
    #[command(flatten)]
    masks: MaskArgs,
    /// The state file: `show -json` output, a raw .tfstate, or a binary plan file (its
    /// prior state) (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "STATE")]
    file: String,
    /// The resource instance address, as `state list` prints it.
    #[arg(value_name = "ADDRESS")]
    address: String,
    /// Provider schemas (`tofu providers schema -json`, or a cache of them: `tfwire schema add`): draw the resource with its
    /// schema, as `tofu state show` does (see above). The instance's `identity` is checked
    /// against the type's identity schema too (of the `identity_schema_version` it names).
    #[arg(long, value_name = "FILE|DIR")]
    schemas: Option<String>,
    #[command(flatten)]
    lock_file: crate::schema::LockFileArg,
    /// Whose drawing rules to follow with --schemas (see above).
    #[arg(long, value_enum, default_value_t = Wording::Auto)]
    wording: Wording,
    /// Print the instance's deposed objects (create-before-destroy replacements not yet
    /// destroyed) after its current object; neither client prints them.
    #[arg(long)]
    deposed: bool,
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    match args.command {
        StateCommand::List(a) => list(a, limits),
        StateCommand::Show(a) => show(a, limits),
    }
}

fn not_a_state(name: &str) -> Failure {
    Failure::Input(format!(
        "{}: expected a state (terraform show -json) or a raw state file (.tfstate), \
         but this is a plan",
        Inline(name)
    ))
}

fn list(args: ListArgs, limits: input::Limits) -> Result<(), Failure> {
    args.masks.masks()?;
    let name = input::display_name(&args.file).to_string();
    input::with_document(limits, &args.file, input::Want::State, |doc| {
        let mut addresses = addresses(&doc).ok_or_else(|| not_a_state(&name))?;
        if !args.addresses.is_empty() {
            addresses.retain(|a| args.addresses.iter().any(|f| selected(f, a)));
        }
        let mut text = String::new();
        for a in &addresses {
            let _ = writeln!(text, "{}", Inline(a));
        }
        output::human(&text, false)
    })
}

/// The state's addresses in `state list` order.
fn addresses(doc: &Document<'_>) -> Option<Vec<String>> {
    let mut all: Vec<String> = match doc {
        Document::State(s) => s.addresses().map(str::to_string).collect(),
        Document::RawState(s) => s.addresses().map(|a| a.to_string()).collect(),
        Document::LegacyState(s) => s.addresses().collect(),
        Document::Plan(_) => return None,
    };
    tfwire_plan::address::sort_state_list(&mut all);
    Some(all)
}

fn show(args: ShowArgs, limits: input::Limits) -> Result<(), Failure> {
    let masks = args.masks.masks()?;
    let name = input::display_name(&args.file).to_string();
    let versions = args.lock_file.versions(&args.file);
    let cache = crate::schema::cache(limits, args.schemas.as_deref(), versions)?;
    let schemas = cache
        .as_ref()
        .zip(args.schemas.as_deref())
        .map(|(cache, f)| Schemas {
            name: input::display_name(f),
            cache,
        });
    input::with_document(limits, &args.file, input::Want::State, |doc| {
        let terraform_wrote = match doc {
            Document::RawState(s) => s
                .resources
                .iter()
                .flat_map(|r| r.instances)
                .any(|i| i.identity_schema_version.is_some()),
            _ => false,
        };
        let dialect = match args.wording {
            Wording::Terraform => Dialect::Terraform,
            Wording::Auto if terraform_wrote => Dialect::Terraform,
            _ => Dialect::OpenTofu,
        };
        let mut text = String::new();
        // The address as the clients write it, however its keys were escaped.
        let wanted = tfwire_plan::address::canonical(&args.address);
        let is_wanted = |a: &str| tfwire_plan::address::canonical(a) == wanted;
        // Deposed objects at the address, not printed (without --deposed).
        let mut deposed_left = 0;
        match doc {
            Document::Plan(_) => return Err(not_a_state(&name)),
            Document::State(s) => {
                let values = s.values;
                for r in values.iter().flat_map(|v| v.resources()) {
                    if is_wanted(r.address) {
                        if r.deposed_key.is_some() && !args.deposed {
                            deposed_left += 1;
                            continue;
                        }
                        let mut header = format!("# {}:", Inline(r.address));
                        if r.tainted {
                            header.push_str(" (tainted)");
                        }
                        if let Some(d) = r.deposed_key {
                            header =
                                format!("# {}: (deposed object {})", Inline(r.address), Inline(d));
                        }
                        let typed = match &schemas {
                            Some(s) => {
                                let t = s.block(r.provider_name, r.mode, r.type_name, r.address)?;
                                s.check_identity(
                                    r.provider_name,
                                    r.type_name,
                                    r.identity,
                                    r.identity_schema_version,
                                    r.address,
                                    true,
                                )?;
                                Some((s, t))
                            }
                            None => None,
                        };
                        let arena = bumpalo::Bump::new();
                        let (values, schema) = match &typed {
                            Some((s, t)) => (
                                s.decode(&t.program, r.values, &arena, r.address)?,
                                Some(t.block),
                            ),
                            None => (r.values.map(Node::Json), None),
                        };
                        let resource = Resource {
                            mode: r.mode,
                            type_name: r.type_name,
                            name: r.name,
                            values,
                            sensitive: r.sensitive_values,
                        };
                        drawn(
                            &mut text, &header, &resource, schema, &masks, dialect, r.address,
                        )?;
                    }
                }
            }
            Document::RawState(s) => {
                for r in s.resources {
                    for inst in r.instances {
                        if is_wanted(&r.address(inst.index_key).to_string()) {
                            if inst.deposed.is_some() && !args.deposed {
                                deposed_left += 1;
                                continue;
                            }
                            raw_instance(
                                &mut text,
                                r,
                                inst,
                                &wanted,
                                schemas.as_ref(),
                                &masks,
                                dialect,
                            )?;
                        }
                    }
                }
            }
            Document::LegacyState(s) => {
                for m in s.modules {
                    for r in m.resources {
                        if is_wanted(&r.address(m.path)) {
                            legacy(&mut text, &wanted, r, &masks);
                        }
                    }
                }
            }
        }
        if text.is_empty() && deposed_left > 0 {
            return Err(Failure::Input(format!(
                "{}: {} has no current object, only {deposed_left} deposed (--deposed shows them)",
                Inline(&name),
                quote(&args.address),
            )));
        }
        if text.is_empty() {
            let all = addresses(&doc).unwrap_or_default();
            return Err(Failure::Input(format!(
                "{}: no resource instance has the address {}{}",
                Inline(&name),
                quote(&args.address),
                suggest::near(&args.address, &all, "tfwire state list", &args.file)
            )));
        }
        output::human(&text, false)
    })
}

fn raw_instance(
    out: &mut String,
    r: &RawResource<'_>,
    inst: &RawInstance<'_>,
    address: &str,
    schemas: Option<&Schemas<'_>>,
    masks: &Masks,
    dialect: Dialect,
) -> Result<(), Failure> {
    // The sensitive paths become a marker tree like `sensitive_values`, parsed on its own.
    let mut marks = inst.sensitive_marker_json().into_bytes();
    let tape = Parser::new()
        .parse(&mut marks)
        .map_err(|e| Failure::Input(format!("{}: sensitive_attributes: {e}", Inline(address))))?;
    let mut header = format!("# {}:", Inline(address));
    if let Some(d) = inst.deposed {
        let _ = write!(header, " (deposed object {})", Inline(d));
    }
    if let Some(s) = inst.status {
        let _ = write!(header, " ({})", Inline(s));
    }
    if inst.attributes.is_none() && inst.attributes_flat.is_some() {
        // A state upgraded from version 3 that was never rewritten: flatmap attributes.
        let flat = render_flat(r.mode, r.type_name, r.name, inst.attributes_flat, masks);
        push_section(out, &header, &flat);
        return Ok(());
    }
    let typed = match schemas {
        Some(s) => {
            // `provider["registry.opentofu.org/hashicorp/aws"].alias` names the provider.
            let provider = r
                .provider
                .and_then(|p| p.split_once("provider[\"")?.1.split_once("\"]"))
                .map(|(source, _)| source);
            let t = s.block(provider, r.mode, r.type_name, address)?;
            s.check_identity(
                provider,
                r.type_name,
                inst.identity,
                inst.identity_schema_version,
                address,
                false,
            )?;
            Some((s, t))
        }
        None => None,
    };
    let arena = bumpalo::Bump::new();
    let (values, schema) = match &typed {
        Some((s, t)) => {
            // A raw state writes values at `dynamic` positions as go-cty does, wrapped in
            // {"value","type"}; `tofu state show` (like `show -json`) shows the value itself,
            // and the sensitive paths point into it: the decoded value is drawn unwrapped.
            let value = match inst.attributes {
                Some(a) => Some(
                    a.decode_typed(&t.program, &mut tfwire::Decoder::default(), &arena)
                        .map_err(|e| s.nonconforming(address, &e))?,
                ),
                None => None,
            };
            (value.map(Node::Typed), Some(t.block))
        }
        None => (inst.attributes.map(Node::Json), None),
    };
    let resource = Resource {
        mode: r.mode,
        type_name: r.type_name,
        name: r.name,
        values,
        sensitive: Some(tape.root()),
    };
    drawn(out, &header, &resource, schema, masks, dialect, address)
}

/// Writes the `# ADDRESS:` header and the resource as `state show` draws it (with its schema
/// when there is one), after a blank line when it is not the first; values that are not an
/// object are an error naming the `address`.
fn drawn(
    out: &mut String,
    header: &str,
    resource: &Resource<'_>,
    schema: Option<&tfwire::schema::Block>,
    masks: &Masks,
    dialect: Dialect,
    address: &str,
) -> Result<(), Failure> {
    let section = render_resource(resource, schema, masks, dialect)
        .map_err(|e| Failure::Input(format!("{}: {e}", Inline(address))))?;
    push_section(out, header, &section);
    Ok(())
}

/// Writes a header and its section, after a blank line when it is not the first.
fn push_section(out: &mut String, header: &str, section: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, "{header}\n{section}");
}

/// The provider schemas of `--schemas`.
struct Schemas<'s> {
    /// The file's name, for messages.
    name: &'s str,
    cache: &'s ProgramCache,
}

/// A resource type's schema block and its compiled program.
struct TypeSchema<'s> {
    block: &'s tfwire::schema::Block,
    program: std::sync::Arc<tfwire::Program>,
}

impl<'s> Schemas<'s> {
    /// The schema of a resource (or data source) type of `provider` (a source address such
    /// as `registry.opentofu.org/hashicorp/aws`, or a legacy short name).
    fn block(
        &self,
        provider: Option<&str>,
        mode: tfwire_plan::Mode<'_>,
        type_name: &str,
        address: &str,
    ) -> Result<TypeSchema<'s>, Failure> {
        let kind = match mode {
            tfwire_plan::Mode::Managed => Kind::Resource,
            tfwire_plan::Mode::Data => Kind::DataSource,
            tfwire_plan::Mode::Other(m) => {
                return Err(Failure::Input(format!(
                    "{}: mode {} has no schema",
                    Inline(address),
                    quote(m)
                )));
            }
        };
        let no_schema = |e: tfwire::Error| {
            Failure::Input(format!(
                "{}: {}: {e} (without the schema tfwire cannot tell which attributes are sensitive)",
                Inline(self.name),
                Inline(address),
            ))
        };
        let provider = provider.unwrap_or_default();
        let schema = self
            .cache
            .schema(provider, kind, type_name)
            .map_err(no_schema)?;
        let program = self
            .cache
            .get(provider, kind, type_name)
            .map_err(no_schema)?;
        Ok(TypeSchema {
            block: &schema.block,
            program,
        })
    }

    /// Decodes a `show -json` state's `values` with the type's program, in place on the
    /// document's tape (`None` when absent or null): a value that does not conform is an
    /// error.
    fn decode<'a>(
        &self,
        program: &'a tfwire::Program,
        values: Option<tfwire_plan::Json<'a>>,
        arena: &'a bumpalo::Bump,
        address: &str,
    ) -> Result<Option<Node<'a>>, Failure> {
        let Some(v) = values else { return Ok(None) };
        let typed = v
            .typed(program, arena)
            .map_err(|e| self.nonconforming(address, &e))?;
        Ok(typed.map(Node::Typed))
    }

    /// Checks a resource's `identity` (when present and not null) against the type's identity
    /// schema: the schema must exist, be of the version the document names
    /// (`identity_schema_version`), and the value decode with it. `plain_dynamic`: the value
    /// is from a `show -json` state, which writes values at `dynamic` positions as plain JSON.
    fn check_identity(
        &self,
        provider: Option<&str>,
        type_name: &str,
        identity: Option<tfwire_plan::Json<'_>>,
        version: Option<u64>,
        address: &str,
        plain_dynamic: bool,
    ) -> Result<(), Failure> {
        let Some(identity) = identity.filter(|v| !v.is_null()) else {
            return Ok(());
        };
        let fail = |what: String| {
            Failure::Input(format!(
                "{}: {}: identity: {what}",
                Inline(self.name),
                Inline(address)
            ))
        };
        let provider = provider.unwrap_or_default();
        let schema = self
            .cache
            .identity(provider, type_name)
            .map_err(|e| fail(Inline(&e.to_string()).to_string()))?;
        if let Some(v) = version
            && i64::try_from(v).ok() != Some(schema.version)
        {
            return Err(fail(format!(
                "identity_schema_version is {v}, the identity schema is version {}",
                schema.version
            )));
        }
        let program = self
            .cache
            .get(provider, Kind::Identity, type_name)
            .map_err(|e| fail(Inline(&e.to_string()).to_string()))?;
        let arena = bumpalo::Bump::new();
        let config = tfwire::Config::default().plain_dynamic(plain_dynamic);
        identity
            .decode_typed(&program, &mut tfwire::Decoder::new(config), &arena)
            .map_err(|e| {
                fail(format!(
                    "does not conform to the identity schema: {}",
                    Inline(&e.to_string())
                ))
            })?;
        Ok(())
    }

    #[cold]
    fn nonconforming(&self, address: &str, e: &tfwire::Error) -> Failure {
        Failure::Input(format!(
            "{}: the values do not conform to the schema in {}: {}",
            Inline(address),
            Inline(self.name),
            Inline(&e.to_string())
        ))
    }
}

fn legacy(out: &mut String, address: &str, r: &tfwire_plan::LegacyResource<'_>, masks: &Masks) {
    let header = format!("# {}: (version 3 state: flat attributes)", Inline(address));
    let (ty, name) = match address.rsplit_once('.') {
        Some((head, name)) => (
            r.type_name
                .unwrap_or_else(|| head.rsplit('.').next().unwrap_or(head)),
            name.split('[').next().unwrap_or(name),
        ),
        None => (r.type_name.unwrap_or(""), address),
    };
    let mode = if address.starts_with("data.") || address.contains(".data.") {
        tfwire_plan::Mode::Data
    } else {
        tfwire_plan::Mode::Managed
    };
    let attributes = r.primary.and_then(|p| p.get("attributes"));
    push_section(
        out,
        &header,
        &render_flat(mode, ty, name, attributes, masks),
    );
}
