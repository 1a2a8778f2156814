//! `tfwire cassette redact IN OUT`: a cassette recorded without `--redact`, redacted for
//! sharing.

use crate::Failure;
use crate::input::{self, Limits};
use std::path::PathBuf;
use tfwire_plugin::cassette::{Cassette, redact};

/// Work on cassettes (`tfwire tap --record`).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    Redact(Redact),
}

/// Redact a cassette as `tfwire tap --record --redact` would have: every value the schema
/// marks sensitive or write-only, and every value the masks match, becomes a placeholder of
/// the same type (`"(redacted-N)"`, `N`, `false`; the same secret, the same N), and those
/// strings are overwritten with `*` wherever else they occur. Every session of IN is
/// redacted (a session already redacted is redacted again with these masks too) and written
/// to OUT (`-`: standard output); nothing is written when a session cannot be redacted.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  tfwire cassette redact recorded.jsonl shared.jsonl --mask '*.connection_string'\n\n\
    Exit codes: 0 written, 1 IN is not a cassette or a session could not be redacted (nothing \
    written), 2 usage error."
)]
struct Redact {
    #[command(flatten)]
    masks: crate::mask::MaskArgs,
    /// The cassette to read (`-`: standard input).
    #[arg(value_name = "IN")]
    input: String,
    /// Where to write the redacted cassette (`-`: standard output); created or truncated.
    #[arg(value_name = "OUT")]
    output: PathBuf,
}

pub(crate) fn run(args: Args, limits: Limits) -> Result<(), Failure> {
    let Command::Redact(args) = args.command;
    let masks = args.masks.masks()?;
    let bytes = input::read(limits, Some(&args.input))?;
    let name = input::display_name(&args.input);
    let mut cassette =
        Cassette::read(&bytes).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    for (i, s) in cassette.sessions.iter_mut().enumerate() {
        redact(s, &masks).map_err(|e| Failure::Input(format!("{name}: session {}: {e}", i + 1)))?;
    }
    let mut out = Vec::new();
    cassette
        .write(&mut out)
        .map_err(|e| Failure::Input(format!("writing: {e}")))?;
    if args.output.as_os_str() == "-" {
        // The lines are JSON with every control character escaped: written as they are.
        return crate::output::msgpack(&out, false);
    }
    std::fs::write(&args.output, &out)
        .map_err(|e| Failure::Input(format!("writing {}: {e}", args.output.display())))
}
