//! `show -json` of every raw state of the real-client corpora: `state.json` of each scenario
//! is the client's `show -json` of its `terraform.tfstate` with the provider schemas of
//! `schemas.json`; [`tfwire_plan::write_state_json`] writes it byte for byte.

use crate::real_client::scenarios;
use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_plan::{Parser, StateJson, write_state_json};

/// Writes the document of `dir/terraform.tfstate` as `client` writes it.
fn write(dir: &std::path::Path, client: tfwire_plan::Client) -> Result<String, String> {
    let schemas = std::fs::read(dir.join("schemas.json")).map_err(|e| e.to_string())?;
    let schemas = ProviderSchemas::from_json(&schemas).map_err(|e| e.to_string())?;
    let cache = ProgramCache::new(schemas);
    let mut input = std::fs::read(dir.join("terraform.tfstate")).map_err(|e| e.to_string())?;
    let tape = Parser::new().parse(&mut input).map_err(|e| e.to_string())?;
    let arena = bumpalo::Bump::new();
    let state = tape.raw_state(&arena).map_err(|e| e.to_string())?;
    let mut out = String::new();
    write_state_json(&state, &cache, &StateJson::new(client), &mut out)
        .map_err(|e| e.to_string())?;
    out.push('\n');
    Ok(out)
}

#[test]
fn every_state_document_is_the_clients_byte_for_byte() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, dir, client, committed) in scenarios() {
        let Ok(expected) = std::fs::read_to_string(dir.join("state.json")) else {
            continue;
        };
        if !committed || !dir.join("terraform.tfstate").exists() {
            continue;
        }
        checked += 1;
        match write(&dir, client) {
            Ok(got) if got == expected => {}
            Ok(got) => {
                let at = got
                    .bytes()
                    .zip(expected.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(expected.len()));
                let from = at.saturating_sub(80);
                failures.push(format!(
                    "{name}: differs at byte {at}:\n  tfwire: {}\n  client: {}",
                    &got[from..(at + 80).min(got.len())],
                    &expected[from..(at + 80).min(expected.len())]
                ));
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(checked >= 40, "only {checked} state documents checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} state documents differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
