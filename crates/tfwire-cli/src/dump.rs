//! `tfwire dump`: a `TF_LOG_SDK_PROTO_DATA_DIR` directory as JSON lines, decoded with the
//! provider's schemas, sensitive attributes masked.

use crate::failure::Failure;
use crate::schema::provider;
use crate::{input, output};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;
use tfwire_plugin::Programs;
use tfwire_plugin::dump::{Dump, DumpConfig, INDEX_NAMES, Index, is_value_file};

/// Decode a directory of raw plugin protocol values (`TF_LOG_SDK_PROTO_DATA_DIR`).
///
/// terraform-plugin-go writes each `DynamicValue` it receives or sends to a file named
/// `{TIME}_{RPC}_{MESSAGE}_{FIELD}.{msgpack|json}`. `dump` prints one JSON line per file, in
/// file name order: `time`, `rpc`, `direction` (a streamed `Event` is a response),
/// `type_name` (when known: the resource, list resource or action type, or the function),
/// `field` (the protocol's name: `planned_state`, `imported_resources.identity`; a
/// function's argument N is `arguments` with `index` N), `file`, `bytes`, and `value` (plain JSON; every attribute the schema marks sensitive or write-only
/// is "(sensitive)", unknown values are "(known after apply)") or `error` (the path inside
/// the value, the message and the byte offset). Values the masks match (see the Masks
/// options) are "(sensitive)" too.
///
/// Each value is decoded with the schema its field holds: a resource's, data source's,
/// ephemeral or list resource's, action's or the provider's block, the resource type's
/// identity schema, a function parameter's type (the variadic one past the last) or its
/// return type. The files do not name the type. It is read from an index beside them when there
/// is one (`index.json` of the project's real-client corpus, or the `index.jsonl` its test
/// provider writes); otherwise the value is decoded with every schema of its kind, and the
/// type is the one schema that accepts it (`"type_inferred":true`), or an error line says how
/// many did. Private state (`*Private` fields) and empty files are not values and are skipped.
///
/// Only regular files are read (a symbolic link only to one inside the folder): a FIFO,
/// socket, device or directory named like a value, or a link leaving the folder, is an
/// error line; as the index, it is a fatal error. A value file or index of more than
/// `--max-input-bytes` (256 MiB by default) is refused from its size, and reading stops
/// there whatever the size said. Inferring a type (no index) decodes the value with one
/// schema after another, at most `--max-input-bytes` bytes in all (its size times the
/// schemas tried), and stops at the second schema that accepts it. The index may hold one
/// JSON node per 8 bytes of `--max-input-bytes`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tfwire dump proto-data/ --schemas schemas.json\n\n\
                  Only regular files are read (no FIFOs, devices, sockets, or links out of the \
                  folder); each file and the index may hold at most --max-input-bytes \
                  (256 MiB by default), and inferring a type without an index decodes at most \
                  that many bytes a value.\n\n\
                  Exit codes: 0 every value decoded, 1 a value did not decode (all lines are \
                  printed first) or the input was rejected, 2 usage error."
)]
pub(crate) struct Args {
    #[command(flatten)]
    masks: crate::mask::MaskArgs,
    /// The directory of captured values.
    dir: String,
    /// The provider's schemas: a `providers schema -json` document, or a schema cache
    /// directory (`tfwire schema add`).
    #[arg(long, value_name = "FILE|DIR")]
    schemas: String,
    /// With --schemas DIR: the dependency lock file that says which version of each
    /// provider to take (without it, the cache's only version of each).
    #[arg(long, value_name = "FILE")]
    lock_file: Option<String>,
    /// The provider (full address or short name), when the document has several; by default
    /// the index's provider, or the document's only one.
    #[arg(long, value_name = "ADDR")]
    provider: Option<String>,
}

/// What a file is, for a message.
fn file_kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        return "a directory";
    }
    "not a regular file"
}

/// Reads the file `name` of the folder `dir` (`real`: the folder's canonical path) if it
/// is a regular file of at most `limit` bytes, or a symbolic link to one inside the folder;
/// otherwise says why it is not read. The size is checked from the metadata and again
/// while reading.
fn read_regular(dir: &Path, real: &Path, name: &str, limit: usize) -> Result<Vec<u8>, String> {
    let path = dir.join(name);
    let io = |e: std::io::Error| e.to_string();
    let meta = std::fs::symlink_metadata(&path).map_err(io)?;
    let meta = if meta.file_type().is_symlink() {
        let target = std::fs::canonicalize(&path).map_err(io)?;
        if !target.starts_with(real) {
            return Err(
                "a symbolic link to outside the folder; only files inside it are read".to_string(),
            );
        }
        std::fs::metadata(&target).map_err(io)?
    } else {
        meta
    };
    let not_regular = |t| {
        format!(
            "{}, not a regular file; only regular files are read",
            file_kind(t)
        )
    };
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    let too_large =
        || format!("more than {limit} bytes, the input limit; raise it with --max-input-bytes");
    if meta.len() > limit as u64 {
        return Err(too_large());
    }
    // Opened without blocking: were the file replaced by a FIFO since the check above, the
    // open would otherwise wait for a writer. What was opened is checked too.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&path)
        .map_err(io)?;
    let opened = file.metadata().map_err(io)?;
    if !opened.is_file() {
        return Err(not_regular(opened.file_type()));
    }
    let mut out = Vec::with_capacity((opened.len() as usize).min(limit));
    file.take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(io)?;
    if out.len() > limit {
        return Err(too_large());
    }
    Ok(out)
}

pub(crate) fn run(args: Args, limits: input::Limits) -> Result<(), Failure> {
    let dir = Path::new(&args.dir);
    let fail = |e: std::io::Error| Failure::Input(format!("{}: {e}", args.dir));
    let real = std::fs::canonicalize(dir).map_err(fail)?;
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(fail)?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    let limit = limits.max_input_bytes();
    let mut index = None;
    for name in INDEX_NAMES {
        if !names.iter().any(|n| n == name) {
            continue;
        }
        let shown = dir.join(name).display().to_string();
        let bytes = read_regular(dir, &real, name, limit)
            .map_err(|e| Failure::Input(format!("{shown}: {e}")))?;
        index = Some(
            Index::parse(name, &bytes, limits.max_nodes())
                .map_err(|e| Failure::Input(format!("{shown}: {e}")))?,
        );
        break;
    }
    let versions = crate::schema::Versions {
        lock_file: args.lock_file.as_deref(),
        input: None,
    };
    let doc = crate::schema::load(limits, &args.schemas, versions)?;
    let wanted = args
        .provider
        .clone()
        .or_else(|| index.as_ref().and_then(|i| i.provider.clone()));
    let (_, schema) = provider(&doc, wanted.as_deref())?;
    let programs = Programs::new(schema.clone()).with_masks(args.masks.masks()?);
    let config = DumpConfig::default()
        .decoder(limits.decoder_config())
        .max_nodes(limits.max_nodes())
        .max_inference_bytes(limit as u64);
    let mut dump = Dump::new(&programs, index, config);
    for name in &names {
        if !is_value_file(name) {
            continue;
        }
        let read = read_regular(dir, &real, name, limit);
        let content = match &read {
            Ok(bytes) => Ok(&bytes[..]),
            Err(why) => Err(why.as_str()),
        };
        // One JSON line per value, written as it is made.
        if let Some(line) = dump.entry(name, content) {
            output::text(&line)?;
        }
    }
    let (values, errors) = (dump.values(), dump.errors());
    if errors > 0 {
        return Err(Failure::Input(format!(
            "{errors} of {values} values did not decode (see the \"error\" lines)"
        )));
    }
    Ok(())
}
