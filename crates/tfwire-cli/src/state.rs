//! `tfwire state`: read states (`terraform show -json`) and raw `.tfstate` files.

use crate::escape::{Inline, quote};
use crate::failure::Failure;
use crate::render::{self, Layout};
use crate::{input, output, suggest};
use clap::Subcommand;
use std::fmt::Write as _;
use tfwire_plan::{Diff, Document, Mark, Merged, Parser, RawInstance, RawResource};

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
/// too). Deposed objects of the instance in a raw state are printed after the current one.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    tfwire state show terraform.tfstate aws_instance.web\n  \
    tfwire state show terraform.tfstate 'module.net.aws_subnet.this[\"a\"]'\n  \
    terraform show -json | tfwire state show - data.aws_ami.ubuntu\n\n\
    Exit codes: 0 success, 1 input rejected or no such address (near matches are\n\
    suggested), 2 usage error.")]
struct ShowArgs {
    /// The state file: `show -json` output, a raw .tfstate, or a binary plan file (its
    /// prior state) (`-`: standard input; gzip-compressed input is read too).
    #[arg(value_name = "STATE")]
    file: String,
    /// The resource instance address, as `state list` prints it.
    #[arg(value_name = "ADDRESS")]
    address: String,
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        StateCommand::List(a) => list(a),
        StateCommand::Show(a) => show(a),
    }
}

fn not_a_state(name: &str) -> Failure {
    Failure::Input(format!(
        "{}: expected a state (terraform show -json) or a raw state file (.tfstate), \
         but this is a plan",
        Inline(name)
    ))
}

fn list(args: ListArgs) -> Result<(), Failure> {
    let name = input::display_name(&args.file).to_string();
    input::with_document(&args.file, input::Want::State, |doc| {
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

fn addresses(doc: &Document<'_>) -> Option<Vec<String>> {
    Some(match doc {
        Document::State(s) => s.addresses().map(str::to_string).collect(),
        Document::RawState(s) => s.addresses().map(|a| a.to_string()).collect(),
        Document::LegacyState(s) => s.addresses().collect(),
        Document::Plan(_) => return None,
    })
}

const LAYOUT: Layout = Layout {
    markers: false,
    all: true,
    color: false,
    omit_null: true,
    omit_empty_strings: true,
};

fn show(args: ShowArgs) -> Result<(), Failure> {
    let name = input::display_name(&args.file).to_string();
    input::with_document(&args.file, input::Want::State, |doc| {
        let mut text = String::new();
        match doc {
            Document::Plan(_) => return Err(not_a_state(&name)),
            Document::State(s) => {
                let values = s.values;
                for r in values.iter().flat_map(|v| v.resources()) {
                    if r.address == args.address {
                        let keyword = if r.mode == tfwire_plan::Mode::Data {
                            "data"
                        } else {
                            "resource"
                        };
                        let mut header = format!("# {}:", Inline(r.address));
                        if r.tainted {
                            header.push_str(" (tainted)");
                        }
                        if let Some(d) = r.deposed_key {
                            header =
                                format!("# {}: (deposed object {})", Inline(r.address), Inline(d));
                        }
                        block(&mut text, &header, keyword, r.type_name, r.name, r.view());
                    }
                }
            }
            Document::RawState(s) => {
                for r in s.resources {
                    for inst in r.instances {
                        if r.address(inst.index_key).to_string() == args.address {
                            raw_instance(&mut text, r, inst, &args.address)?;
                        }
                    }
                }
            }
            Document::LegacyState(s) => {
                for m in s.modules {
                    for r in m.resources {
                        if r.address(m.path) == args.address {
                            legacy(&mut text, &args.address, r);
                        }
                    }
                }
            }
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

/// Writes `resource "TYPE" "NAME" { ... }` for a value with its sensitive markers.
fn block(out: &mut String, header: &str, keyword: &str, ty: &str, name: &str, view: Merged<'_>) {
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{keyword} {} {} {{", quote(ty), quote(name));
    let diff = Diff::between(Some(view), Some(view), &[]);
    if diff.children.is_empty() {
        if view.raw_value().is_some_and(|v| !v.is_null()) {
            let _ = writeln!(out, "    # value: {}", render::value_text(Some(view)));
        }
    } else {
        render::body(out, &diff, 4, LAYOUT);
    }
    out.push_str("}\n");
}

fn raw_instance(
    out: &mut String,
    r: &RawResource<'_>,
    inst: &RawInstance<'_>,
    address: &str,
) -> Result<(), Failure> {
    // The sensitive paths become a marker tree like `sensitive_values`, parsed on its own.
    let mut marks = inst.sensitive_marker_json().into_bytes();
    let tape = Parser::new()
        .parse(&mut marks)
        .map_err(|e| Failure::Input(format!("{}: sensitive_attributes: {e}", Inline(address))))?;
    let view = Merged::new(
        inst.attributes,
        Mark::All(false),
        Mark::from_json(Some(tape.root())),
    );
    let mut header = format!("# {}:", Inline(address));
    if let Some(d) = inst.deposed {
        let _ = write!(header, " (deposed object {})", Inline(d));
    }
    if let Some(s) = inst.status {
        let _ = write!(header, " ({})", Inline(s));
    }
    let keyword = if r.mode == tfwire_plan::Mode::Data {
        "data"
    } else {
        "resource"
    };
    if inst.attributes.is_none() && inst.attributes_flat.is_some() {
        // A state upgraded from version 3 that was never rewritten: flatmap attributes.
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{header}\n{keyword} {} {} {{",
            quote(r.type_name),
            quote(r.name)
        );
        flat(out, inst.attributes_flat);
        out.push_str("}\n");
        return Ok(());
    }
    block(out, &header, keyword, r.type_name, r.name, view);
    Ok(())
}

/// Flatmap attributes (`"tags.%" = "1"`), sorted, values as written.
fn flat(out: &mut String, attrs: Option<tfwire_plan::Json<'_>>) {
    let mut pairs: Vec<(String, String)> = attrs
        .and_then(|a| a.as_object())
        .into_iter()
        .flatten()
        .map(|(k, v)| (Inline(k).to_string(), v.to_string()))
        .collect();
    pairs.sort();
    let width = pairs
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    for (k, v) in pairs {
        let _ = writeln!(out, "    {k:width$} = {v}");
    }
}

fn legacy(out: &mut String, address: &str, r: &tfwire_plan::LegacyResource<'_>) {
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "# {}: (version 3 state: flat attributes)",
        Inline(address)
    );
    let (ty, name) = match address.rsplit_once('.') {
        Some((head, name)) => (
            r.type_name
                .unwrap_or_else(|| head.rsplit('.').next().unwrap_or(head)),
            name.split('[').next().unwrap_or(name),
        ),
        None => (r.type_name.unwrap_or(""), address),
    };
    let keyword = if address.starts_with("data.") || address.contains(".data.") {
        "data"
    } else {
        "resource"
    };
    let _ = writeln!(out, "{keyword} {} {} {{", quote(ty), quote(name));
    flat(out, r.primary.and_then(|p| p.get("attributes")));
    out.push_str("}\n");
}
