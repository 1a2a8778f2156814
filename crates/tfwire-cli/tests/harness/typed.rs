//! `--schemas` on `state show` and `plan summary`, on the real-client corpus: every
//! expectation is computed from the scenario's own `schemas.json`, `state.json`,
//! `terraform.tfstate` and `plan.json`.

use crate::common::{read_json, repo, run, state_show};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The real-client scenarios (both clients) with provider schemas.
fn scenarios() -> Vec<PathBuf> {
    let dirs: Vec<PathBuf> = crate::common::real_client_scenarios()
        .into_iter()
        .filter(|d| d.join("schemas.json").is_file())
        .collect();
    assert!(
        !dirs.is_empty(),
        "no real-client scenario with schemas.json"
    );
    dirs
}

/// Every resource of a `show -json` state (all modules).
fn state_resources(doc: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut modules = vec![&doc["values"]["root_module"]];
    while let Some(m) = modules.pop() {
        out.extend(m["resources"].as_array().into_iter().flatten().cloned());
        modules.extend(m["child_modules"].as_array().into_iter().flatten());
    }
    out
}

/// The schema block of a resource from `providers schema -json`.
fn block<'s>(schemas: &'s Value, provider: &str, mode: &str, ty: &str) -> &'s Value {
    let kind = if mode == "data" {
        "data_source_schemas"
    } else {
        "resource_schemas"
    };
    let b = &schemas["provider_schemas"][provider][kind][ty]["block"];
    assert!(b.is_object(), "no schema for {provider} {mode} {ty}");
    b
}

/// The document's sensitivity marks with every attribute the schema marks sensitive added
/// (in nested blocks too), as OpenTofu writes `after_sensitive` for a plan.
fn with_schema_marks(values: &Value, marks: &Value, block: &Value) -> Value {
    if marks == &json!(true) || !values.is_object() {
        return marks.clone();
    }
    let mut out = marks.as_object().cloned().unwrap_or_default();
    for (name, a) in block["attributes"].as_object().into_iter().flatten() {
        if a["sensitive"] == json!(true) && !values[name].is_null() {
            out.insert(name.clone(), json!(true));
        }
    }
    for (name, bt) in block["block_types"].as_object().into_iter().flatten() {
        let (v, m, inner) = (&values[name], &marks[name], &bt["block"]);
        let merged = match bt["nesting_mode"].as_str().unwrap() {
            "list" | "set" => Value::Array(
                v.as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, e)| with_schema_marks(e, &m[i], inner))
                    .collect(),
            ),
            "map" => Value::Object(
                v.as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, e)| (k.clone(), with_schema_marks(e, &m[k], inner)))
                    .collect(),
            ),
            _ => with_schema_marks(v, m, inner),
        };
        if !v.is_null() {
            out.insert(name.clone(), merged);
        }
    }
    Value::Object(out)
}

/// The values of every attribute the schema marks sensitive (top level and nested blocks),
/// as the strings that would show them: every string leaf of at least four characters that
/// appears once in the values (a sensitive value copied into a plain attribute shows there).
fn secrets(values: &Value, block: &Value, out: &mut Vec<String>) {
    let mut all = Vec::new();
    leaves(values, &mut all);
    let mut hidden = Vec::new();
    sensitive_leaves(values, block, &mut hidden);
    out.extend(
        hidden
            .into_iter()
            .filter(|s| all.iter().filter(|a| *a == s).count() == 1),
    );
}

fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.chars().count() >= 4 => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|e| leaves(e, out)),
        Value::Object(o) => o.values().for_each(|e| leaves(e, out)),
        _ => {}
    }
}

fn sensitive_leaves(values: &Value, block: &Value, out: &mut Vec<String>) {
    for (name, a) in block["attributes"].as_object().into_iter().flatten() {
        if a["sensitive"] == json!(true) {
            leaves(&values[name], out);
        }
    }
    for (name, bt) in block["block_types"].as_object().into_iter().flatten() {
        let v = &values[name];
        let elems: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            Value::Object(o) if bt["nesting_mode"] == "map" => o.values().collect(),
            Value::Null => Vec::new(),
            v => vec![v],
        };
        for e in elems {
            sensitive_leaves(e, &bt["block"], out);
        }
    }
}

fn temp(name: &str, doc: &Value) -> String {
    let p = std::env::temp_dir().join(format!("tfwire-typed-{}-{name}", std::process::id()));
    std::fs::write(&p, serde_json::to_string(doc).unwrap()).unwrap();
    p.to_string_lossy().into_owned()
}

/// A resource body as `plan show` draws its creation, moved to where `state show` draws
/// it: no action symbols (`+ ` becomes two spaces) and four columns less indentation (the
/// symbol column and the two spaces before `+ resource`), without the `# ...` line.
fn as_state_body(plan_show: &str) -> String {
    let mut out = String::new();
    for line in plan_show.lines().skip(1) {
        let indent = line.len() - line.trim_start().len();
        let line = match line.trim_start().strip_prefix("+ ") {
            Some(rest) => format!("{}{rest}", " ".repeat(indent + 2)),
            None => line.to_string(),
        };
        out.push_str(line.get(4..).unwrap_or(""));
        out.push('\n');
    }
    out
}

/// `state show --schemas` draws every resource of every real-client state as `plan show
/// --schemas` (checked byte for byte against `tofu show` elsewhere) draws the creation of
/// the same values with the sensitivity marks OpenTofu would write (the state's own plus the
/// schema's), but for the action symbols: nested blocks as blocks, maps as maps, the same
/// alignment, nulls left out. No value of an attribute the schema marks sensitive is
/// printed.
#[test]
fn state_show_with_schemas_draws_as_plan_show_draws_a_creation() {
    let (mut resources, mut hidden, mut blocks) = (0, 0, 0);
    for dir in scenarios() {
        let state_path = dir.join("state.json");
        if !state_path.is_file() {
            continue;
        }
        let schemas_path = dir.join("schemas.json");
        let schemas = read_json(&schemas_path);
        let state = read_json(&state_path);
        let (st, sc) = (state_path.to_string_lossy(), schemas_path.to_string_lossy());
        for r in state_resources(&state) {
            let address = r["address"].as_str().unwrap();
            let here = format!("{st} {address}");
            let (provider, mode, ty) = (
                r["provider_name"].as_str().unwrap(),
                r["mode"].as_str().unwrap(),
                r["type"].as_str().unwrap(),
            );
            let b = block(&schemas, provider, mode, ty);
            let (code, got, err) = run(&["state", "show", "--schemas", &sc, &st, address], b"");
            assert_eq!(code, 0, "{here}: {err}");
            assert!(got.starts_with(&format!("# {address}:")), "{here}:\n{got}");

            let marks = with_schema_marks(&r["values"], &r["sensitive_values"], b);
            let plan = json!({"format_version": "1.2", "resource_changes": [{
                "address": address, "mode": mode, "type": ty, "name": r["name"],
                "provider_name": provider, "change": {"actions": ["create"], "before": null,
                "after": r["values"], "after_unknown": {}, "before_sensitive": false,
                "after_sensitive": marks}}]});
            let plan_path = temp("create.json", &plan);
            let (code, drawn, err) = run(
                &["plan", "show", "--schemas", &sc, &plan_path, address],
                b"",
            );
            assert_eq!(code, 0, "{here}: {err}");
            let want = as_state_body(&drawn);
            let keyword = if mode == "data" { "data" } else { "resource" };
            assert!(
                want.starts_with(&format!("{keyword} \"{ty}\"")),
                "{here}:\n{want}"
            );
            let body: String = got.lines().skip(1).map(|l| format!("{l}\n")).collect();
            assert_eq!(body, want, "{here}");

            let mut s = Vec::new();
            secrets(&r["values"], b, &mut s);
            for secret in &s {
                assert!(
                    !got.contains(secret.as_str()),
                    "{here}: {secret} printed:\n{got}"
                );
                hidden += 1;
            }
            blocks += got
                .lines()
                .filter(|l| l.ends_with(" {") && l.starts_with("    ") && !l.starts_with("     "))
                .count();
            resources += 1;
        }
    }
    assert!(
        resources > 30 && hidden > 5 && blocks > 5,
        "{resources} resources, {hidden} secrets hidden, {blocks} top-level blocks drawn"
    );
}

/// Sensitivity by schema fails closed: with the document's own markers removed (a
/// `show -json` state's `sensitive_values`, a raw state's `sensitive_attributes`), every
/// attribute the schema marks sensitive is still printed as `(sensitive value)`, and none
/// of its values appears.
#[test]
fn state_show_with_schemas_hides_by_schema_without_markers() {
    let mut checked = 0;
    for dir in scenarios() {
        let schemas_path = dir.join("schemas.json");
        let schemas = read_json(&schemas_path);
        let sc = schemas_path.to_string_lossy();
        for file in ["state.json", "terraform.tfstate"] {
            let path = dir.join(file);
            if !path.is_file() {
                continue;
            }
            let mut doc = read_json(&path);
            // (address, values, schema block) of each resource instance, markers stripped.
            let mut found: Vec<(String, Value, Value)> = Vec::new();
            if file == "state.json" {
                strip(&mut doc["values"]["root_module"]);
                for r in state_resources(&doc) {
                    let b = block(
                        &schemas,
                        r["provider_name"].as_str().unwrap(),
                        r["mode"].as_str().unwrap(),
                        r["type"].as_str().unwrap(),
                    );
                    found.push((
                        r["address"].as_str().unwrap().into(),
                        r["values"].clone(),
                        b.clone(),
                    ));
                }
            } else {
                for r in doc["resources"].as_array_mut().unwrap() {
                    let provider = r["provider"].as_str().unwrap();
                    let source = provider.split('"').nth(1).unwrap().to_string();
                    let b = block(
                        &schemas,
                        &source,
                        r["mode"].as_str().unwrap(),
                        r["type"].as_str().unwrap(),
                    )
                    .clone();
                    let base = crate::common::raw_state_base(r);
                    for inst in r["instances"].as_array_mut().unwrap() {
                        inst.as_object_mut().unwrap().remove("sensitive_attributes");
                        if inst.get("deposed").is_some() {
                            continue;
                        }
                        let address = match &inst["index_key"] {
                            Value::Null => base.clone(),
                            Value::String(k) => {
                                format!("{base}[{}]", serde_json::to_string(k).unwrap())
                            }
                            k => format!("{base}[{k}]"),
                        };
                        found.push((address, inst["attributes"].clone(), b.clone()));
                    }
                }
            }
            let stripped = temp(&format!("stripped-{file}"), &doc);
            for (address, values, b) in found {
                let mut s = Vec::new();
                secrets(&values, &b, &mut s);
                let sensitive_top: Vec<&String> = b["attributes"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(n, a)| {
                        a["sensitive"] == json!(true)
                            && !values[n.as_str()].is_null()
                            && values[n.as_str()] != json!("")
                    })
                    .map(|(n, _)| n)
                    .collect();
                if s.is_empty() && sensitive_top.is_empty() {
                    continue;
                }
                let here = format!("{} {address}", path.display());
                let (code, got, err) = run(
                    &["state", "show", "--schemas", &sc, &stripped, &address],
                    b"",
                );
                assert_eq!(code, 0, "{here}: {err}");
                for secret in &s {
                    assert!(
                        !got.contains(secret.as_str()),
                        "{here}: {secret} printed:\n{got}"
                    );
                }
                for name in sensitive_top {
                    assert!(
                        got.lines().any(|l| l
                            .strip_prefix("    ")
                            .and_then(|l| l.strip_prefix(name.as_str()))
                            .is_some_and(|rest| rest.trim_start() == "= (sensitive value)")),
                        "{here}: {name} not hidden:\n{got}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked > 10,
        "{checked} resources with sensitive attributes checked"
    );
}

/// Removes `sensitive_values` from every resource of a state's module tree.
fn strip(module: &mut Value) {
    for r in module["resources"].as_array_mut().into_iter().flatten() {
        r.as_object_mut().unwrap().remove("sensitive_values");
    }
    for m in module["child_modules"].as_array_mut().into_iter().flatten() {
        strip(m);
    }
}

/// The first top-level attribute the schema types as a number and a change's `after`
/// holds a number in: (change index, attribute name).
fn number_attribute(schemas: &Value, changes: &[Value]) -> Option<(usize, String)> {
    changes.iter().enumerate().find_map(|(i, rc)| {
        let after = &rc["change"]["after"];
        let b = block(
            schemas,
            rc["provider_name"].as_str()?,
            rc["mode"].as_str()?,
            rc["type"].as_str()?,
        );
        b["attributes"].as_object()?.iter().find_map(|(n, a)| {
            (a["type"] == "number" && after[n].is_number()).then(|| (i, n.clone()))
        })
    })
}

/// `plan summary --schemas` decodes every resource value of the plan with its schema: every
/// real-client plan conforms and summarises exactly as without the schemas; a plan whose
/// value does not conform is rejected (exit 1) naming the resource, the value, the path and
/// the byte of the offending value, with nothing summarised; and a resource type the
/// schemas lack is an error too.
#[test]
fn plan_summary_with_schemas_checks_every_value() {
    let (mut plans, mut mutated) = (0, 0);
    for dir in scenarios() {
        let plan_path = dir.join("plan.json");
        if !plan_path.is_file() {
            continue;
        }
        let schemas_path = dir.join("schemas.json");
        let (pp, sc) = (plan_path.to_string_lossy(), schemas_path.to_string_lossy());
        for format in ["table", "json", "markdown"] {
            let plain = run(&["plan", "summary", "--format", format, &pp], b"");
            let typed = run(
                &["plan", "summary", "--format", format, "--schemas", &sc, &pp],
                b"",
            );
            assert_eq!(plain, typed, "{pp} --format {format}");
            assert_eq!(typed.0, 0, "{pp}: {}", typed.2);
        }
        plans += 1;

        let schemas = read_json(&schemas_path);
        let mut plan = read_json(&plan_path);
        let changes = plan["resource_changes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let Some((i, name)) = number_attribute(&schemas, &changes) else {
            continue;
        };
        let marker = "tfwire-not-a-number";
        plan["resource_changes"][i]["change"]["after"][&name] = json!(marker);
        let text = serde_json::to_string(&plan).unwrap();
        let at = text.find(&format!("\"{marker}\"")).unwrap();
        let bad = temp("bad-plan.json", &plan);
        let (code, out, err) = run(&["plan", "summary", "--schemas", &sc, &bad], b"");
        assert_eq!(code, 1, "{pp}: {err}");
        assert_eq!(out, "", "{pp}: summarised a rejected plan");
        let address = changes[i]["address"].as_str().unwrap();
        let want = format!(
            "error: {bad}: resource_changes {address} (change.after): does not conform to the schema in {sc}: \
             .{name}: a number is required, found \"{marker}\" (at byte {at})\n"
        );
        assert_eq!(err, want, "{pp}");
        mutated += 1;

        let none = temp(
            "no-schemas.json",
            &json!({"format_version": "1.0", "provider_schemas": {}}),
        );
        let (code, _, err) = run(&["plan", "summary", "--schemas", &none, &pp], b"");
        if changes.is_empty() && plan["planned_values"].is_null() && plan["prior_state"].is_null() {
            assert_eq!(code, 0, "{pp}: {err}");
        } else {
            assert_eq!(code, 1, "{pp}");
            assert!(err.contains(&format!("({none})")), "{pp}: {err}");
        }
    }
    assert!(
        plans > 10 && mutated > 3,
        "{plans} plans, {mutated} mutated"
    );
}

/// `state show --schemas` decodes the values with the schema first: a value that does not
/// conform is an error with its path and byte, and a resource type the schemas lack is an
/// error (tfwire could not tell what is sensitive).
#[test]
fn state_show_with_schemas_rejects_what_it_cannot_type() {
    // The first resource of a real-client state with a number attribute holding a number.
    let (dir, r, name) = scenarios()
        .into_iter()
        .filter(|d| d.join("state.json").is_file())
        .find_map(|dir| {
            let schemas = read_json(&dir.join("schemas.json"));
            let state = read_json(&dir.join("state.json"));
            state_resources(&state).into_iter().find_map(|r| {
                let b = block(
                    &schemas,
                    r["provider_name"].as_str()?,
                    r["mode"].as_str()?,
                    r["type"].as_str()?,
                );
                let name = b["attributes"].as_object()?.iter().find_map(|(n, a)| {
                    (a["type"] == "number" && r["values"][n].is_number()).then(|| n.clone())
                })?;
                Some((dir.clone(), r, name))
            })
        })
        .expect("a state resource with a number attribute");
    let sc = dir.join("schemas.json").to_string_lossy().into_owned();
    let mut state = read_json(&dir.join("state.json"));
    let address = r["address"].as_str().unwrap();
    let marker = "tfwire-not-a-number";
    set_values(
        &mut state["values"]["root_module"],
        address,
        &name,
        json!(marker),
    );
    let text = serde_json::to_string(&state).unwrap();
    let at = text.find(&format!("\"{marker}\"")).unwrap();
    let bad = temp("bad-state.json", &state);
    let (code, out, err) = run(&["state", "show", "--schemas", &sc, &bad, address], b"");
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert_eq!(
        err,
        format!(
            "error: {address}: the values do not conform to the schema in {sc}: .{name}: a \
             number is required, found \"{marker}\" (at byte {at})\n"
        )
    );

    let none = temp(
        "no-schemas-state.json",
        &json!({"format_version": "1.0", "provider_schemas": {}}),
    );
    let st = dir.join("state.json");
    let (code, _, err) = run(
        &[
            "state",
            "show",
            "--schemas",
            &none,
            &st.to_string_lossy(),
            address,
        ],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("{none}: {address}: "))
            && err.contains("cannot tell which attributes are sensitive"),
        "{err}"
    );
}

fn set_values(module: &mut Value, address: &str, name: &str, v: Value) {
    for r in module["resources"].as_array_mut().into_iter().flatten() {
        if r["address"] == address {
            r["values"][name] = v.clone();
        }
    }
    for m in module["child_modules"].as_array_mut().into_iter().flatten() {
        set_values(m, address, name, v.clone());
    }
}

/// With the schemas, a raw state (`terraform.tfstate`: values at `dynamic` positions
/// wrapped as go-cty writes them, `sensitive_attributes` paths) draws every resource as its
/// `show -json` form (`state.json`: plain values, `sensitive_values` trees) does, byte for
/// byte, in every real-client scenario that has both.
#[test]
fn state_show_with_schemas_draws_raw_and_show_json_states_alike() {
    let mut compared = 0;
    for dir in scenarios() {
        let (raw, shown) = (dir.join("terraform.tfstate"), dir.join("state.json"));
        if !raw.is_file() || !shown.is_file() {
            continue;
        }
        let sc = dir.join("schemas.json").to_string_lossy().into_owned();
        let (raw, shown) = (raw.to_string_lossy(), shown.to_string_lossy());
        // The client's rules named, for both forms: a `show -json` state does not say which
        // client wrote it (decision render/terraform/dialect).
        let wording = if dir.parent().unwrap().ends_with("real-client-terraform") {
            "terraform"
        } else {
            "opentofu"
        };
        for r in state_resources(&read_json(Path::new(&*shown))) {
            let address = r["address"].as_str().unwrap();
            let show = |file: &str| {
                run(
                    &[
                        "state",
                        "show",
                        "--wording",
                        wording,
                        "--schemas",
                        &sc,
                        file,
                        address,
                    ],
                    b"",
                )
            };
            let (from_raw, from_shown) = (show(&raw), show(&shown));
            assert_eq!(from_raw.0, 0, "{raw} {address}: {}", from_raw.2);
            assert_eq!(from_raw, from_shown, "{raw} {address}");
            compared += 1;
        }
    }
    assert!(compared > 30, "{compared} resources compared");
}

/// `plan summary --schemas` checks identity values (`identity` of `prior_state` and
/// `planned_values` resources with their `identity_schema_version`, `change.before_identity`,
/// `after_identity`, `importing.identity`) with the resource type's identity schema, and
/// action configurations (`action_invocations[].config_values`) with the action type's
/// schema. The plans are real (terraform-json's and OpenTofu's test data, written by
/// Terraform and OpenTofu); their schemas are the synthetic `kinds.json`, written to the
/// shapes those clients print. Each mutation is rejected naming the value, the path and the
/// byte of the offending value.
#[test]
fn plan_summary_with_schemas_checks_identities_and_action_configurations() {
    let sc = repo()
        .join("corpus/schemas-synthetic/kinds.json")
        .to_string_lossy()
        .into_owned();
    let identity =
        repo().join("corpus/plans/hashicorp__terraform-json/testdata/identity/plan.json");
    let actions = repo().join("corpus/plans/hashicorp__terraform-json/testdata/actions/plan.json");
    let tofu =
        repo().join("corpus/plans/opentofu__opentofu/internal/command/testdata/show-json-identity");
    let mut plans = vec![identity.clone(), actions.clone()];
    for case in ["create", "update", "destroy"] {
        plans.push(tofu.join(case).join("output.json"));
    }
    for p in &plans {
        let pp = p.to_string_lossy();
        let plain = run(&["plan", "summary", &pp], b"");
        let typed = run(&["plan", "summary", "--schemas", &sc, &pp], b"");
        assert_eq!(typed.0, 0, "{pp}: {}", typed.2);
        assert_eq!(plain, typed, "{pp}");
    }

    // (mutation, the offending value's JSON text, where it is, what is said about it)
    type Mutation = fn(&mut Value);
    let cases: [(&Path, &str, Mutation, Option<&str>, &str); 6] = [
        (
            &identity,
            "after",
            |p| {
                p["resource_changes"][0]["change"]["after_identity"] = json!({"email": "a", "x": 1})
            },
            Some(r#""x":1"#),
            "resource_changes corner_user_identity.user (change.after_identity): does not conform to the schema in SC: .x: unsupported attribute \"x\"",
        ),
        (
            &identity,
            "before",
            |p| p["resource_changes"][0]["change"]["before_identity"] = json!({"email": {"at": 1}}),
            Some(r#"{"at":1}"#),
            "resource_changes corner_user_identity.user (change.before_identity): does not conform to the schema in SC: .email: a string is required, found object",
        ),
        (
            &identity,
            "importing",
            |p| {
                p["resource_changes"][0]["change"]["importing"]["identity"] =
                    json!({"email": ["a"]})
            },
            Some(r#"["a"]"#),
            "resource_changes corner_user_identity.user (change.importing.identity): does not conform to the schema in SC: .email: a string is required, found array",
        ),
        (
            &identity,
            "version",
            |p| {
                p["prior_state"]["values"]["root_module"]["resources"][0]["identity_schema_version"] =
                    json!(0)
            },
            None,
            "prior_state corner_user_identity.user (identity): identity_schema_version is 0, the identity schema in SC is version 1",
        ),
        (
            &actions,
            "config",
            |p| p["action_invocations"][0]["config_values"]["ratio"] = json!("half"),
            Some(r#""half""#),
            "action_invocations[0] action.bufo_print.success (config_values): does not conform to the schema in SC: .ratio: a number is required, found \"half\"",
        ),
        (
            &actions,
            "type",
            |p| p["action_invocations"][0]["type"] = json!("bufo_say"),
            None,
            "action_invocations[0] action.bufo_print.success (config_values): (root): invalid schema: \"registry.terraform.io/austinvalle/bufo\" has no action type \"bufo_say\" (at byte 0) (SC)",
        ),
    ];
    for (source, name, mutate, at, want) in cases {
        let mut doc = read_json(source);
        mutate(&mut doc);
        let path = temp(&format!("kinds-{name}.json"), &doc);
        let text = std::fs::read_to_string(&path).unwrap();
        let (code, out, err) = run(&["plan", "summary", "--schemas", &sc, &path], b"");
        assert_eq!(code, 1, "{name}: {out}");
        assert!(out.is_empty(), "{name}: nothing is summarised: {out}");
        let mut want = format!("error: {path}: {}", want.replace("SC", &sc));
        if let Some(value) = at {
            assert_eq!(
                text.matches(value).count(),
                1,
                "{name}: {value} once in {text}"
            );
            want.push_str(&format!(" (at byte {})", text.find(value).unwrap()));
        }
        assert_eq!(err.trim_end(), want, "{name}");
        std::fs::remove_file(&path).unwrap();
    }
}

/// `state show --schemas` checks the instance's identity against the type's identity schema,
/// in a `show -json` state (terraform-json's, written by Terraform) and in a raw state built
/// from it: conforming identities draw the resource; a wrong value, another
/// `identity_schema_version`, or a type without an identity schema is an error.
#[test]
fn state_show_with_schemas_checks_the_identity() {
    let sc = repo()
        .join("corpus/schemas-synthetic/kinds.json")
        .to_string_lossy()
        .into_owned();
    let source =
        repo().join("corpus/states/hashicorp__terraform-json/testdata/identity/state.json");
    let doc = read_json(&source);
    let user = doc["values"]["root_module"]["resources"][1].clone();
    assert_eq!(user["address"], "corner_user.user");
    // The same instance in a raw state (version 4).
    let raw = |identity: &Value, version: u64| {
        json!({"version": 4, "terraform_version": "1.12.0", "serial": 1, "lineage": "l",
            "outputs": {}, "resources": [{"mode": "managed", "type": "corner_user", "name": "user",
            "provider": "provider[\"registry.terraform.io/hashicorp/corner\"]",
            "instances": [{"schema_version": 0, "attributes": user["values"],
                "sensitive_attributes": [], "identity_schema_version": version,
                "identity": identity}]}]})
    };
    let show = |doc: &Value, name: &str| {
        let path = temp(name, doc);
        let got = run(
            &["state", "show", "--schemas", &sc, &path, "corner_user.user"],
            b"",
        );
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        (got, path, text)
    };
    let ((code, shown, err), ..) = show(&doc, "identity-state.json");
    assert_eq!(code, 0, "{err}");
    assert!(
        shown.starts_with("# corner_user.user:\nresource \"corner_user\" \"user\" {"),
        "{shown}"
    );
    let ((code, raw_shown, err), ..) = show(&raw(&user["identity"], 0), "identity-raw.json");
    assert_eq!((code, &raw_shown), (0, &shown), "{err}");

    let bad_identity = json!({"age": 999, "email": "a@example.com", "nickname": "t"});
    let mut bad = doc.clone();
    bad["values"]["root_module"]["resources"][1]["identity"] = bad_identity.clone();
    let mut newer = doc.clone();
    newer["values"]["root_module"]["resources"][1]["identity_schema_version"] = json!(2);
    let cases = [
        (
            bad,
            Some(r#""nickname":"t""#),
            "identity: does not conform to the identity schema: .nickname: unsupported attribute \"nickname\"",
        ),
        (
            raw(&bad_identity, 0),
            Some(r#""nickname":"t""#),
            "identity: does not conform to the identity schema: .nickname: unsupported attribute \"nickname\"",
        ),
        (
            newer,
            None,
            "identity: identity_schema_version is 2, the identity schema is version 0",
        ),
        (
            raw(&user["identity"], 1),
            None,
            "identity: identity_schema_version is 1, the identity schema is version 0",
        ),
    ];
    for (i, (doc, at, want)) in cases.into_iter().enumerate() {
        let ((code, out, err), path, text) = show(&doc, &format!("identity-{i}.json"));
        assert_eq!(code, 1, "{i}: {out}");
        let mut want = format!("error: {sc}: corner_user.user: {want}");
        if let Some(value) = at {
            assert_eq!(text.matches(value).count(), 1, "{i}");
            // The offset of the attribute's name, where the unsupported attribute starts.
            want.push_str(&format!(" (at byte {})", text.find(value).unwrap()));
        }
        assert_eq!(err.trim_end(), want, "{i} ({path})");
    }
    // Another type with an identity schema (of version 1) is checked against its own.
    let mut other = doc.clone();
    let r = &mut other["values"]["root_module"]["resources"][1];
    r["type"] = json!("corner_user_identity");
    r["values"] = json!({"age": 1, "email": "e", "id": "e", "name": "n"});
    r["identity"] = json!({"email": "e"});
    r["identity_schema_version"] = json!(1);
    let ((code, _, err), ..) = show(&other, "identity-other.json");
    assert_eq!(code, 0, "{err}");
    // A type whose identity schema the schemas lack: an identity for it is not described by
    // them (the same instance without an identity is drawn).
    let bigint = |doc: &Value| {
        let path = temp("identity-bigint.json", doc);
        let got = run(
            &[
                "state",
                "show",
                "--schemas",
                &sc,
                &path,
                "corner_bigint.number",
            ],
            b"",
        );
        std::fs::remove_file(&path).unwrap();
        got
    };
    let (code, _, err) = bigint(&doc);
    assert_eq!(code, 0, "{err}");
    let mut number = doc.clone();
    number["values"]["root_module"]["resources"][0]["identity"] = json!({"id": "5"});
    let (code, _, err) = bigint(&number);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {sc}: corner_bigint.number: identity: (root): invalid schema: \"registry.terraform.io/hashicorp/corner\" has no identity schema for resource type \"corner_bigint\" (at byte 0)"
        )
    );
}

/// `state show --schemas` of a raw state is the client's own `state show`, byte for byte: for
/// every scenario of both real-client corpora, every address of `state-list.txt` drawn from
/// `terraform.tfstate` with the scenario's schemas, each followed by a blank line, is
/// `state-show.txt` (what `tofu state show` / `terraform state show` printed for those
/// addresses), the client's rules told from the state itself (`--wording auto`). The default
/// masks are off: they hide values the client prints (decision `mask/defaults`).
#[test]
fn state_show_matches_the_clients_state_show() {
    let (mut compared, mut addresses) = (0, 0);
    let mut failures = Vec::new();
    for dir in scenarios() {
        let oracle = dir.join("state-show.txt");
        if !oracle.is_file() {
            assert!(
                !dir.join("state-list.txt").is_file(),
                "{}: state-list.txt without state-show.txt",
                dir.display()
            );
            continue;
        }
        compared += 1;
        let want = std::fs::read_to_string(&oracle).unwrap();
        let list = std::fs::read_to_string(dir.join("state-list.txt")).unwrap();
        let (sc, raw) = (dir.join("schemas.json"), dir.join("terraform.tfstate"));
        let mut got = String::new();
        for address in list.lines() {
            got.push_str(&state_show(
                &sc.to_string_lossy(),
                &raw.to_string_lossy(),
                address,
            ));
            got.push('\n');
            addresses += 1;
        }
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            failures.push(format!(
                "{}: first difference at line {}: tfwire {:?}, the client {:?}",
                dir.display(),
                line + 1,
                got.lines().nth(line),
                want.lines().nth(line)
            ));
        }
    }
    assert!(
        compared >= 40 && addresses > 100,
        "{compared} scenarios, {addresses} addresses"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `state list` and `state show ADDRESS` read addresses as the clients write them: for every
/// scenario of both real-client corpora, `state list` of the raw state and of the `show
/// -json` state is `state-list.txt` (the client's order: `count` indexes by number, shorter
/// module paths first), and every address of `state-list.txt`, as the client printed it
/// (`k["a$${x}"]`, `k["ctl\u0001x"]`), found in the `show -json` state draws what the
/// client's `state show` printed (`state-show.txt`), for OpenTofu's scenarios (a `show
/// -json` state does not say that Terraform wrote it, so it is drawn with OpenTofu's rules);
/// where the scenario's `show -json` state is not the last state (a failed apply), the raw
/// state alone.
#[test]
fn state_list_and_show_read_the_clients_addresses() {
    let (mut lists, mut addresses) = (0, 0);
    let mut failures = Vec::new();
    for dir in scenarios() {
        let Ok(want_list) = std::fs::read_to_string(dir.join("state-list.txt")) else {
            continue;
        };
        let want_show = std::fs::read_to_string(dir.join("state-show.txt")).unwrap();
        let sc = dir.join("schemas.json").to_string_lossy().into_owned();
        for file in ["terraform.tfstate", "state.json"] {
            let path = dir.join(file);
            if !path.is_file() {
                continue;
            }
            let st = path.to_string_lossy().into_owned();
            let (code, listed, err) = run(&["state", "list", &st], b"");
            lists += 1;
            if file == "state.json" && listed != want_list {
                // The `show -json` state after the apply; the raw state is later.
                continue;
            }
            if code != 0 || listed != want_list {
                failures.push(format!(
                    "{st}: state list: exit {code} {err}\n--- want\n{want_list}--- got\n{listed}"
                ));
                continue;
            }
            let terraform = dir
                .parent()
                .is_some_and(|p| p.ends_with("real-client-terraform"));
            if file == "terraform.tfstate" || terraform {
                // `state_show_matches_the_clients_state_show` draws the raw states.
                continue;
            }
            let mut got = String::new();
            for address in want_list.lines() {
                got.push_str(&state_show(&sc, &st, address));
                got.push('\n');
                addresses += 1;
            }
            if got != want_show {
                failures.push(format!(
                    "{st}: state show of state-list.txt's addresses\n--- want\n{want_show}--- got\n{got}"
                ));
            }
        }
    }
    assert!(
        lists >= 80 && addresses > 100,
        "{lists} lists, {addresses} addresses"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
