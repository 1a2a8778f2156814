//! The ZIP container: finding the members, inflating them within the memory limit, and
//! telling other files apart (what they are, for the error message).

use crate::error::{Error, ErrorKind};
use crate::{Config, Members};
use std::io::{Cursor, Read};

/// The first bytes of a ZIP archive: a local file header, or the end-of-central-directory
/// record of an empty archive.
pub(crate) fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// What a file that is not a ZIP archive looks like, as an error.
#[cold]
pub(crate) fn not_a_zip(bytes: &[u8]) -> Error {
    if bytes.starts_with(b"tfplan") {
        return Error::new(ErrorKind::Legacy);
    }
    if looks_encrypted(bytes) {
        return Error::new(ErrorKind::Encrypted);
    }
    let what = match bytes {
        [] => "an empty file".to_string(),
        [0x1f, 0x8b, ..] => "gzip-compressed data".to_string(),
        [b'P', b'K', ..] => "a ZIP archive that starts with an unexpected record".to_string(),
        _ => match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{' | b'[') => "JSON text".to_string(),
            _ => format!(
                "it starts with the bytes {}",
                bytes
                    .iter()
                    .take(4)
                    .map(|b| format!("{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        },
    };
    Error::new(ErrorKind::NotAPlanfile(what))
}

/// Whether `bytes` is OpenTofu's encryption envelope: a JSON object with
/// `encryption_version` (the envelope's sigil) and `encrypted_data`.
pub fn looks_encrypted(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    start.is_some_and(|i| bytes[i] == b'{')
        && contains(bytes, b"\"encryption_version\"")
        && contains(bytes, b"\"encrypted_data\"")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Reads the members of a plan file.
pub(crate) fn read(bytes: &[u8], config: &Config) -> Result<Members, Error> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(zip_error)?;
    let names: Vec<String> = zip
        .file_names()
        .map(|n| n.map(|n| n.into_owned()))
        .collect::<Result<_, _>>()
        .map_err(zip_error)?;
    if !names.iter().any(|n| n == "tfplan") {
        let what = if names.is_empty() {
            "an empty archive".to_string()
        } else {
            let mut shown: Vec<String> = names.iter().take(4).map(|n| format!("{n:?}")).collect();
            if names.len() > 4 {
                shown.push(format!("and {} more", names.len() - 4));
            }
            format!("its members are {}", shown.join(", "))
        };
        return Err(Error::new(ErrorKind::NotAPlan(what)));
    }
    check_layout(&mut zip, bytes)?;
    let mut budget = config.max_inflated_bytes;
    let mut member = |name: &str| -> Result<Option<Vec<u8>>, Error> {
        let Ok(mut file) = zip.by_name(name) else {
            return Ok(None);
        };
        if file.is_dir() {
            return Err(Error::new(ErrorKind::Zip(format!(
                "`{name}` is a directory"
            ))));
        }
        let too_large = || {
            Error::new(ErrorKind::TooLarge {
                member: name.to_string(),
                limit: config.max_inflated_bytes,
            })
        };
        // The declared size is checked first (nothing is reserved for a 4 GiB claim); the
        // inflated bytes are counted too, since a hostile archive may declare less.
        if file.size() > budget {
            return Err(too_large());
        }
        // Room for the padding the JSON parser adds to a state, so it is never copied to grow.
        let mut out = Vec::with_capacity(file.size() as usize + tfwire_json::tape::INPUT_PADDING);
        let read = (&mut file)
            .take(budget + 1)
            .read_to_end(&mut out)
            .map_err(|e| Error::new(ErrorKind::Zip(format!("`{name}`: {e}"))))?;
        if read as u64 > budget {
            return Err(too_large());
        }
        if read as u64 != file.size() {
            return Err(Error::new(ErrorKind::Zip(format!(
                "`{name}` declares {} bytes but holds {read}",
                file.size()
            ))));
        }
        budget -= read as u64;
        Ok(Some(out))
    };
    let tfplan = member("tfplan")?.unwrap_or_default();
    let state = member("tfstate")?;
    let prev_state = member("tfstate-prev")?;
    let lock_file = member(".terraform.lock.hcl")?;
    // The configuration snapshot, under the same budget (directories hold nothing).
    let mut config = Vec::new();
    for name in names
        .iter()
        .filter(|n| n.starts_with("tfconfig/") && !n.ends_with('/'))
    {
        if let Some(bytes) = member(name)? {
            config.push((name["tfconfig/".len()..].to_string(), bytes));
        }
    }
    let config_files = names
        .into_iter()
        .filter(|n| n.starts_with("tfconfig/"))
        .collect();
    Ok(Members {
        tfplan,
        state,
        prev_state,
        lock_file,
        config_files,
        config,
    })
}

/// Refuses archives whose members share bytes (the overlapping-member ZIP bomb: many
/// entries inflating the same compressed data) or share a name (which one a reader takes
/// would be arbitrary); the ZIP reader itself keeps one entry per name.
fn check_layout(zip: &mut zip::ZipArchive<Cursor<&[u8]>>, bytes: &[u8]) -> Result<(), Error> {
    if let Some(declared) = declared_entries(bytes)
        && declared as usize > zip.len()
    {
        return Err(Error::new(ErrorKind::Zip(
            "two members have the same name".to_string(),
        )));
    }
    let mut spans = Vec::with_capacity(zip.len());
    for i in 0..zip.len() {
        let f = zip.by_index_raw(i).map_err(zip_error)?;
        let start = f.header_start();
        let end = f
            .data_start()
            .unwrap_or(start)
            .saturating_add(f.compressed_size());
        spans.push((start, end, f.name().map_err(zip_error)?.into_owned()));
    }
    spans.sort();
    for w in spans.windows(2) {
        if w[1].0 < w[0].1 {
            return Err(Error::new(ErrorKind::Zip(format!(
                "the members `{}` and `{}` overlap (a ZIP bomb's layout)",
                w[0].2, w[1].2
            ))));
        }
    }
    Ok(())
}

/// The number of entries the end-of-central-directory record declares (`None` for ZIP64
/// archives, which say `0xffff` there, or when the record is not found).
fn declared_entries(bytes: &[u8]) -> Option<u16> {
    // The record is 22 bytes plus a comment of at most 65535 bytes, at the end.
    let from = bytes.len().saturating_sub(22 + 0xffff);
    let at = bytes[from..].windows(4).rposition(|w| w == b"PK\x05\x06")? + from;
    let n = u16::from_le_bytes(bytes.get(at + 10..at + 12)?.try_into().ok()?);
    (n != 0xffff).then_some(n)
}

#[cold]
fn zip_error(e: zip::result::ZipError) -> Error {
    let msg = e.to_string();
    Error::new(ErrorKind::Zip(if msg.contains("EOCD") {
        "the archive is truncated (its end-of-central-directory record is missing)".to_string()
    } else {
        msg
    }))
}
