//! `tfwire`: decode, encode and inspect the values Terraform and OpenTofu exchange.
//!
//! Exit codes: 0 success, 1 the input was rejected, 2 usage error.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod decode;
mod dump;
mod encode;
mod input;
mod markdown;
mod output;
mod plan;
mod render;
mod report;
mod schema;
mod state;
mod suggest;

/// Decode, encode and inspect Terraform/OpenTofu wire values (DynamicValue MessagePack and
/// JSON), plans and states.
#[derive(Parser)]
#[command(name = "tfwire", version, about, long_about = None, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXIT_CODES: &str = "Examples:
  tfwire plan summary plan.json
  tfwire plan summary --format markdown --max-bytes 65536 plan.json
  tfwire plan show plan.json aws_instance.web
  tfwire state list terraform.tfstate
  tfwire state show terraform.tfstate aws_instance.web
  echo '82 a1 61 01 a1 62 c0' | tfwire decode --hex --type '[\"map\",\"number\"]'

Every command reads a file or standard input (`-`); gzip-compressed input and UTF-16
text are recognised and read.

Exit codes: 0 success, 1 input rejected (the message says where: path, byte offset,
and for JSON the line with a caret), 2 usage error.";

#[derive(Subcommand)]
enum Command {
    Decode(decode::Args),
    Dump(dump::Args),
    Encode(encode::Args),
    Plan(plan::Args),
    Schema(schema::Args),
    State(state::Args),
}

/// How a command failed.
pub(crate) enum Failure {
    /// The input was rejected (exit 1).
    Input(String),
    /// The command line was wrong (exit 2).
    Usage(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Decode(args) => decode::run(args),
        Command::Dump(args) => dump::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Schema(args) => schema::run(args),
        Command::State(args) => state::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
