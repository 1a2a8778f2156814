//! Reading inputs: a file or standard input (`-`), gzip-compressed or not; text in UTF-8
//! (with or without a byte-order mark) or UTF-16; hex text. And the documents (plans and
//! states) built from them, with errors that point at the offending line.

use crate::{Failure, report};
use flate2::read::MultiGzDecoder;
use std::io::Read;
use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_plan::{Document, Parser};
use tfwire_planfile::Planfile;

/// The most a gzip-compressed input may inflate to: the plan parser's own limit (4 GiB),
/// so that a small hostile file cannot fill the memory.
const MAX_INFLATED: u64 = 1 << 32;

/// Reads `path` (`-` or none: standard input) with `spare` bytes of capacity left over
/// (so that a parser can pad the buffer without reallocating), inflating gzip input
/// (recognised by its magic bytes `1f 8b`).
pub(crate) fn read_raw(path: Option<&str>, spare: usize) -> Result<Vec<u8>, Failure> {
    let name = display_name(path.unwrap_or("-"));
    let io = |e: std::io::Error| Failure::Input(format!("{name}: {e}"));
    let mut buf;
    match path {
        None | Some("-") => {
            buf = Vec::new();
            std::io::stdin().read_to_end(&mut buf).map_err(io)?;
        }
        Some(p) => {
            let mut file = std::fs::File::open(p).map_err(io)?;
            let len = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
            buf = Vec::with_capacity(len.saturating_add(spare));
            file.read_to_end(&mut buf).map_err(io)?;
        }
    }
    if buf.starts_with(&[0x1f, 0x8b]) {
        buf = gunzip(&buf, spare).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    }
    Ok(buf)
}

fn gunzip(bytes: &[u8], spare: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(6).saturating_add(spare));
    MultiGzDecoder::new(bytes)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("reading gzip-compressed input: {e}"))?;
    if out.len() as u64 > MAX_INFLATED {
        return Err("gzip-compressed input inflates to 4 GiB or more".into());
    }
    out.reserve(spare);
    Ok(out)
}

/// Reads a value input (`decode`, `encode`): raw bytes, gzip inflated.
pub(crate) fn read(path: Option<&str>) -> Result<Vec<u8>, Failure> {
    read_raw(path, 0)
}

/// Text input (JSON, hex): UTF-16 transcoded to UTF-8, a UTF-8 byte-order mark dropped.
pub(crate) fn text(mut bytes: Vec<u8>, name: &str) -> Result<Vec<u8>, Failure> {
    let enc =
        tfwire_plan::transcode(&mut bytes).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if enc == tfwire_plan::Encoding::Utf8Bom {
        bytes.drain(..3);
    }
    Ok(bytes)
}

/// Decodes hex text (whitespace ignored).
pub(crate) fn unhex(text: &[u8]) -> Result<Vec<u8>, Failure> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if !digits.len().is_multiple_of(2) {
        return Err(Failure::Input(
            "hex input has an odd number of digits".into(),
        ));
    }
    let val = |b: u8, at: usize| -> Result<u8, Failure> {
        (b as char).to_digit(16).map(|d| d as u8).ok_or_else(|| {
            Failure::Input(format!(
                "hex input: invalid hex digit {:?} (digit {at})",
                b as char
            ))
        })
    };
    digits
        .chunks(2)
        .enumerate()
        .map(|(i, p)| Ok(val(p[0], 2 * i)? << 4 | val(p[1], 2 * i + 1)?))
        .collect()
}

/// The name to show for an input in messages.
pub(crate) fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

/// What a command reads from a binary plan file (a JSON document is read as it is).
#[derive(Clone, Copy)]
pub(crate) enum Want<'s> {
    /// The plan; resource values are decoded with the provider schemas when given, else
    /// with the types the values imply (enough for summaries, which print no values).
    Plan(Option<&'s ProgramCache>),
    /// The plan, to print its values: provider schemas are required for a plan file, whose
    /// recorded sensitive paths need not cover the attributes a schema declares sensitive.
    PlanValues(Option<&'s ProgramCache>),
    /// The prior state (the `tfstate` member).
    State,
}

/// Reads, parses and models a plan or state document, and runs `f` on it. A rejected
/// document is reported with its path, byte offset and the offending line.
///
/// Binary plan files (`tofu plan -out`) are recognised by their content (a ZIP archive, or
/// the `tfplan` header of Terraform 0.11 and older), whatever the file's name: the plan is
/// read as the JSON document `tofu show -json` prints for it, or its prior state, as `want`
/// says.
pub(crate) fn with_document<R>(
    path: &str,
    want: Want<'_>,
    f: impl FnOnce(Document<'_>) -> Result<R, Failure>,
) -> Result<R, Failure> {
    let mut bytes = read_raw(Some(path), tfwire_plan::INPUT_PADDING)?;
    let from_planfile = tfwire_planfile::is_zip(&bytes) || bytes.starts_with(b"tfplan");
    if from_planfile {
        bytes = planfile(path, &bytes, want)?;
    }
    let mut parser = Parser::new();
    let error = match parser.parse(&mut bytes) {
        Ok(tape) => {
            drop(parser); // the scratch buffers are not needed any more
            let arena = bumpalo::Bump::new();
            match tape.document(&arena) {
                Ok(doc) => return f(doc),
                Err(e) => e,
            }
        }
        Err(e) => e,
    };
    let name = display_name(path);
    if from_planfile {
        // The document was written by tfwire-planfile: no line of the file to show.
        return Err(Failure::Input(format!(
            "{name}: reading the plan file: {error}"
        )));
    }
    if matches!(error.kind(), tfwire_plan::ErrorKind::NotADocument(_))
        && tfwire_planfile::looks_encrypted(&bytes)
    {
        return Err(Failure::Input(format!(
            "{name}: {}",
            tfwire_planfile::Error::from(tfwire_planfile::ErrorKind::Encrypted)
        )));
    }
    Err(document_error(path, &error, &bytes))
}

/// The JSON document of a binary plan file that `want` asks for.
fn planfile(path: &str, bytes: &[u8], want: Want<'_>) -> Result<Vec<u8>, Failure> {
    let name = display_name(path);
    let fail = |e: tfwire_planfile::Error| Failure::Input(format!("{name}: {e}"));
    let pf = Planfile::read(bytes).map_err(fail)?;
    let mut out = match want {
        Want::Plan(schemas) | Want::PlanValues(schemas @ Some(_)) => {
            pf.to_json(schemas).map_err(fail)?.into_bytes()
        }
        Want::PlanValues(None) => {
            return Err(Failure::Usage(format!(
                "{name} is a binary plan file: its values are shown only with the provider \
                 schemas, which say which attributes are sensitive; give --schemas FILE \
                 (`tofu providers schema -json` in the plan's working directory)"
            )));
        }
        Want::State => match pf.state() {
            Some(s) => s.to_vec(),
            None => {
                return Err(Failure::Input(format!(
                    "{name}: this plan file holds no prior state (no `tfstate` member)"
                )));
            }
        },
    };
    out.reserve(tfwire_plan::INPUT_PADDING);
    Ok(out)
}

/// Loads `--schemas FILE` (`tofu providers schema -json`).
pub(crate) fn schemas(path: Option<&str>) -> Result<Option<ProgramCache>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = read(Some(path))?;
    let doc = ProviderSchemas::from_json(&bytes)
        .map_err(|e| Failure::Input(format!("{}: {e}", display_name(path))))?;
    Ok(Some(ProgramCache::new(doc)))
}

/// A rejected document: `NAME: MESSAGE`, then the line at the error's offset with a caret.
/// The text is read again from the file when there is one (the parser decodes string
/// escapes in place, so `parsed` may differ from the file); standard input is shown
/// from `parsed`.
#[cold]
pub(crate) fn document_error(path: &str, e: &tfwire_plan::Error, parsed: &[u8]) -> Failure {
    let name = display_name(path);
    let mut msg = format!("{name}: {e}");
    if let Some(offset) = e.offset() {
        let text = (path != "-")
            .then(|| read_raw(Some(path), 0).ok())
            .flatten()
            .and_then(|mut t| tfwire_plan::transcode(&mut t).ok().map(|_| t));
        let text = text.as_deref().unwrap_or(parsed);
        msg.push('\n');
        msg.push_str(&report::snippet(name, text, offset));
    }
    Failure::Input(msg)
}
