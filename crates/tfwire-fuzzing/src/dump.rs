//! The `dump` target: a folder of captured plugin values (`TF_LOG_SDK_PROTO_DATA_DIR`), read
//! by [`tfwire_plugin::dump`] from `(file name, bytes)` entries made from the input.

use std::sync::OnceLock;
use tfwire::schema::ProviderSchemas;
use tfwire_plugin::Programs;
use tfwire_plugin::dump::{DumpConfig, dump_entries, is_value_file};

/// The programs of the provider the check decodes with: the test provider of
/// `corpus/proto-data/sensitive` (sensitive and write-only attributes, nested blocks).
fn programs() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let text = include_bytes!("../../../corpus/proto-data/sensitive/schemas.json");
        let doc = ProviderSchemas::from_json(text).expect("the test provider's schemas");
        let (_, schema) = doc.providers.iter().next().expect("one provider");
        Programs::new(schema.clone())
    })
}

/// The entries of a `dump` input: each is a name length byte `n`, `n` bytes of name (read
/// as UTF-8, invalid sequences replaced), a little-endian `u16` length `m` and `m` bytes of
/// content (fewer if the input ends first).
pub fn dump_entries_of(data: &[u8]) -> Vec<(String, &[u8])> {
    let mut entries = Vec::new();
    let mut rest = data;
    while let Some((&n, after)) = rest.split_first() {
        let (name, after) = after.split_at(usize::from(n).min(after.len()));
        let (len, after) = match after {
            [a, b, tail @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), tail),
            _ => (0, &[][..]),
        };
        let (body, after) = after.split_at(len.min(after.len()));
        entries.push((String::from_utf8_lossy(name).into_owned(), body));
        rest = after;
    }
    entries
}

/// The `dump` input holding `entries` (the inverse of [`dump_entries_of`]; names longer
/// than 255 bytes and contents longer than 65535 are cut).
pub fn dump_input(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, body) in entries {
        let name = &name.as_bytes()[..name.len().min(255)];
        let body = &body[..body.len().min(0xffff)];
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        out.extend((body.len() as u16).to_le_bytes());
        out.extend_from_slice(body);
    }
    out
}

/// Checks `dump`'s folder reading on any bytes (see the crate documentation).
pub fn dump(data: &[u8]) {
    let owned = dump_entries_of(data);
    let entries: Vec<(&str, &[u8])> = owned.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    // Small limits, so that the inference and index bounds are reached.
    let config = DumpConfig::default()
        .decoder(tfwire::Config::default().max_input_bytes(1 << 16))
        .max_nodes(4096)
        .max_inference_bytes(1 << 14);
    let (lines, errors) = match dump_entries(programs(), &entries, config) {
        Ok(done) => done,
        Err(e) => {
            crate::clean_message(&e);
            return;
        }
    };
    // One line per non-empty value file, in order, each one JSON object naming its file.
    let values: Vec<&(&str, &[u8])> = entries
        .iter()
        .filter(|(n, b)| is_value_file(n) && !b.is_empty())
        .collect();
    assert_eq!(lines.len(), values.len(), "one line per value file");
    assert!(errors <= lines.len());
    let mut counted = 0;
    for (line, (name, body)) in lines.iter().zip(values) {
        assert!(
            !line.contains('\n') && line.starts_with('{') && line.ends_with('}'),
            "{line}"
        );
        tfwire_json::json_shape(line.as_bytes(), 1024, usize::MAX)
            .unwrap_or_else(|e| panic!("the line is not JSON: {e}\n{line}"));
        let mut file = String::new();
        tfwire_json::write_safe_str(&mut file, name).expect("a string");
        assert!(line.contains(&format!("\"file\":{file}")), "{line}");
        assert!(
            line.contains(&format!("\"bytes\":{}", body.len())),
            "{line}"
        );
        assert!(
            !line.chars().any(tfwire_plan::is_unsafe_char),
            "a line with a terminal control: {line}"
        );
        counted += usize::from(line.contains("\"error\":"));
    }
    assert!(
        counted >= errors,
        "every error counted is a line with an error"
    );
}
