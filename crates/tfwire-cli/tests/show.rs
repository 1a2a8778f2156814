//! `tfwire plan show` and `tfwire state list|show` as a user runs them.

mod common;

use common::*;

/// A replacement with unknown, sensitive, nested, created and deleted values.
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

#[test]
fn plan_show_unknown_and_sensitive_nested_values() {
    let (code, out, err) = run(
        &["plan", "show", "-", "aws_db_instance.main"],
        PLAN.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        r#"  # aws_db_instance.main must be replaced (destroyed, then created)
  # (because replace_because_cannot_update)
-/+ resource "aws_db_instance" "main" {
      ~ id       = "db-1" -> (known after apply)
      ~ password = (sensitive value)
      ~ tags     = {
          ~ env = (sensitive value) # forces replacement
            # (1 unchanged attribute hidden)
        }
      ~ ingress  = [
          ~ {
              ~ cidr_blocks = [
                  + "192.168.0.0/16",
                    # (1 unchanged element hidden)
                ]
                # (1 unchanged attribute hidden)
            },
        ]
      ~ endpoint = "db-1.example" -> (known after apply)
      - old      = "gone" -> null
      + new      = {
          + k = "v"
        }
      + status   = {
          + address = (known after apply)
          + ports   = [
              + (known after apply),
            ]
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
    let (code, out, err) = run(
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
    assert_eq!(code, 0, "{err}");
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
    let (code, out, err) = run(
        &["plan", "show", &plan, "tfcoremock_nested_set.nested_set"],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        r#"  # tfcoremock_nested_set.nested_set will be updated in-place
  ~ resource "tfcoremock_nested_set" "nested_set" {
      ~ sets = [
          ~ [
              - "7E90963C-BE32-4411-B9DD-B02E7FE75766",
                # (1 unchanged element hidden)
            ],
          ~ [
              ~ "9373D62D-1BF0-4F17-B100-7C0FBE368ADE" -> "7E90963C-BE32-4411-B9DD-B02E7FE75766",
            ],
          ~ [
              + "9373D62D-1BF0-4F17-B100-7C0FBE368ADE",
            ],
        ]
        # (1 unchanged attribute hidden)
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
            assert!(text.contains(&format!("# {addr} ")), "{p} {addr}: {text}");
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
    let (code, out, err) = run(
        &["plan", "show", "-", "aws_db_instance.replica"],
        PLAN.as_bytes(),
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: <stdin>: no resource change has the address \"aws_db_instance.replica\"\n\
         did you mean:\n  aws_db_instance.replica[0]\n\
         (`tfwire plan summary -` lists every address)\n"
    );
    let (code, _, err) = run(
        &["plan", "show", "-", "aws_db_instanse.mian"],
        PLAN.as_bytes(),
    );
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
        let (code, out, err) = run(&["state", "list", "-"], state.as_bytes());
        assert_eq!(code, 0, "{kind}: {err}");
        assert_eq!(
            out, "aws_db_instance.main\nmodule.net.data.aws_vpc.this\n",
            "{kind}"
        );

        let (code, out, err) = run(
            &["state", "show", "-", "aws_db_instance.main"],
            state.as_bytes(),
        );
        assert_eq!(code, 0, "{kind}: {err}");
        assert_eq!(
            out,
            "# aws_db_instance.main:\n\
             resource \"aws_db_instance\" \"main\" {\n    \
                 id       = \"db-1\"\n    \
                 password = (sensitive value)\n    \
                 tags     = {\n        \
                     env  = (sensitive value)\n        \
                     team = \"data\"\n    \
                 }\n    \
                 ports    = [\n        \
                     5432,\n        \
                     (sensitive value),\n    \
                 ]\n\
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

#[test]
fn state_show_raw_fixture_with_deposed_and_tainted_objects() {
    let (code, out, err) = run(
        &[
            "state",
            "show",
            &fixture("raw-v4.tfstate"),
            "aws_instance.web[1]",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "# aws_instance.web[1]: (tainted)\n\
         resource \"aws_instance\" \"web\" {\n    id   = \"i-1\"\n    ami  = \"ami-123\"\n    tags = {}\n}\n\
         \n\
         # aws_instance.web[1]: (deposed object 00000001)\n\
         resource \"aws_instance\" \"web\" {\n    id   = \"i-old\"\n    ami  = \"ami-000\"\n    tags = {}\n}\n"
    );
    // A version 3 state: flat attributes.
    let (code, list, err) = run(&["state", "list", &fixture("raw-v3.tfstate")], b"");
    assert_eq!(code, 0, "{err}");
    let first = list.lines().next().unwrap();
    let (code, out, err) = run(&["state", "show", &fixture("raw-v3.tfstate"), first], b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!("# {first}: (version 3 state: flat attributes)\n")),
        "{out}"
    );
    // Every corpus state lists and shows its first resource.
    let mut shown = 0;
    for e in walk(&repo().join("corpus/states")) {
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

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}
