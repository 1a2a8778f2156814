//! `tfwire plan show` and `tfwire state list|show` as a user runs them.

use crate::common::*;

/// A replacement with unknown, sensitive, nested, created and deleted values (no schemas:
/// every top-level attribute is drawn as a `dynamic` one).
const PLAN: &str = r#"{"format_version":"1.2","terraform_version":"1.9.8","resource_changes":[
 {"address":"aws_db_instance.main","mode":"managed","type":"aws_db_instance","name":"main",
  "change":{"actions":["delete","create"],
   "before":{"id":"db-1","engine":"postgres","password":"hunter2","tags":{"env":"dev","team":"data"},
             "ingress":[{"cidr_blocks":["10.0.0.0/8"],"port":5432}],"endpoint":"db-1.example","old":"gone"},
   "after":{"engine":"postgres","password":"correct-horse","tags":{"env":"prod","team":"data"},
            "ingress":[{"cidr_blocks":["10.0.0.0/8","192.168.0.0/16"],"port":5432}],"new":{"k":"v"}},
   "after_unknown":{"id":true,"endpoint":true,"tags":{},"ingress":[{"cidr_blocks":[false,false]}],
                    "status":{"address":true,"ports":[true]}},
   "before_sensitive":{"password":true,"tags":{}},
   "after_sensitive":{"password":true,"tags":{"env":true}},
   "replace_paths":[["tags","env"]]},
  "action_reason":"replace_because_cannot_update"},
 {"address":"aws_db_instance.replica[0]","mode":"managed","type":"aws_db_instance","name":"replica",
  "index":0,"change":{"actions":["create"],"before":null,"after":{"a":1},"after_unknown":{"id":true},
  "before_sensitive":false,"after_sensitive":false}}]}"#;

/// `tfwire plan show - ADDRESS` of [`PLAN`]: the exit code, standard output and standard
/// error.
fn show_plan(address: &str) -> (i32, String, String) {
    run(&["plan", "show", "-", address], PLAN.as_bytes())
}

#[test]
fn plan_show_unknown_and_sensitive_nested_values() {
    let (code, out, err) = show_plan("aws_db_instance.main");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        r#"  # aws_db_instance.main must be replaced
-/+ resource "aws_db_instance" "main" {
      ~ endpoint = "db-1.example" -> (known after apply)
      ~ id       = "db-1" -> (known after apply)
      ~ ingress  = [
          ~ {
              ~ cidr_blocks = [
                    "10.0.0.0/8",
                  + "192.168.0.0/16",
                ]
                # (1 unchanged attribute hidden)
            },
        ]
      + new      = {
          + k = "v"
        }
      - old      = "gone" -> null
      ~ password = (sensitive value)
      ~ tags     = {
          # Warning: this attribute value will be marked as sensitive and will not
          # display in UI output after applying this change.
          ~ env  = (sensitive value)
            team = "data"
        }
        # (1 unchanged attribute hidden)
    }
"#
    );
    // --all shows the unchanged values too; sensitive values never.
    let (code, all, _) = run(
        &["plan", "show", "--all", "-", "aws_db_instance.main"],
        PLAN.as_bytes(),
    );
    assert_eq!(code, 0);
    assert!(all.contains("        engine   = \"postgres\"\n"), "{all}");
    assert!(all.contains("            team = \"data\"\n"), "{all}");
    for out in [&out, &all] {
        assert!(
            !out.contains("hunter2") && !out.contains("correct-horse") && !out.contains("prod")
        );
    }
}

#[test]
fn plan_show_json() {
    let out = ok(
        &[
            "plan",
            "show",
            "--format",
            "json",
            "-",
            "aws_db_instance.main",
        ],
        PLAN.as_bytes(),
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["action"], "replace");
    assert_eq!(v["replace_paths"], serde_json::json!([["tags", "env"]]));
    let d = &v["diff"]["attributes"];
    assert_eq!(
        d["id"],
        serde_json::json!({"op":"update","before":"db-1","after_unknown":true})
    );
    assert_eq!(
        d["password"],
        serde_json::json!({"op":"update","before_sensitive":true,"after_sensitive":true})
    );
    // One side sensitive: both hidden, as Terraform hides them.
    assert_eq!(
        d["tags"]["attributes"]["env"],
        serde_json::json!({"op":"update","forces_replacement":true,"before_sensitive":true,"after_sensitive":true})
    );
    assert_eq!(
        d["ingress"]["elements"][0]["attributes"]["cidr_blocks"]["elements"][1],
        serde_json::json!({"op":"create","before":null,"after":"192.168.0.0/16"})
    );
    assert_eq!(
        d["status"]["attributes"]["ports"]["elements"][0]["after_unknown"],
        true
    );
    assert!(!out.contains("hunter2") && !out.contains("correct-horse") && !out.contains("prod"));
}

#[test]
fn plan_show_real_plans() {
    let plan = corpus(
        "plans/opentofu__opentofu/testing/equivalence-tests/outputs/nested_set_update/plan.json",
    );
    let out = ok(
        &["plan", "show", &plan, "tfcoremock_nested_set.nested_set"],
        b"",
    );
    assert_eq!(
        out,
        r#"  # tfcoremock_nested_set.nested_set will be updated in-place
  ~ resource "tfcoremock_nested_set" "nested_set" {
        id   = "510598F6-83FE-4090-8986-793293E90480"
      ~ sets = [
          - [
              - "29B6824A-5CB6-4C25-A359-727BAFEF25EB",
              - "7E90963C-BE32-4411-B9DD-B02E7FE75766",
            ],
          + [
              + "29B6824A-5CB6-4C25-A359-727BAFEF25EB",
            ],
          + [
              + "7E90963C-BE32-4411-B9DD-B02E7FE75766",
            ],
            [
                "9373D62D-1BF0-4F17-B100-7C0FBE368ADE",
            ],
          - [],
        ]
    }
"#
    );
    // Every change of every real plan can be shown, in both formats.
    let mut shown = 0;
    for path in plan_files() {
        let p = path.to_string_lossy();
        let doc = read_json(&path);
        for rc in doc["resource_changes"]
            .as_array()
            .into_iter()
            .flatten()
            .take(3)
        {
            let Some(addr) = rc["address"].as_str() else {
                continue;
            };
            let (code, text, err) = run(&["plan", "show", &p, addr], b"");
            assert_eq!(code, 0, "{p} {addr}: {err}");
            // Plain no-op changes print nothing, as `tofu show` shows nothing for them.
            assert!(text.is_empty() || text.contains(addr), "{p} {addr}: {text}");
            let (code, json, err) = run(&["plan", "show", "--format", "json", &p, addr], b"");
            assert_eq!(code, 0, "{p} {addr}: {err}");
            for line in json.lines() {
                serde_json::from_str::<serde_json::Value>(line).unwrap();
            }
            shown += 1;
        }
    }
    assert!(shown > 500, "{shown}");
}

#[test]
fn plan_show_missing_address_suggests() {
    let (code, out, err) = show_plan("aws_db_instance.replica");
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: <stdin>: no resource change has the address \"aws_db_instance.replica\"\n\
         did you mean:\n  aws_db_instance.replica[0]\n\
         (`tfwire plan summary -` lists every address)\n"
    );
    let (code, _, err) = show_plan("aws_db_instanse.mian");
    assert_eq!(code, 1);
    assert!(
        err.contains("did you mean:\n  aws_db_instance.main\n"),
        "{err}"
    );
    // A state is not a plan.
    let state = corpus("states/hashicorp__terraform-json/testdata/110_sensitive_values/state.json");
    let (code, _, err) = run(&["plan", "show", &state, "x.y"], b"");
    assert_eq!(code, 1);
    assert!(
        err.ends_with(": expected a plan, but this is a state (terraform show -json)\n"),
        "{err}"
    );
}

const SHOW_JSON_STATE: &str = r#"{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{
 "resources":[{"address":"aws_db_instance.main","mode":"managed","type":"aws_db_instance","name":"main",
   "provider_name":"registry.terraform.io/hashicorp/aws","schema_version":1,
   "values":{"id":"db-1","password":"hunter2","tags":{"env":"prod","team":"data"},"ports":[5432,"secret-port"]},
   "sensitive_values":{"password":true,"tags":{"env":true},"ports":[false,true]}}],
 "child_modules":[{"address":"module.net","resources":[{"address":"module.net.data.aws_vpc.this",
   "mode":"data","type":"aws_vpc","name":"this","values":{"id":"vpc-1"},"sensitive_values":false}]}]}}}"#;

const RAW_STATE: &str = r#"{"version":4,"terraform_version":"1.9.8","serial":3,"lineage":"x","outputs":{},
 "resources":[{"mode":"managed","type":"aws_db_instance","name":"main",
   "provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
   "instances":[{"schema_version":1,
     "attributes":{"id":"db-1","password":"hunter2","tags":{"env":"prod","team":"data"},"ports":[5432,"secret-port"]},
     "sensitive_attributes":[[{"type":"get_attr","value":"password"}],
       [{"type":"get_attr","value":"tags"},{"type":"index","value":{"value":"env","type":"string"}}],
       [{"type":"get_attr","value":"ports"},{"type":"index","value":{"value":1,"type":"number"}}]]}]},
  {"module":"module.net","mode":"data","type":"aws_vpc","name":"this","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
   "instances":[{"schema_version":0,"attributes":{"id":"vpc-1"},"sensitive_attributes":[]}]}]}"#;

#[test]
fn state_list_and_show_both_kinds() {
    for (kind, state) in [("show -json", SHOW_JSON_STATE), ("tfstate", RAW_STATE)] {
        let out = ok(&["state", "list", "-"], state.as_bytes());
        assert_eq!(
            out, "aws_db_instance.main\nmodule.net.data.aws_vpc.this\n",
            "{kind}"
        );

        let out = ok(
            &["state", "show", "-", "aws_db_instance.main"],
            state.as_bytes(),
        );
        assert_eq!(
            out,
            "# aws_db_instance.main:\n\
             resource \"aws_db_instance\" \"main\" {\n    \
                 id       = \"db-1\"\n    \
                 password = (sensitive value)\n    \
                 ports    = [\n        \
                     5432,\n        \
                     (sensitive value),\n    \
                 ]\n    \
                 tags     = {\n        \
                     env  = (sensitive value)\n        \
                     team = \"data\"\n    \
                 }\n\
             }\n",
            "{kind}"
        );
        assert!(!out.contains("hunter2") && !out.contains("prod") && !out.contains("secret-port"));

        let (code, out, _) = run(
            &["state", "show", "-", "module.net.data.aws_vpc.this"],
            state.as_bytes(),
        );
        assert_eq!(code, 0);
        assert_eq!(
            out,
            "# module.net.data.aws_vpc.this:\ndata \"aws_vpc\" \"this\" {\n    id = \"vpc-1\"\n}\n",
            "{kind}"
        );

        let (code, out, err) = run(
            &["state", "show", "-", "aws_db_instance.mian"],
            state.as_bytes(),
        );
        assert_eq!((code, out.as_str()), (1, ""), "{kind}");
        assert_eq!(
            err,
            "error: <stdin>: no resource instance has the address \"aws_db_instance.mian\"\n\
             did you mean:\n  aws_db_instance.main\n(`tfwire state list -` lists every address)\n",
            "{kind}"
        );
    }
}

/// The current object only, as both clients print it; with --deposed, the deposed objects
/// after it.
#[test]
fn state_show_raw_fixture_with_deposed_and_tainted_objects() {
    let current = "# aws_instance.web[1]: (tainted)\n\
         resource \"aws_instance\" \"web\" {\n    ami  = \"ami-123\"\n    id   = \"i-1\"\n    tags = {}\n}\n";
    let deposed = "# aws_instance.web[1]: (deposed object 00000001)\n\
         resource \"aws_instance\" \"web\" {\n    ami  = \"ami-000\"\n    id   = \"i-old\"\n    tags = {}\n}\n";
    let show = |extra: &[&str]| {
        let mut args = vec!["state", "show"];
        args.extend_from_slice(extra);
        let raw = fixture("raw-v4.tfstate");
        args.extend_from_slice(&[&raw, "aws_instance.web[1]"]);
        run(&args, b"")
    };
    let (code, out, err) = show(&[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, current);
    let (code, out, err) = show(&["--deposed"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{current}\n{deposed}"));
    // Only a deposed object left: an error (the clients' "No instance found"), unless asked.
    let mut doc = read_json(std::path::Path::new(&fixture("raw-v4.tfstate")));
    for r in doc["resources"].as_array_mut().unwrap() {
        r["instances"]
            .as_array_mut()
            .unwrap()
            .retain(|i| i["index_key"] != 1 || i.get("deposed").is_some());
    }
    let only_deposed = doc.to_string();
    let err = fails(
        &["state", "show", "-", "aws_instance.web[1]"],
        only_deposed.as_bytes(),
    );
    assert_eq!(
        err,
        "error: <stdin>: \"aws_instance.web[1]\" has no current object, only 1 deposed \
         (--deposed shows them)\n"
    );
    let out = ok(
        &["state", "show", "--deposed", "-", "aws_instance.web[1]"],
        only_deposed.as_bytes(),
    );
    assert_eq!(out, deposed);
    // A version 3 state: flat attributes.
    let (code, list, err) = run(&["state", "list", &fixture("raw-v3.tfstate")], b"");
    assert_eq!(code, 0, "{err}");
    let first = list.lines().next().unwrap();
    let out = ok(&["state", "show", &fixture("raw-v3.tfstate"), first], b"");
    assert!(
        out.starts_with(&format!("# {first}: (version 3 state: flat attributes)\n")),
        "{out}"
    );
    // Every corpus state lists and shows its first resource.
    let mut shown = 0;
    for e in files_under(&repo().join("corpus/states")) {
        let p = e.to_string_lossy();
        let (code, list, err) = run(&["state", "list", &p], b"");
        if p.contains("/invalid/") {
            assert_eq!(code, 1, "{p}");
            continue;
        }
        assert_eq!(code, 0, "{p}: {err}");
        if let Some(first) = list.lines().next() {
            let (code, out, err) = run(&["state", "show", &p, first], b"");
            assert_eq!(code, 0, "{p} {first}: {err}");
            assert!(out.starts_with(&format!("# {first}:")), "{p}: {out}");
            shown += 1;
        }
    }
    assert!(shown > 40, "{shown}");
}

/// Every scenario with a `tofu show` oracle: `corpus/real-client/*/` and `corpus/render/*/`
/// directories holding `plan.json` and `plan.txt`.
fn oracle_scenarios() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for root in ["real-client", "render"] {
        let Ok(dir) = std::fs::read_dir(repo().join("corpus").join(root)) else {
            continue;
        };
        for e in dir {
            let p = e.unwrap().path();
            if p.join("plan.json").is_file() && p.join("plan.txt").is_file() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The addresses of a plan document's resource changes, each once, with their previous
/// addresses.
fn change_addresses(plan: &serde_json::Value) -> Vec<(&str, Option<&str>)> {
    let mut addresses: Vec<(&str, Option<&str>)> = Vec::new();
    for rc in plan["resource_changes"].as_array().into_iter().flatten() {
        let address = rc["address"].as_str().unwrap();
        if !addresses.iter().any(|(a, _)| *a == address) {
            addresses.push((address, rc["previous_address"].as_str()));
        }
    }
    addresses
}

/// The section `tofu show` (or `terraform show`) printed for the change at `address`
/// (previously `previous`): from its `  # ADDRESS ...` (or `  # PREVIOUS has moved to ADDRESS`) line to the
/// resource's closing brace, looked for after the "following actions" line (drift comes
/// before it). Several sections (a deposed object and the current one) are joined by a
/// blank line, as `plan show ADDRESS` joins them.
fn expected_sections(txt: &str, address: &str, previous: Option<&str>) -> String {
    let Some(start) = txt.find(" the following actions") else {
        return String::new();
    };
    let lines: Vec<&str> = txt[start..].lines().collect();
    let moved = previous.map(|p| format!("  # {p} has moved to {address}"));
    // Terraform's forget headers have one space before the `#`, the others two.
    let heads = [format!("  # {address} "), format!(" # {address} ")];
    let mut sections = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if heads.iter().any(|h| l.starts_with(h.as_str())) || moved.as_deref() == Some(l) {
            let mut j = i;
            while j < lines.len() && lines[j] != "    }" && lines[j] != "}" {
                j += 1;
            }
            // Terraform draws the actions a change triggers after it, each group after a
            // blank line (two after a group before it): the number of lines up to the
            // group's title, if one follows line `k`.
            let actions = |k: usize| {
                (2..=3).find(|&n| {
                    (1..n).all(|b| lines.get(k + b) == Some(&""))
                        && lines
                            .get(k + n)
                            .is_some_and(|l| l.starts_with("    # Actions to be invoked"))
                })
            };
            while let Some(n) = actions(j) {
                j += n;
                while j + 1 < lines.len() && !lines[j + 1].is_empty() {
                    j += 1;
                }
            }
            sections.push(lines[i..=j.min(lines.len() - 1)].join("\n") + "\n");
            i = j;
        }
        i += 1;
    }
    sections.join("\n")
}

#[test]
fn plan_show_matches_tofu_show() {
    let scenarios = oracle_scenarios();
    assert!(
        !scenarios.is_empty(),
        "no scenario with plan.json and plan.txt under corpus/real-client or corpus/render"
    );
    let mut failures = Vec::new();
    let mut sections = 0;
    for dir in &scenarios {
        let file = |n: &str| dir.join(n).to_string_lossy().into_owned();
        let schemas = dir.join("schemas.json");
        // The identity is with OpenTofu's rendering: the default masks, which hide what
        // OpenTofu shows (`password_wo_version`), are off.
        let mut args = vec![
            "plan".to_string(),
            "show".to_string(),
            "--no-default-masks".to_string(),
        ];
        if schemas.is_file() {
            args.push("--schemas".into());
            args.push(file("schemas.json"));
        }
        args.push(file("plan.json"));
        let want = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, got, err) = run(&argv, b"");
        if code != 0 || got != want {
            failures.push(format!(
                "{}: exit {code}, stderr {err:?}\n--- want\n{want}\n--- got\n{got}",
                dir.display()
            ));
            continue;
        }
        // With colours, where the scenario has OpenTofu's coloured output.
        if let Ok(want) = std::fs::read_to_string(dir.join("plan.color.txt")) {
            let mut argv = argv.clone();
            argv.insert(2, "--color=always");
            let (code, got, err) = run(&argv, b"");
            if code != 0 || got != want {
                failures.push(format!(
                    "{} (colour): exit {code}, stderr {err:?}\n--- want\n{want:?}\n--- got\n{got:?}",
                    dir.display()
                ));
            }
        }
        // Each change on its own, against its section of the whole. Every address of a
        // plan up to 40 changes; of bigger plans (hundreds of resources, each a run of
        // the binary) 40 spread evenly from the first to the last: their sections are
        // already checked as part of the whole above.
        let plan = read_json(&dir.join("plan.json"));
        let mut addresses = change_addresses(&plan);
        const SAMPLE: usize = 40;
        if addresses.len() > SAMPLE {
            let n = addresses.len();
            addresses = (0..SAMPLE)
                .map(|i| addresses[i * (n - 1) / (SAMPLE - 1)])
                .collect();
        }
        for (address, previous) in addresses {
            let expected = expected_sections(&want, address, previous);
            let mut argv = argv.clone();
            argv.push(address);
            let (code, got, err) = run(&argv, b"");
            sections += 1;
            if code != 0 || got != expected {
                failures.push(format!(
                    "{} {address}: exit {code}, stderr {err:?}\n--- want\n{expected}\n--- got\n{got}",
                    dir.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios/sections differ from tofu show:\n{}",
        failures.len(),
        scenarios.len() + sections,
        failures.join("\n")
    );
}

/// `plan show` of every Terraform scenario (`corpus/real-client-terraform/` and
/// `corpus/render-terraform/`), from its JSON and from its plan file where there is one,
/// with no wording flag (the plan says which client wrote it), against `terraform show
/// -no-color` (and `terraform show` with colours where the scenario has them); and each
/// change on its own against its section.
#[test]
fn plan_show_matches_terraform_show() {
    let mut scenarios = Vec::new();
    for root in ["corpus/real-client-terraform", "corpus/render-terraform"] {
        let mut found: Vec<_> = std::fs::read_dir(repo().join(root))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|d| d.join("plan.txt").is_file())
            .collect();
        found.sort();
        scenarios.extend(found);
    }
    assert!(
        scenarios.len() >= 25,
        "{} Terraform scenarios",
        scenarios.len()
    );
    let mut failures = Vec::new();
    for dir in &scenarios {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let file = |n: &str| dir.join(n).to_string_lossy().into_owned();
        let want = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
        let schemas = file("schemas.json");
        let args = |input: &str| {
            vec![
                "plan".to_string(),
                "show".to_string(),
                "--no-default-masks".to_string(),
                "--schemas".to_string(),
                schemas.clone(),
                file(input),
            ]
        };
        for input in ["plan.json", "plan.tfplan"] {
            if !dir.join(input).is_file() {
                continue;
            }
            let argv = args(input);
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let (code, got, err) = run(&argv, b"");
            if code != 0 || got != want {
                failures.push(format!(
                    "{name} {input}: exit {code}, stderr {err:?}\n--- want\n{want}\n--- got\n{got}"
                ));
            }
        }
        if let Ok(want) = std::fs::read_to_string(dir.join("plan.color.txt")) {
            let mut argv = args("plan.json");
            argv.insert(2, "--color=always".into());
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let (code, got, err) = run(&argv, b"");
            if code != 0 || got != want {
                failures.push(format!(
                    "{name} (colour): exit {code}, stderr {err:?}\n--- want\n{want:?}\n--- got\n{got:?}"
                ));
            }
        }
        let plan = read_json(&dir.join("plan.json"));
        let addresses = change_addresses(&plan);
        for (address, previous) in addresses {
            let expected = expected_sections(&want, address, previous);
            let mut argv = args("plan.json");
            argv.push(address.to_string());
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let (code, got, err) = run(&argv, b"");
            if code != 0 || got != expected {
                failures.push(format!(
                    "{name} {address}: exit {code}, stderr {err:?}\n--- want\n{expected}\n--- got\n{got}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ from terraform show:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// An OpenTofu plan drawn as Terraform draws it: with Terraform's words and legend. (The
/// plan changes nothing that the two clients draw differently otherwise.)
#[test]
fn plan_show_in_terraform_words() {
    let dir = repo().join("corpus/render/sensitive");
    let f = |n: &str| dir.join(n).to_string_lossy().into_owned();
    let (code, got, err) = run(
        &[
            "plan",
            "show",
            "--no-default-masks",
            "--wording",
            "terraform",
            "--schemas",
            &f("schemas.json"),
            &f("plan.json"),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let tofu = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    // Terraform's words, and its legend, which does not say `(current -> planned)`.
    assert_eq!(
        got,
        tofu.replace("OpenTofu", "Terraform")
            .replace(" (current -> planned)", "")
    );
    assert!(got.contains("\nTerraform will perform the following actions:\n"));
}

#[test]
fn plan_show_uses_the_schemas_of_a_redacted_plan() {
    let plan = corpus(
        "plans/opentofu__opentofu/internal/cloud/testdata/plan-json-full/plan-redacted.json",
    );
    let out = ok(&["plan", "show", &plan], b"");
    // Nested blocks in block syntax: the embedded schemas were used.
    assert!(
        out.contains(
            "\n      + list_block {\n          + string = \"list_block.one\"\n        }\n"
        ),
        "{out}"
    );
}

/// `plan show ADDRESS` models only what it draws: a member it skips may hold the wrong
/// kind of value (`"planned_values": 12345`) (which `plan show` of the whole plan rejects, with its path and offset);
/// recorded in corpus/conformance/decisions.jsonl (`plan/show-address/unread-members`).
#[test]
fn plan_show_address_skips_members_it_does_not_read() {
    let plan = br#"{"format_version":"1.2","planned_values":12345,"prior_state":"x y z","resource_changes":[
        {"address":"null_resource.a","mode":"managed","type":"null_resource","name":"a",
         "change":{"actions":["create"],"before":null,"after":{"id":"i"},"after_unknown":{}}},
        {"address":"null_resource.b","mode":"managed","type":"null_resource","name":"b",
         "change":{"actions":["create"],"before":null,"after":7,"after_unknown":"?"}}]}"#;
    let out = ok(&["plan", "show", "-", "null_resource.a"], plan);
    assert!(out.contains("# null_resource.a will be created"), "{out}");
    assert!(out.contains("id = \"i\""), "{out}");
    let (code, _, err) = run(&["plan", "show", "-"], plan);
    assert_eq!(code, 1);
    assert_eq!(
        err.lines().next().unwrap(),
        "error: <stdin>: .planned_values: expected an object, found the number 12345 (at byte 41)"
    );
    // Values of 4 bytes or fewer, which the pre-pass cannot overwrite with `null`, are not
    // read either.
    for short in ["5", "true", "[]", "\"ab\"", "1234"] {
        let text = String::from_utf8(plan.to_vec())
            .unwrap()
            .replace("12345", short)
            .replace("\"x y z\"", short);
        let (code, out, err) = run(&["plan", "show", "-", "null_resource.a"], text.as_bytes());
        assert_eq!(code, 0, "{short}: {err}");
        assert!(out.contains("id = \"i\""), "{short}: {out}");
        let (code, _, err) = run(&["plan", "summary", "-"], text.as_bytes());
        assert_eq!(code, 0, "{short}: {err}");
        let (code, _, err) = run(&["plan", "show", "-"], text.as_bytes());
        assert_eq!(code, 1, "{short}");
        assert!(
            err.starts_with("error: <stdin>: .planned_values: expected an object"),
            "{short}: {err}"
        );
    }
    // A syntax error anywhere is refused by both.
    let broken = [&plan[..plan.len() - 1], b"]"].concat();
    for args in [
        &["plan", "show", "-", "null_resource.a"][..],
        &["plan", "show", "-"],
    ] {
        let (code, _, err) = run(args, &broken);
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains("invalid JSON"), "{err}");
    }
    let decisions =
        std::fs::read_to_string(repo().join("corpus/conformance/decisions.jsonl")).unwrap();
    assert!(
        decisions.lines().any(|l| {
            let d: serde_json::Value = serde_json::from_str(l).unwrap();
            d["name"] == "plan/show-address/unread-members" && d["rule"] == "accept"
        }),
        "decisions.jsonl records it"
    );
}

/// Embedded schemas that cannot be loaded are not dropped silently: a warning names the
/// path and byte offset in the plan, and the plan renders as a plan without schemas does.
#[test]
fn plan_show_warns_about_embedded_schemas_it_cannot_load() {
    let plan = std::fs::read_to_string(corpus(
        "plans/opentofu__opentofu/internal/cloud/testdata/plan-json-full/plan-redacted.json",
    ))
    .unwrap();
    let first = plan.find(r#""nesting_mode":"list""#).unwrap();
    let broken = plan.replacen(r#""nesting_mode":"list""#, r#""nesting_mode":"tree""#, 1);
    let (code, out, err) = run(&["plan", "show", "-"], broken.as_bytes());
    assert_eq!(code, 0, "{err}");
    let at = first + r#""nesting_mode":"#.len();
    let path = &err[err.find(".provider_schemas[").unwrap()..err.find(": invalid schema").unwrap()];
    assert_eq!(
        err,
        format!(
            "warning: <stdin>: the embedded provider schemas are not used ({path}: invalid schema: unknown nesting mode \"tree\" (at byte {at})); rendering without them\n"
        )
    );
    assert!(path.ends_with(".nesting_mode"), "{path}");
    // Rendered without schemas: the same text as the plan without its `provider_schemas`.
    let v: serde_json::Value = serde_json::from_str(&broken).unwrap();
    let mut stripped = v.clone();
    stripped.as_object_mut().unwrap().remove("provider_schemas");
    let (code, want, err2) = run(&["plan", "show", "-"], stripped.to_string().as_bytes());
    assert_eq!(code, 0, "{err2}");
    assert_eq!(err2, "");
    assert_eq!(out, want);
    assert!(!out.contains("+ list_block {"), "{out}");
}

/// `tofu state show` records no attribute of a resource that is null, nor one that is the
/// empty string (a block's attribute: OpenTofu takes it for null), and no null member of
/// a nested object; every other attribute is printed, sorted by name as both clients sort
/// them. Checked without the schemas (the values typed from themselves) on every resource
/// of every real-client state against the document read here with serde_json.
#[test]
fn state_show_leaves_out_null_attributes() {
    let root = repo().join("corpus/real-client");
    let (mut shown, mut left_out) = (0, 0);
    for entry in std::fs::read_dir(&root).unwrap() {
        let state = entry.unwrap().path().join("state.json");
        if !state.is_file() {
            continue;
        }
        let doc = read_json(&state);
        let mut resources = Vec::new();
        let mut modules = vec![&doc["values"]["root_module"]];
        while let Some(m) = modules.pop() {
            resources.extend(m["resources"].as_array().into_iter().flatten());
            modules.extend(m["child_modules"].as_array().into_iter().flatten());
        }
        let path = state.to_string_lossy();
        for r in resources {
            let address = r["address"].as_str().unwrap();
            let (code, out, err) = run(&["state", "show", &path, address], b"");
            assert_eq!(code, 0, "{path} {address}: {err}");
            // The top-level attributes are the lines indented by four spaces that assign
            // (not the closing brackets, nor a heredoc's closing `EOT`).
            let printed: Vec<&str> = out
                .lines()
                .filter_map(|l| l.strip_prefix("    "))
                .filter(|l| !l.starts_with(' ') && l.contains(" = "))
                .filter_map(|l| l.split(" =").next())
                .map(str::trim_end)
                .collect();
            let want: Vec<&str> = r["values"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, v)| !v.is_null() && v.as_str() != Some(""))
                .map(|(k, _)| k.as_str())
                .collect();
            let mut sorted = want.clone();
            sorted.sort_unstable();
            assert_eq!(printed, sorted, "{path} {address}:\n{out}");
            left_out += r["values"].as_object().unwrap().len() - want.len();
            shown += want.len();
            assert!(
                !out.lines().any(|l| l.trim_end().ends_with("= null")),
                "{path} {address}: a null member is printed\n{out}"
            );
        }
    }
    assert!(
        shown > 400 && left_out > 200,
        "{shown} shown, {left_out} left out"
    );
}

/// Without --schemas, what the JSON alone tells is still `tofu show`'s: for every
/// real-client scenario, every non-empty line that is not inside a resource body (indented
/// by at most two columns: headers, reasons, moves, the `Plan:` line, outputs) equals the
/// oracle's, in order; and every `# forces replacement` drawn without the schemas is a line
/// of the oracle (but for the alignment).
#[test]
fn plan_show_without_schemas_keeps_what_the_json_tells() {
    fn outline(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| !l.trim().is_empty() && l.len() - l.trim_start_matches(' ').len() <= 2)
            .collect()
    }
    let root = repo().join("corpus/real-client");
    let (mut scenarios, mut forces) = (0, 0);
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        let (plan, oracle) = (dir.join("plan.json"), dir.join("plan.txt"));
        if !plan.is_file() || !oracle.is_file() {
            continue;
        }
        let want = std::fs::read_to_string(&oracle).unwrap();
        let (code, got, err) = run(
            &[
                "plan",
                "show",
                "--no-default-masks",
                &plan.to_string_lossy(),
            ],
            b"",
        );
        assert_eq!(code, 0, "{}: {err}", dir.display());
        assert_eq!(outline(&got), outline(&want), "{}", dir.display());
        // Compared word by word: the alignment of `=` depends on names the JSON lacks.
        fn words(l: &str) -> Vec<&str> {
            l.split_whitespace().collect()
        }
        for line in got.lines().filter(|l| l.ends_with("# forces replacement")) {
            assert!(
                want.lines().any(|w| words(w) == words(line)),
                "{}: {line}",
                dir.display()
            );
            forces += 1;
        }
        scenarios += 1;
    }
    assert!(
        scenarios > 0 && forces > 0,
        "{scenarios} scenarios, {forces} forced"
    );
}

/// `state show` of every address of each `corpus/render-terraform/` state, with its schema
/// and no wording flag (the raw state says Terraform wrote it), against `terraform state
/// show -no-color` (`state-show.txt`: every address in `state list` order).
#[test]
fn state_show_matches_terraform_state_show() {
    let root = repo().join("corpus/render-terraform");
    let mut scenarios: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.join("state-show.txt").is_file())
        .collect();
    scenarios.sort();
    assert!(scenarios.len() >= 4, "{} scenarios", scenarios.len());
    let mut failures = Vec::new();
    for dir in &scenarios {
        let file = |n: &str| dir.join(n).to_string_lossy().into_owned();
        let (state, schemas) = (file("terraform.tfstate"), file("schemas.json"));
        let list = ok(&["state", "list", &state], b"");
        let mut shown = Vec::new();
        for address in list.lines() {
            shown.push(state_show(&schemas, &state, address));
        }
        let got = shown.join("\n");
        let want = std::fs::read_to_string(dir.join("state-show.txt")).unwrap();
        if got != want {
            failures.push(format!(
                "{}\n--- want\n{want}\n--- got\n{got}",
                dir.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Action invocations tfwire cannot draw are errors naming their path: an unknown trigger
/// event, an invocation with no trigger, a list that is not one.
#[test]
fn plan_show_rejects_bad_action_invocations() {
    let dir = repo().join("corpus/render-terraform/actions");
    let schemas = dir.join("schemas.json").to_string_lossy().into_owned();
    let plan = read_json(&dir.join("plan.json"));
    type Edit = dyn Fn(&mut serde_json::Value);
    type Want = dyn Fn(&str) -> String;
    // Each error ends in the byte offset of the offending value: of the event for a bad
    // event (computed from the edited text), of the invocation for a missing trigger.
    let cases: [(&Edit, &Want); 3] = [
        (
            &|p| {
                p["action_invocations"][0]["lifecycle_action_trigger"]["action_trigger_event"] =
                    "Sideways".into()
            },
            &|text| {
                format!(
                    "error: <stdin>: .action_invocations[0].lifecycle_action_trigger.\
                     action_trigger_event: expected one of BeforeCreate, BeforeUpdate, \
                     BeforeDestroy, AfterCreate, AfterUpdate, AfterDestroy, found \"Sideways\" \
                     (at byte {})\n",
                    text.find("\"Sideways\"").unwrap()
                )
            },
        ),
        (
            &|p| {
                p["action_invocations"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("lifecycle_action_trigger");
            },
            &|_| {
                "error: <stdin>: .action_invocations[1]: expected a lifecycle_action_trigger or an \
                 invoke_action_trigger, found neither (at byte "
                    .to_string()
            },
        ),
        (&|p| p["action_invocations"] = 7.into(), &|_| {
            "error: <stdin>: .action_invocations: expected an array, found the number 7 (at byte "
                .to_string()
        }),
    ];
    for (edit, want) in cases {
        let mut p = plan.clone();
        edit(&mut p);
        let text = p.to_string();
        let (code, out, err) = run(
            &["plan", "show", "--schemas", &schemas, "-"],
            text.as_bytes(),
        );
        assert_eq!((code, out.as_str()), (1, ""), "{err}");
        assert!(err.starts_with(&want(&text)), "{err}");
    }
}

/// Terraform's deferred changes: a plan whose only change is deferred says so and draws the
/// change under `Note: This is a partial plan`, with the body `terraform show` draws for it
/// when planned (taken from the `tainted` oracle) under the deferred header.
#[test]
fn plan_show_draws_terraform_deferred_changes() {
    let dir = repo().join("corpus/render-terraform/tainted");
    let schemas = dir.join("schemas.json").to_string_lossy().into_owned();
    let oracle = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    let mut plan = read_json(&dir.join("plan.json"));
    let rc = plan["resource_changes"][0].clone();
    plan["resource_changes"] = serde_json::json!([]);
    plan["deferred_changes"] =
        serde_json::json!([{"reason": "resource_config_unknown", "resource_change": rc}]);
    // The planned section without its header line (it ends in a newline).
    let section = expected_sections(&oracle, "terraform_data.t", None);
    let body = section.split_once('\n').unwrap().1;
    let rule = "─".repeat(77);
    let want = format!(
        "\nNo current changes. This plan requires another plan to be applied first.\n\n\
         \nNote: This is a partial plan, parts can only be known in the next plan / apply cycle.\n\n\
         \n  # terraform_data.t was deferred\n  # (because the resource configuration is unknown)\n\
         {body}\n{rule}\n"
    );
    let out = ok(
        &["plan", "show", "--schemas", &schemas, "-"],
        plan.to_string().as_bytes(),
    );
    assert_eq!(out, want);
}
