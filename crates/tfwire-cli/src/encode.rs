//! `tfwire encode`: a value of a type, from its canonical form (or JSON), to MessagePack.

use crate::failure::Failure;
use crate::{input, output};
use clap::ValueEnum;
use tfwire::{Decoder, Program, Type};

/// Encode one value of a type as MessagePack, as go-cty writes it.
///
/// Reads the value's canonical form (the tagged JSON `tfwire decode` prints) or its JSON
/// (`DynamicValue.json`), writes the MessagePack bytes (`DynamicValue.msgpack`; hex text with
/// `--hex`) and exits 0; on bad input, or a value that does not fit the type, prints
/// `error: <path>: <message>` (with the line and a caret under the column for a syntax
/// error) and exits 1. Gzip-compressed input is inflated; the text may be UTF-16 or carry
/// a byte-order mark.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  echo '[\"list\",[[\"string\",\"a\"],[\"null\"]]]' | tfwire encode --hex --type '[\"list\",\"string\"]'\n  \
                        echo '{\"id\":\"x\"}' | tfwire encode --input json --hex --type '[\"object\",{\"id\":\"string\"}]'\n\n\
                        Exit codes: 0 success, 1 input rejected, 2 usage error."
)]
pub(crate) struct Args {
    /// The type constraint, as type JSON (e.g. '["map","string"]').
    #[arg(long = "type", value_name = "TYPE_JSON")]
    ty: String,
    /// The input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Canonical)]
    input: InputFormat,
    /// Write the MessagePack as lower-case hex text (and a newline) instead of raw bytes.
    #[arg(long)]
    hex: bool,
    /// JSON only: ignore object attributes the type does not declare.
    #[arg(long)]
    lenient: bool,
    /// Input file (`-` or none: standard input).
    file: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum InputFormat {
    /// The canonical form: tagged JSON, as `tfwire decode` prints it.
    Canonical,
    /// JSON (the DynamicValue.json field, RawState.json).
    Json,
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    let ty = Type::from_json(&args.ty)
        .map_err(|e| Failure::Usage(format!("--type: {} (at byte {})", e.kind(), e.offset())))?;
    let program = Program::compile(&ty);
    let name = input::display_name(args.file.as_deref().unwrap_or("-")).to_string();
    let bytes = input::text(input::read(limits, args.file.as_deref())?, &name)?;
    let arena = bumpalo::Bump::new();
    let value = match args.input {
        InputFormat::Canonical => tfwire::canonical::parse(&bytes, &arena),
        InputFormat::Json => Decoder::new(limits.decoder_config().lenient(args.lenient))
            .decode_json(&program, &bytes, &arena),
    }
    .map_err(|e| crate::decode::json_error(&e, &bytes, &name))?;
    let out = tfwire::encode_msgpack(&program, &value).map_err(output::unencodable)?;
    output::msgpack(&out, args.hex)
}
