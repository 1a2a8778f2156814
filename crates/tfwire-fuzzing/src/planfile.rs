//! The `planfile` target: binary plan files (ZIP container, `tfplan` protobuf, the values
//! inside), read into the `show -json` document and through tfwire-plan's model.

use std::io::Write as _;
use std::sync::OnceLock;
use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_planfile::{Config, Planfile};

/// The input's first byte: bit 0 set, the rest is a `tfplan` message that the check wraps
/// in a ZIP archive (so that mutations reach the protobuf and the values instead of
/// failing the archive's checksums); clear, the rest is the file as is.
pub const RAW_TFPLAN: u8 = 1;

/// The provider schemas the check also decodes with: OpenTofu's builtin provider (the
/// provider of the corpus's plan files).
fn schemas() -> &'static ProgramCache {
    static CACHE: OnceLock<ProgramCache> = OnceLock::new();
    CACHE.get_or_init(|| {
        let text = include_bytes!("../../../corpus/planfiles/basic/schemas.json");
        ProgramCache::new(ProviderSchemas::from_json(text).expect("the builtin provider's schemas"))
    })
}

/// A ZIP archive (stored, not compressed) holding `tfplan`.
pub fn wrap_tfplan(tfplan: &[u8]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    // Writing to memory cannot fail.
    zip.start_file("tfplan", options).expect("zip");
    zip.write_all(tfplan).expect("zip");
    zip.finish().expect("zip").into_inner()
}

/// The planfile check's input for a `tfplan` message.
pub fn tfplan_input(tfplan: &[u8]) -> Vec<u8> {
    let mut v = vec![RAW_TFPLAN];
    v.extend_from_slice(tfplan);
    v
}

/// Checks plan file reading on any bytes (see the crate documentation).
pub fn planfile(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let wrapped;
    let file = if flags & RAW_TFPLAN != 0 {
        wrapped = wrap_tfplan(rest);
        &wrapped[..]
    } else {
        rest
    };
    // The CLI's rule at a 1 MiB input limit: members inflate to 1 MiB, the `tfplan` member
    // and its decoded messages take one node of 8 bytes per 8 bytes of it.
    let config = Config::default()
        .max_inflated_bytes(1 << 20)
        .max_nodes((1 << 20) / 8);
    let pf = match Planfile::read_with(file, &config) {
        Ok(pf) => pf,
        Err(e) => {
            crate::clean_message(&e.to_string());
            return;
        }
    };
    let _ = (
        pf.state(),
        pf.prev_state(),
        pf.lock_file(),
        pf.config_files(),
        pf.dialect(),
        pf.terraform(),
    );
    let bare = pf.to_json(None);
    let typed = pf.to_json(Some(schemas()));
    let mut summaries = Vec::new();
    for doc in [&bare, &typed] {
        match doc {
            Ok(json) => {
                // The document must stay within a bound of the input: values are written
                // once each, with their unknown and sensitivity trees.
                assert!(
                    json.len() <= 64 * file.len() + (1 << 16),
                    "a {} byte plan file wrote {} bytes of JSON",
                    file.len(),
                    json.len()
                );
                summaries.push(read_plan(json));
            }
            Err(e) => crate::clean_message(&e.to_string()),
        }
    }
    if let [a, b] = &summaries[..] {
        assert_eq!(a, b, "the summary depends on the schemas");
    }
}

/// The document through tfwire-plan: it must be a plan whose model builds; its summary.
fn read_plan(json: &str) -> String {
    let mut bytes = json.as_bytes().to_vec();
    let tape = tfwire_plan::Parser::new()
        .parse(&mut bytes)
        .unwrap_or_else(|e| panic!("the document does not parse: {e}\n{json}"));
    let arena = bumpalo::Bump::new();
    let plan = tape
        .plan(&arena)
        .unwrap_or_else(|e| panic!("the document is not a plan tfwire-plan reads: {e}\n{json}"));
    for rc in plan.resource_changes.iter().chain(plan.resource_drift) {
        let _ = tfwire_plan::Diff::of(&rc.change);
    }
    tfwire_render::summary::to_json(&tfwire_plan::Summary::of(plan))
}
