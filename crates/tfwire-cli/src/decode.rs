//! `tfwire decode`: a value of a type, from MessagePack (or JSON), to its canonical form,
//! or transcoded to MessagePack or JSON.

use crate::failure::Failure;
use crate::{input, output};
use clap::ValueEnum;
use tfwire::{Decoder, Program, Type};

/// Decode one value of a type and print it.
///
/// Prints the canonical form (tagged JSON on one line), or the value encoded again as go-cty
/// encodes it (`--output msgpack|json`), and exits 0; on bad input prints
/// `error: <path>: <message> (at byte N)` (the path of the offending value inside it, e.g.
/// `.tags["env"]`; for JSON input also the line with a caret under the column) and exits 1.
/// Gzip-compressed input is inflated; JSON and hex text may be UTF-16 or carry a
/// byte-order mark.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  printf '\\x82\\xa1a\\x01\\xa1b\\xc0' | tfwire decode --type '[\"map\",\"number\"]'\n  \
                        echo '92 a1 61 c0' | tfwire decode --hex --type '[\"list\",\"string\"]'\n  \
                        echo '[\"a\",null]' | tfwire decode --input json --output msgpack --hex --type '[\"list\",\"string\"]'\n\n\
                        Exit codes: 0 success, 1 input rejected, 2 usage error."
)]
pub(crate) struct Args {
    /// The type constraint, as type JSON (e.g. '["map","string"]').
    #[arg(
        long = "type",
        value_name = "TYPE_JSON",
        required_unless_present = "schema",
        conflicts_with = "schema"
    )]
    ty: Option<String>,
    #[command(flatten)]
    schema: crate::schema::Select,
    /// The input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Msgpack)]
    input: InputFormat,
    /// MessagePack as hex text: read MessagePack input as hex (whitespace ignored), write
    /// MessagePack output as lower-case hex.
    #[arg(long)]
    hex: bool,
    /// JSON only: ignore object attributes the type does not declare.
    #[arg(long)]
    lenient: bool,
    /// The output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Canonical)]
    output: OutputFormat,
    /// MessagePack only: feed the input to the chunked decoder N bytes at a time (for
    /// checking and debugging; the result is the one-shot result).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    chunk_size: Option<u64>,
    /// MessagePack only: print only the value at this path (e.g. `.tags["env"]`, `.disks[0]`),
    /// skipping everything off the path without decoding it; prints `null` when the value
    /// has no such path (or it goes through a null or unknown value).
    #[arg(long, value_name = "PATH", conflicts_with = "chunk_size")]
    path: Option<String>,
    /// Input file (`-` or none: standard input).
    file: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum InputFormat {
    /// MessagePack (the DynamicValue.msgpack field).
    Msgpack,
    /// JSON (the DynamicValue.json field, RawState.json).
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// Tagged JSON on one line (the conformance vectors' form).
    Canonical,
    /// MessagePack, as go-cty writes it (raw bytes; hex text with --hex).
    Msgpack,
    /// JSON, as go-cty writes it.
    Json,
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    let program = match &args.ty {
        Some(ty) => Program::compile(&Type::from_json(ty).map_err(|e| {
            Failure::Usage(format!("--type: {} (at byte {})", e.kind(), e.offset()))
        })?),
        None => args.schema.program(limits)?,
    };
    let name = input::display_name(args.file.as_deref().unwrap_or("-")).to_string();
    let raw = input::read(limits, args.file.as_deref())?;
    let hex_input = args.hex && matches!(args.input, InputFormat::Msgpack);
    let bytes = match args.input {
        InputFormat::Msgpack if hex_input => input::unhex(&input::text(raw, &name)?)?,
        InputFormat::Msgpack => raw,
        InputFormat::Json => input::text(raw, &name)?,
    };
    let arena = bumpalo::Bump::new();
    let mut decoder = Decoder::new(limits.decoder_config().lenient(args.lenient));
    if let Some(path) = &args.path {
        if !matches!(args.input, InputFormat::Msgpack) {
            return Err(Failure::Usage(
                "--path applies to MessagePack input only".into(),
            ));
        }
        if !matches!(args.output, OutputFormat::Canonical) {
            return Err(Failure::Usage(
                "--path prints the canonical form only".into(),
            ));
        }
        let path = tfwire::Path::parse(path).map_err(|e| {
            Failure::Usage(format!("--path: {} (at byte {})", e.kind(), e.offset()))
        })?;
        let found = decoder
            .lookup_msgpack(&program, &bytes, &path, &arena)
            .map_err(|e| Failure::Input(e.to_string()))?;
        return match found {
            None => output::text("null"),
            Some(v) => output::text(&tfwire::canonical::to_string(&v)),
        };
    }
    let value = match (args.input, args.chunk_size) {
        (InputFormat::Msgpack, None) => decoder.decode_msgpack(&program, &bytes, &arena),
        (InputFormat::Msgpack, Some(n)) => {
            let mut chunked = decoder.chunked(&program, &arena);
            bytes
                .chunks(usize::try_from(n).unwrap_or(usize::MAX))
                .try_for_each(|c| chunked.feed(c).map(|_| ()))
                .and_then(|()| chunked.finish())
        }
        (InputFormat::Json, None) => decoder.decode_json(&program, &bytes, &arena),
        (InputFormat::Json, Some(_)) => {
            return Err(Failure::Usage(
                "--chunk-size applies to MessagePack input only".into(),
            ));
        }
    }
    .map_err(|e| match args.input {
        InputFormat::Json => json_error(&e, &bytes, &name),
        InputFormat::Msgpack => Failure::Input(e.to_string()),
    })?;
    match args.output {
        OutputFormat::Canonical => output::text(&tfwire::canonical::to_string(&value)),
        OutputFormat::Msgpack => {
            let bytes = tfwire::encode_msgpack(&program, &value).map_err(output::unencodable)?;
            output::msgpack(&bytes, args.hex)
        }
        OutputFormat::Json => {
            let text = tfwire::encode_json(&program, &value).map_err(output::unencodable)?;
            output::text(&text)
        }
    }
}

/// A JSON decoding error: the message with the value path, then the line with a caret.
#[cold]
pub(crate) fn json_error(e: &tfwire::Error, bytes: &[u8], name: &str) -> Failure {
    Failure::Input(format!(
        "{e}\n{}",
        crate::report::snippet(name, bytes, e.offset())
    ))
}
