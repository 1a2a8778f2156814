//! Parts of the model read from real corpus plans: configuration, checks, replace paths,
//! identities, redacted plans; and the limits.

use crate::corpus::corpus_dir;
use tfwire_plan::config::ExpressionItem;
use tfwire_plan::{Action, ChangeKind, CheckStatus, Document, Index, Mode, Parser, Path, Summary};

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(rel)).unwrap()
}

#[test]
fn configuration_module_calls_resources_providers_references() {
    let mut input =
        read("plans/opentofu__opentofu/internal/command/testdata/show-json/modules/output.json");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let config = plan.configuration.unwrap();
    let root = config.root_module().unwrap();

    let calls: Vec<_> = root
        .module_calls()
        .map(|(name, c)| (name, c.source()))
        .collect();
    assert_eq!(
        calls,
        [
            ("module_test_bar", Some("./bar")),
            ("module_test_foo", Some("./foo"))
        ]
    );
    let (_, foo) = root.module_calls().nth(1).unwrap();
    let Some(ExpressionItem::Expression(arg)) = foo.expressions().unwrap().get("test_var") else {
        panic!("test_var is an expression")
    };
    assert_eq!(arg.constant_value().unwrap().as_str(), Some("baz"));

    let res = foo.module().unwrap().resources().next().unwrap();
    assert_eq!(res.address(), Some("test_instance.test"));
    assert_eq!(res.mode(), Some(Mode::Managed));
    assert_eq!(res.schema_version(), Some(0));
    assert_eq!(
        res.count_expression()
            .unwrap()
            .constant_value()
            .unwrap()
            .as_u64(),
        Some(3)
    );
    assert_eq!(res.expressions().unwrap().references(), ["var.test_var"]);
    let key = res.provider_config_key().unwrap();
    assert_eq!(key, "module.module_test_foo:test");
    let provider = config.provider_config(key).unwrap();
    assert_eq!(
        provider.full_name(),
        Some("registry.opentofu.org/hashicorp/test")
    );
    assert_eq!(provider.module_address(), Some("module.module_test_foo"));
    assert_eq!(config.provider_configs().count(), 2);

    let outputs: Vec<_> = root.outputs().map(|(name, _)| name).collect();
    assert_eq!(outputs, ["test"]);
}

#[test]
fn checks_from_a_real_plan() {
    let mut input = read("plans/hashicorp__terraform-json/testdata/has_checks/plan.json");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    assert_eq!(plan.checks.len(), 1);
    let check = &plan.checks[0];
    assert_eq!(check.status, Some(CheckStatus::Pass));
    assert_eq!(check.address.kind, Some("resource"));
    assert_eq!(check.address.module, Some("module.files"));
    let keys: Vec<_> = check
        .instances
        .iter()
        .map(|i| i.address.instance_key)
        .collect();
    assert_eq!(
        keys,
        [Some(Index::Str("file1.txt")), Some(Index::Str("file2.txt"))]
    );
}

#[test]
fn replace_paths_with_mixed_steps_walk_the_merged_view() {
    let mut input =
        br#"{"format_version":"1.0","resource_changes":[{"address":"t.x","mode":"managed",
      "type":"t","name":"x","change":{"actions":["create","delete"],
      "before":{"list":[{"id":"a"},{"id":"b"}],"map":{"key two":{"id":"c"}}},
      "after":{"list":[{"id":"a"},{"id":null}],"map":{"key two":{"id":"d"}}},
      "after_unknown":{"list":[{},{"id":true}],"map":{"key two":{}}},
      "before_sensitive":{},"after_sensitive":{},
      "replace_paths":[["list",1,"id"],["map","key two","id"]]},
      "action_reason":"replace_because_cannot_update"}]}"#
            .to_vec();
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let change = plan.resource_changes[0].change;
    assert_eq!(change.kind(), ChangeKind::Replace { create_first: true });
    assert_eq!(change.actions, [Action::Create, Action::Delete]);
    let paths: Vec<String> = change.replace_paths.iter().map(|p| p.to_string()).collect();
    assert_eq!(paths, [".list[1].id", r#".map["key two"].id"#]);
    let after = change.after_view();
    let before = change.before_view();
    let p0 = change.replace_paths[0].to_path();
    assert!(after.at(&p0).unwrap().is_unknown());
    assert_eq!(before.at(&p0).unwrap().value().unwrap().as_str(), Some("b"));
    let p1 = change.replace_paths[1].to_path();
    assert_eq!(after.at(&p1).unwrap().value().unwrap().as_str(), Some("d"));
    assert_eq!(p1, Path::parse(r#".map["key two"].id"#).unwrap());
}

#[test]
fn identities_and_importing_from_a_real_plan() {
    let mut input = read("plans/hashicorp__terraform-json/testdata/identity/plan.json");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let rc = &plan.resource_changes[0];
    assert!(rc.change.importing.is_some());
    assert!(rc.change.importing.unwrap().identity.is_some());
    assert!(rc.change.before_identity.is_some() || rc.change.after_identity.is_some());
    let summary = Summary::of(plan);
    assert_eq!(summary.imported().count(), 1);
}

#[test]
fn redacted_plans_read_with_their_plan_format_version() {
    let mut input =
        read("plans/opentofu__opentofu/internal/cloud/testdata/plan-json-full/plan-redacted.json");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    assert!(plan.is_redacted());
    assert_eq!(plan.format_version, None);
    assert_eq!(plan.plan_format_version, Some("1.1"));
    assert_eq!(plan.provider_format_version, Some("1.0"));
    assert_eq!(plan.version().map(|v| v.to_string()), Some("1.1".into()));
    assert!(plan.provider_schemas.is_some());
    assert!(!plan.resource_changes.is_empty());
    assert_eq!(Summary::of(plan).format_version, Some("1.1"));
}

#[test]
fn forget_plan_from_checkov() {
    let mut input = read(
        "plans/bridgecrewio__checkov/tests/terraform/runner/resources/plan_forget_action/tfplan.json",
    );
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let Document::Plan(plan) = tape.document(&arena).unwrap() else {
        panic!("a plan")
    };
    let rc = &plan.resource_changes[0];
    assert_eq!(rc.change.kind(), ChangeKind::Forget);
    assert_eq!(rc.change.after_sensitive.unwrap().as_bool(), Some(false));
    let planned: Vec<_> = plan.planned_values.unwrap().resources().collect();
    assert!(planned.iter().any(|r| r.values.is_none()));
}

#[test]
fn nesting_depth_is_limited() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes();
    let mut ok = deep(1000);
    assert!(Parser::new().parse(&mut ok).is_ok());
    let mut too_deep = deep(1100);
    let err = Parser::new().parse(&mut too_deep).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("(root): invalid JSON: arrays and objects nested deeper than 1024 levels"),
        "{err}"
    );

    // A deep value inside a change walks without trouble.
    let value = format!("{}1{}", r#"{"a":"#.repeat(900), "}".repeat(900));
    let mut input = format!(
        r#"{{"resource_changes":[{{"address":"t.x","mode":"managed","type":"t","name":"x",
            "change":{{"actions":["create"],"after":{value},"after_unknown":{{}}}}}}]}}"#
    )
    .into_bytes();
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let mut leaves = 0;
    plan.resource_changes[0]
        .change
        .after_view()
        .for_each_leaf(|path, leaf| {
            leaves += 1;
            assert_eq!(path.steps().len(), 900);
            assert_eq!(leaf.value().unwrap().as_u64(), Some(1));
        });
    assert_eq!(leaves, 1);
}

/// `visit_identities` and `visit_action_configs` on plans real clients wrote
/// (terraform-json's and OpenTofu's test data): every identity value with its role, section
/// and `identity_schema_version`, every action configuration with its type and provider, as
/// the documents hold them (read by walking the untyped JSON, not the model).
#[test]
fn identities_and_action_configurations_are_visited() {
    use tfwire_plan::Json;
    fn path_of<'a>(root: Json<'a>, keys: &[&str]) -> Option<Json<'a>> {
        keys.iter()
            .try_fold(root, |v, k| v.get(k))
            .filter(|v| !v.is_null())
    }
    use tfwire_plan::decode::{ValueRole, visit_action_configs, visit_identities};
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/plans");
    let plans = [
        "hashicorp__terraform-json/testdata/identity/plan.json",
        "hashicorp__terraform-json/testdata/actions/plan.json",
        "opentofu__opentofu/internal/command/testdata/show-json-identity/update/output.json",
        "opentofu__opentofu/internal/command/testdata/show-json-identity/destroy/output.json",
    ];
    let (mut identities, mut actions) = (0, 0);
    for rel in plans {
        let mut input = std::fs::read(corpus.join(rel)).unwrap();
        let tape = tfwire_plan::Parser::new().parse(&mut input).unwrap();
        let root = tape.root();
        // What the document holds, by walking it.
        let mut want = Vec::new();
        for (section, keys) in [
            (
                "prior_state",
                &["prior_state", "values", "root_module", "resources"][..],
            ),
            (
                "planned_values",
                &["planned_values", "root_module", "resources"][..],
            ),
        ] {
            let Some(list) = path_of(root, keys).and_then(|l| l.as_array()) else {
                continue;
            };
            for r in list.iter() {
                if let Some(id) = path_of(r, &["identity"]) {
                    let version = r.get("identity_schema_version").and_then(|v| v.as_u64());
                    let address = r.get("address").and_then(|a| a.as_str()).unwrap();
                    want.push((
                        section,
                        "identity",
                        address.to_owned(),
                        id.to_string(),
                        version,
                    ));
                }
            }
        }
        for rc in path_of(root, &["resource_changes"])
            .and_then(|l| l.as_array())
            .iter()
            .flat_map(|a| a.iter())
        {
            let address = rc.get("address").and_then(|a| a.as_str()).unwrap();
            for (member, keys) in [
                (
                    "change.importing.identity",
                    &["change", "importing", "identity"][..],
                ),
                ("change.before_identity", &["change", "before_identity"][..]),
                ("change.after_identity", &["change", "after_identity"][..]),
            ] {
                if let Some(v) = path_of(rc, keys) {
                    want.push((
                        "resource_changes",
                        member,
                        address.to_owned(),
                        v.to_string(),
                        None,
                    ));
                }
            }
        }
        let arena = bumpalo::Bump::new();
        let doc = tape.document(&arena).unwrap();
        let mut got = Vec::new();
        visit_identities(&doc, |site, v| {
            assert_ne!(site.role, ValueRole::Values);
            got.push((
                site.section,
                site.role.member(),
                site.address.to_string(),
                v.to_string(),
                site.schema_version,
            ));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(got, want, "{rel}");
        identities += got.len();

        let mut want = Vec::new();
        for ai in path_of(root, &["action_invocations"])
            .and_then(|l| l.as_array())
            .iter()
            .flat_map(|a| a.iter())
        {
            let text = |k: &str| ai.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            want.push((
                text("address").unwrap(),
                text("type").unwrap(),
                text("provider_name"),
                ai.get("config_values").unwrap().to_string(),
            ));
        }
        let tfwire_plan::Document::Plan(plan) = doc else {
            panic!("{rel}: a plan")
        };
        let mut got = Vec::new();
        visit_action_configs(plan, |site, v| {
            assert_eq!(site.section, "action_invocations");
            got.push((
                site.address.to_owned(),
                site.type_name.to_owned(),
                site.provider_name.map(str::to_owned),
                v.to_string(),
            ));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(got, want, "{rel}");
        actions += got.len();
    }
    assert!(identities > 6, "{identities} identities");
    assert_eq!(actions, 1);
}
