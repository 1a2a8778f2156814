//! `tfwire`: decode, encode and inspect the values Terraform and OpenTofu exchange.
//!
//! Exit codes: 0 success, 1 the input was rejected, 2 usage error.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod decode;
mod encode;
mod input;
mod output;
mod plan;
mod schema;
mod state;

/// Decode, encode and inspect Terraform/OpenTofu wire values (DynamicValue MessagePack and
/// JSON), plans and states.
#[derive(Parser)]
#[command(name = "tfwire", version, about, long_about = None, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXIT_CODES: &str = "Exit codes: 0 success, 1 input rejected, 2 usage error.";

#[derive(Subcommand)]
enum Command {
    Decode(decode::Args),
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
