//! `tfwire state`: read states (`terraform show -json`) and raw `.tfstate` files.

use crate::Failure;
use crate::{input, output};
use clap::Subcommand;
use tfwire_plan::{Document, DocumentKind, Parser};

/// Read states: `terraform show -json` output and raw `.tfstate` files (versions 3 and 4).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: StateCommand,
}

#[derive(Subcommand)]
enum StateCommand {
    List(ListArgs),
}

/// Print the address of every resource instance, one a line (like `terraform state list`).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  tfwire state list terraform.tfstate\n  \
                        terraform show -json | tfwire state list -")]
struct ListArgs {
    /// The state file: `show -json` output or a raw .tfstate (`-`: standard input).
    #[arg(value_name = "STATE")]
    file: String,
}

pub(crate) fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        StateCommand::List(a) => list(a),
    }
}

fn list(args: ListArgs) -> Result<(), Failure> {
    let name = input::display_name(&args.file);
    let mut bytes = input::read_document(&args.file, tfwire_plan::INPUT_PADDING)?;
    let fail = |e: tfwire_plan::Error| Failure::Input(format!("{name}: {e}"));
    let mut parser = Parser::new();
    let tape = parser.parse(&mut bytes).map_err(fail)?;
    drop(parser);
    let arena = bumpalo::Bump::new();
    let doc = tape.document(&arena).map_err(fail)?;
    output::with_stdout(|out| match doc {
        Document::State(s) => s.addresses().try_for_each(|a| writeln!(out, "{a}")),
        Document::RawState(s) => s.addresses().try_for_each(|a| writeln!(out, "{a}")),
        Document::LegacyState(s) => s.addresses().try_for_each(|a| writeln!(out, "{a}")),
        Document::Plan(_) => Ok(()),
    })?;
    if doc.kind() == DocumentKind::Plan {
        return Err(Failure::Input(format!(
            "{name}: expected a state (terraform show -json) or a raw state file (.tfstate), \
             but this is a plan"
        )));
    }
    Ok(())
}
