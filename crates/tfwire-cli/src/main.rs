//! `tfwire`: decode, encode and inspect the values Terraform and OpenTofu exchange.
//!
//! Exit codes: 0 success, 1 the input was rejected, 2 usage error.
//!
//! Limits of the human renderings (`plan show`, `state show`, `plan summary`), which keep
//! their time O(n log n) in the input and their output within a fixed multiple of it:
//! columns align on names up to 128 characters (`escape::ALIGN_MAX`; a longer name is
//! written unpadded); nesting is drawn 32 levels deep (`escape::DEPTH_MAX`; deeper module
//! steps are joined on one line, deeper values drawn as a marker), so a line's indentation
//! is at most about 140 bytes and the output at most about 70 bytes per input byte (a
//! list of one-digit numbers 32 levels deep, two input bytes an element, is the worst
//! case); a list diff runs OpenTofu's LCS on at most 2^24 element pairs after its common
//! prefix and suffix (`tfwire_render::show`), above which the middle is shown
//! removed and added.
//!
//! No `unsafe` code: `#![forbid(unsafe_code)]`.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use failure::Failure;
use std::process::ExitCode;

mod cassette;
mod decode;
mod dump;
mod encode;
mod failure;
mod fleet;
mod input;
mod mask;
mod output;
mod plan;
mod replay;
mod report;
mod schema;
mod show;
mod state;
mod suggest;
mod tap;

/// Decode, encode and inspect Terraform/OpenTofu wire values (DynamicValue MessagePack and
/// JSON), plans and states.
#[derive(Parser)]
#[command(name = "tfwire", version, about, long_about = None, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most bytes an input may hold, after gzip inflation (every command; the
    /// default is 256 MiB). Raise it for larger plans or states. It also bounds the
    /// members of a binary plan file (together, after inflation), the JSON nodes of a
    /// document (one per 8 bytes of it), the decoded `tfplan` of a plan file (with the
    /// member: 8 bytes a node), each file and index of `dump`, and the bytes `dump`
    /// decodes to infer one value's type.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = input::DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: usize,
}

const EXIT_CODES: &str = "Examples:
  tfwire plan summary plan.json
  tfwire plan summary plan.tfplan            (a binary plan file: tofu plan -out)
  tfwire plan summary --format markdown --max-bytes 65536 plan.json
  tfwire plan show plan.json aws_instance.web
  tfwire state list terraform.tfstate
  tfwire state show terraform.tfstate aws_instance.web
  tfwire show -json plan.tfplan --schemas ~/.cache/tfwire/schemas   (as `tofu show -json`)
  echo '82 a1 61 01 a1 62 c0' | tfwire decode --hex --type '[\"map\",\"number\"]'

Every command reads a file or standard input (`-`); gzip-compressed input, UTF-16
text and binary plan files are recognised by their content and read.

Exit codes: 0 success, 1 input rejected (the message says where: path, byte offset,
and for JSON the line with a caret), 2 usage error.";

#[derive(Subcommand)]
enum Command {
    Cassette(cassette::Args),
    Decode(decode::Args),
    Dump(dump::Args),
    Encode(encode::Args),
    /// Write every table of a fleet of states and plans as Parquet (runs `tfwire-fleet
    /// export`; see `tfwire export --help`).
    Export(fleet::Args),
    Plan(plan::Args),
    /// SQL over a fleet of states and plans (runs `tfwire-fleet query`; see `tfwire query
    /// --help`).
    Query(fleet::Args),
    Replay(replay::Args),
    Schema(schema::Args),
    Show(show::Args),
    State(state::Args),
    Tap(tap::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(show::spelling(std::env::args_os()));
    let limits = input::Limits::new(cli.max_input_bytes);
    let result = match cli.command {
        Command::Cassette(args) => cassette::run(args, limits),
        Command::Decode(args) => decode::run(args, limits),
        Command::Dump(args) => dump::run(args, limits),
        Command::Encode(args) => encode::run(args, limits),
        Command::Export(args) => fleet::run("export", args),
        Command::Plan(args) => plan::run(args, limits),
        Command::Query(args) => fleet::run("query", args),
        Command::Replay(args) => replay::run(args, limits),
        Command::Schema(args) => schema::run(args, limits),
        Command::Show(args) => show::run(args, limits),
        Command::State(args) => state::run(args, limits),
        Command::Tap(args) => tap::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            eprintln!("error: {}", tfwire_render::escape::terminal(&msg, false));
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("error: {}", tfwire_render::escape::terminal(&msg, false));
            ExitCode::from(2)
        }
        Err(Failure::Exit(code, msg)) => {
            if let Some(msg) = msg {
                eprintln!("{}", tfwire_render::escape::terminal(&msg, false));
            }
            ExitCode::from(code)
        }
    }
}
