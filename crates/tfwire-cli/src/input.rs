//! Reading inputs: a file or standard input, raw or as hex text.

use crate::Failure;
use std::io::Read;

/// Reads `path` (`-` or none: standard input).
pub(crate) fn read(path: Option<&str>) -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    match path {
        None | Some("-") => {
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Failure::Input(format!("reading standard input: {e}")))?;
        }
        Some(p) => {
            buf = std::fs::read(p).map_err(|e| Failure::Input(format!("{p}: {e}")))?;
        }
    }
    Ok(buf)
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

/// Reads a document (`-`: standard input) into a buffer with `spare` bytes of capacity
/// left over, so that a parser can pad it without reallocating.
pub(crate) fn read_document(path: &str, spare: usize) -> Result<Vec<u8>, Failure> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Failure::Input(format!("reading standard input: {e}")))?;
        return Ok(buf);
    }
    let mut file = std::fs::File::open(path).map_err(|e| Failure::Input(format!("{path}: {e}")))?;
    let len = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
    let mut buf = Vec::with_capacity(len.saturating_add(spare));
    file.read_to_end(&mut buf)
        .map_err(|e| Failure::Input(format!("{path}: {e}")))?;
    Ok(buf)
}

/// The name to show for an input in messages.
pub(crate) fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}
