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

/// [`StateJson::guess`] picks the client that wrote each state of the corpora that has
/// resources (the provider addresses say it).
#[test]
fn the_guessed_client_is_the_writer() {
    for (name, dir, client, committed) in scenarios() {
        let Ok(mut input) = std::fs::read(dir.join("terraform.tfstate")) else {
            continue;
        };
        if !committed {
            continue;
        }
        let tape = Parser::new().parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let state = tape.raw_state(&arena).unwrap();
        if state.resources.is_empty() {
            continue;
        }
        assert_eq!(StateJson::guess(&state).client, client, "{name}");
    }
}

const SCHEMAS: &[u8] = br#"{"provider_schemas":{"registry.opentofu.org/hashicorp/null":{
  "resource_schemas":{"null_resource":{"version":1,"block":{"attributes":{
    "id":{"type":"string","computed":true}}}}}}}}"#;

fn state(instances: &str, ty: &str) -> Vec<u8> {
    format!(
        r#"{{"version":4,"terraform_version":"1.12.6","resources":[{{"module":"module.m[\"a.b\"]",
        "mode":"managed","type":"{ty}","name":"n",
        "provider":"provider[\"registry.opentofu.org/hashicorp/null\"]","instances":[{instances}]}}]}}"#
    )
    .into_bytes()
}

fn error_of(mut input: Vec<u8>, options: &StateJson) -> String {
    let cache = ProgramCache::new(ProviderSchemas::from_json(SCHEMAS).unwrap());
    tfwire_plan::state_show_json(&mut input, &cache, Some(options))
        .unwrap_err()
        .to_string()
}

/// Every refusal names the instance: a type the schemas lack, a schema version other than
/// the schema's (the clients refuse it too), values that do not conform, a document past
/// its limit.
#[test]
fn refusals_name_the_instance() {
    let open = StateJson::new(tfwire_plan::Client::OpenTofu);
    assert_eq!(
        error_of(
            state(r#"{"schema_version":1,"attributes":{}}"#, "other"),
            &open
        ),
        "(root): module.m[\"a.b\"].other.n: no schema for resource type \"other\" of provider \
         registry.opentofu.org/hashicorp/null in the given schemas"
    );
    assert_eq!(
        error_of(
            state(r#"{"schema_version":0,"attributes":{}}"#, "null_resource"),
            &open
        ),
        "(root): module.m[\"a.b\"].null_resource.n: schema version 0 in the state does not \
         match version 1 of the provider's schema"
    );
    let bad = error_of(
        state(
            r#"{"schema_version":1,"attributes":{"id":{}}}"#,
            "null_resource",
        ),
        &open,
    );
    assert!(
        bad.starts_with("(root): module.m[\"a.b\"].null_resource.n: attributes: .id:"),
        "{bad}"
    );
    assert_eq!(
        error_of(
            state(
                r#"{"schema_version":1,"attributes":{"id":"x"}}"#,
                "null_resource"
            ),
            &open.max_document_bytes(64)
        ),
        "(root): the document would hold more than 64 bytes"
    );
}

/// A module address nested deeper than `MAX_MODULE_DEPTH` is refused (the module tree is
/// written one level a frame).
#[test]
fn module_nesting_is_bounded() {
    let deep = vec!["module.m"; tfwire_plan::MAX_MODULE_DEPTH + 1].join(".");
    assert!(tfwire_plan::module_ancestors(&deep[..deep.len() - 9]).is_ok());
    let input = format!(
        r#"{{"version":4,"resources":[{{"module":"{deep}","mode":"managed","type":"null_resource",
        "name":"n","provider":"provider[\"registry.opentofu.org/hashicorp/null\"]",
        "instances":[]}}]}}"#
    );
    let open = StateJson::new(tfwire_plan::Client::OpenTofu);
    assert_eq!(
        error_of(input.into_bytes(), &open),
        ".resources[0].module: a module address nested more than 256 levels deep"
    );
}
