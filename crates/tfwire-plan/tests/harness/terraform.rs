//! What Terraform's plan JSON adds beside OpenTofu's: action invocations, deferred changes,
//! `index_unknown`, imports by identity or with an unknown ID, `["create","forget"]`, and
//! identities in states.
//!
//! Two kinds of test: **real** ones read the plans Terraform v1.16.0 wrote in
//! `tests/data/terraform/` (its README says how each was made); **shape** ones feed the
//! model documents written after the shapes of Terraform's `jsonplan` package (the structs
//! `ActionInvocation`, `LifecycleActionTrigger`, `InvokeActionTrigger`,
//! `DeferredActionInvocation`, `DeferredResourceChange`), for the members no real plan here
//! has yet (`deferred_action_invocations`, `calling_resource_address`), and for bad input.

use std::path::PathBuf;
use tfwire_plan::{
    ActionTrigger, ChangeKind, Client, Document, ErrorKind, Parser, Summary, TriggerEvent,
};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/terraform")
        .join(name)
}

fn read(name: &str, file: &str) -> Vec<u8> {
    std::fs::read(fixture(name).join(file)).unwrap()
}

/// Runs `f` on the plan `text`.
fn with_plan<R>(mut text: Vec<u8>, f: impl FnOnce(&tfwire_plan::Plan<'_>) -> R) -> R {
    let arena = bumpalo::Bump::new();
    let tape = Parser::new().parse(&mut text).unwrap();
    let plan = tape.plan(&arena).unwrap();
    f(plan)
}

/// The error of the plan `text`.
fn plan_error(text: &str) -> tfwire_plan::Error {
    let mut text = text.as_bytes().to_vec();
    let arena = bumpalo::Bump::new();
    let tape = Parser::new().parse(&mut text).unwrap();
    tape.plan(&arena).unwrap_err()
}

#[test]
fn real_create_then_forget_counts_as_terraform_counts_it() {
    with_plan(read("create-then-forget", "plan.json"), |plan| {
        assert_eq!(plan.client(), Client::Terraform);
        let rc = plan.resource_change("terraform_data.kept").unwrap();
        assert_eq!(
            rc.change.kind(),
            ChangeKind::ReplaceForget { create_first: true }
        );
        assert_eq!(rc.change.kind().key(), "create+forget");
        assert_eq!(rc.action_reason, Some("replace_because_tainted"));
        let summary = Summary::of(plan);
        assert_eq!(summary.counts.get("create+forget"), 1);
        assert_eq!(summary.forgotten().count(), 1);
        let line = summary.plan_line();
        // Terraform: one to add, and nothing said of the forgotten object.
        assert_eq!((line.add, line.destroy, line.forget), (1, 0, 1));
        assert_eq!(
            line.to_string(),
            "Plan: 1 to add, 0 to change, 0 to destroy."
        );
    });
}

#[test]
fn real_deferred_changes_with_unknown_keys_and_import_ids() {
    with_plan(read("deferred", "plan.json"), |plan| {
        assert_eq!(plan.client(), Client::Terraform);
        assert_eq!((plan.applyable, plan.complete), (Some(true), Some(false)));
        let got: Vec<_> = plan
            .deferred_changes
            .iter()
            .map(|d| {
                let rc = &d.resource_change;
                (
                    d.reason,
                    rc.address,
                    rc.index_unknown,
                    rc.index,
                    rc.change.importing.map(|i| (i.id, i.unknown)),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "instance_count_unknown",
                    "terraform_data.fanout[*]",
                    true,
                    None,
                    None
                ),
                (
                    "resource_config_unknown",
                    "terraform_data.imported",
                    false,
                    None,
                    Some((None, true))
                ),
                (
                    "instance_count_unknown",
                    "terraform_data.later[*]",
                    true,
                    None,
                    None
                ),
            ]
        );
        let summary = Summary::of(plan);
        assert_eq!(summary.deferred.get("create"), 3);
        assert_eq!(summary.counts.get("create"), 1);
        assert_eq!(
            summary.deferred_changes[0].deferred_reason,
            Some("instance_count_unknown")
        );
        // Deferred changes are not on Terraform's `Plan:` line.
        assert_eq!(
            summary.plan_line().to_string(),
            "Plan: 1 to add, 0 to change, 0 to destroy."
        );
        let d: Vec<_> = summary
            .deferred_changes
            .iter()
            .map(|c| {
                (
                    c.address,
                    c.kind.key(),
                    c.index_unknown,
                    c.importing,
                    c.import_unknown,
                    c.deferred_reason,
                )
            })
            .collect();
        assert_eq!(
            d[..2],
            [
                (
                    "terraform_data.fanout[*]",
                    "create".into(),
                    true,
                    false,
                    false,
                    Some("instance_count_unknown")
                ),
                (
                    "terraform_data.imported",
                    "create".into(),
                    false,
                    true,
                    true,
                    Some("resource_config_unknown")
                )
            ]
        );
    });
}

#[test]
fn real_lifecycle_actions_and_an_import_by_identity() {
    with_plan(read("actions-lifecycle", "plan.json"), |plan| {
        assert_eq!(plan.client(), Client::Terraform);
        let triggers: Vec<_> = plan
            .action_invocations
            .iter()
            .map(|ai| {
                let t = ai.lifecycle().unwrap();
                (
                    ai.address,
                    ai.type_name,
                    t.triggering_resource_address,
                    t.event,
                    t.block_index,
                    t.list_index,
                    t.on_failure,
                )
            })
            .collect();
        assert_eq!(
            triggers,
            [
                (
                    "action.tfwire_write.note",
                    "tfwire_write",
                    "tfwire_thing.fresh",
                    Some(TriggerEvent::BeforeCreate),
                    Some(0),
                    Some(0),
                    Some("ActionOnFailureHalt")
                ),
                (
                    "action.tfwire_write.note",
                    "tfwire_write",
                    "tfwire_thing.fresh",
                    Some(TriggerEvent::AfterCreate),
                    Some(0),
                    Some(0),
                    Some("ActionOnFailureHalt")
                ),
            ]
        );
        let config = plan.action_invocations[0].config_view();
        let text = config
            .at(&tfwire_plan::Path::parse(".text").unwrap())
            .unwrap();
        assert_eq!(text.value().and_then(|v| v.as_str()), Some("created"));

        let orphan = plan.resource_change("tfwire_thing.orphan").unwrap();
        let importing = orphan.change.importing.unwrap();
        assert_eq!(importing.id, None);
        assert_eq!(
            importing.identity.unwrap().to_string(),
            r#"{"name":"orphan","zone":"z1"}"#
        );
        assert_eq!(
            orphan.change.before_identity.unwrap().to_string(),
            orphan.change.after_identity.unwrap().to_string()
        );

        let summary = Summary::of(plan);
        let c = summary
            .changes
            .iter()
            .find(|c| c.address == "tfwire_thing.orphan")
            .unwrap();
        assert_eq!(
            c.import_identity.map(|i| i.to_string()).as_deref(),
            Some(r#"{"name":"orphan","zone":"z1"}"#)
        );
        let line = summary.plan_line();
        assert_eq!(line.invoke, 2);
        assert_eq!(
            (c.kind.key(), c.importing, c.import_id),
            ("update".into(), true, None)
        );
        let a = &summary.action_invocations[0];
        assert_eq!(
            (a.address, a.type_name, a.provider_name),
            (
                "action.tfwire_write.note",
                "tfwire_write",
                Some("registry.terraform.io/tfwire/tfwire")
            )
        );
        let Some(ActionTrigger::Lifecycle(t)) = a.trigger else {
            panic!("a lifecycle trigger: {a:?}")
        };
        assert_eq!(
            (
                t.triggering_resource_address,
                t.event.map(|e| e.name()),
                t.on_failure
            ),
            (
                "tfwire_thing.fresh",
                Some("BeforeCreate"),
                Some("ActionOnFailureHalt")
            )
        );
    });
}

#[test]
fn real_invoke_only_plan() {
    with_plan(read("actions-invoke", "plan.json"), |plan| {
        assert!(plan.resource_changes.is_empty());
        let [ai] = plan.action_invocations else {
            panic!("one invocation")
        };
        assert!(ai.is_invoked());
        assert!(matches!(
            ai.trigger,
            Some(ActionTrigger::Invoke {
                calling_resource_address: None,
                ..
            })
        ));
        let line = Summary::of(plan).plan_line();
        assert_eq!(line.shown, 0);
        assert!(line.is_printed());
        assert_eq!(
            line.to_string(),
            "Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke."
        );
    });
}

#[test]
fn real_states_carry_identities() {
    let arena = bumpalo::Bump::new();
    let mut input = read("actions-invoke", "state.json");
    let tape = Parser::new().parse(&mut input).unwrap();
    let Document::State(state) = tape.document(&arena).unwrap() else {
        panic!("a state")
    };
    let ids: Vec<_> = state
        .values
        .unwrap()
        .resources()
        .map(|r| {
            (
                r.address,
                r.identity_schema_version,
                r.identity.map(|i| i.to_string()),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [
            (
                "tfwire_thing.fresh",
                Some(0),
                Some(r#"{"name":"fresh","zone":"z1"}"#.to_string())
            ),
            (
                "tfwire_thing.orphan",
                Some(0),
                Some(r#"{"name":"orphan","zone":"z1"}"#.to_string())
            ),
        ]
    );
    let mut input = read("actions-invoke", "terraform.tfstate");
    let tape = Parser::new().parse(&mut input).unwrap();
    let raw = tape.raw_state(&arena).unwrap();
    let ids: Vec<_> = raw
        .resources
        .iter()
        .flat_map(|r| r.instances.iter())
        .map(|i| (i.identity_schema_version, i.identity.map(|v| v.to_string())))
        .collect();
    assert_eq!(
        ids,
        [
            (Some(0), Some(r#"{"name":"fresh","zone":"z1"}"#.to_string())),
            (
                Some(0),
                Some(r#"{"name":"orphan","zone":"z1"}"#.to_string())
            ),
        ]
    );
}

/// Shape test (Terraform's `jsonplan.DeferredActionInvocation` and `InvokeActionTrigger`
/// with a calling resource; no real plan here has them yet).
#[test]
fn shape_deferred_action_invocations_and_calling_resources() {
    let plan = br#"{"format_version":"1.2","applyable":false,"complete":false,
      "deferred_action_invocations":[{"reason":"deferred_prereq","action_invocation":{
        "address":"action.tfwire_write.later","type":"tfwire_write","name":"later",
        "config_values":{"path":"p"},"config_sensitive":{},"config_unknown":{"text":true},
        "provider_name":"registry.terraform.io/tfwire/tfwire",
        "lifecycle_action_trigger":{"triggering_resource_address":"tfwire_thing.x[*]",
          "action_trigger_event":"AfterUpdate","action_trigger_block_index":1,
          "actions_list_index":2,"on_failure":"ActionOnFailureContinue"}}}],
      "action_invocations":[{"address":"action.tfwire_write.now","type":"tfwire_write",
        "name":"now","invoke_action_trigger":{"calling_resource_address":"tfwire_thing.y"}}]}"#;
    with_plan(plan.to_vec(), |plan| {
        assert_eq!(plan.client(), Client::Terraform);
        let [d] = plan.deferred_action_invocations else {
            panic!("one deferred invocation")
        };
        assert_eq!(d.reason, "deferred_prereq");
        let t = d.action_invocation.lifecycle().unwrap();
        assert_eq!(
            (t.event, t.block_index, t.list_index),
            (Some(TriggerEvent::AfterUpdate), Some(1), Some(2))
        );
        assert_eq!(
            t.event.and_then(|e| e.timing()),
            Some(tfwire_plan::ActionTiming::After)
        );
        // The configurations, of the deferred invocation too (the invoked one has none).
        let mut sites = Vec::new();
        tfwire_plan::decode::visit_action_configs(plan, |site, v| {
            sites.push(format!(
                "{}[{}] {} {} {v}",
                site.section, site.index, site.address, site.type_name
            ));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(
            sites,
            [
                r#"deferred_action_invocations[0] action.tfwire_write.later tfwire_write {"path":"p"}"#
            ]
        );
        let text = d
            .action_invocation
            .config_view()
            .at(&tfwire_plan::Path::parse(".text").unwrap())
            .unwrap();
        assert!(text.is_unknown());
        let summary = Summary::of(plan);
        let [now] = &summary.action_invocations[..] else {
            panic!("one invocation: {summary:?}")
        };
        assert_eq!(
            (now.address, now.type_name, now.provider_name),
            ("action.tfwire_write.now", "tfwire_write", None)
        );
        assert!(matches!(
            now.trigger,
            Some(ActionTrigger::Invoke {
                calling_resource_address: Some("tfwire_thing.y"),
                ..
            })
        ));
        let [later] = &summary.deferred_action_invocations[..] else {
            panic!("one deferred invocation: {summary:?}")
        };
        assert_eq!(
            (later.address, later.provider_name, later.deferred_reason),
            (
                "action.tfwire_write.later",
                Some("registry.terraform.io/tfwire/tfwire"),
                Some("deferred_prereq")
            )
        );
        let Some(ActionTrigger::Lifecycle(t)) = later.trigger else {
            panic!("a lifecycle trigger: {later:?}")
        };
        assert_eq!(
            (
                t.triggering_resource_address,
                t.event.map(|e| e.name()),
                t.on_failure
            ),
            (
                "tfwire_thing.x[*]",
                Some("AfterUpdate"),
                Some("ActionOnFailureContinue")
            )
        );
        assert_eq!(summary.client, Client::Terraform);
        let line = summary.plan_line();
        assert_eq!((line.add, line.invoke, line.is_printed()), (0, 1, true));
        assert_eq!(
            line.to_string(),
            "Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke."
        );
    });
}

/// Shape test: an event Terraform may add later stays as written; an invocation without
/// `address` gets the one its type and name spell; one without a trigger has none.
#[test]
fn shape_unknown_events_spelled_addresses_and_no_trigger() {
    let plan = br#"{"format_version":"1.2","complete":true,"action_invocations":[
      {"type":"t","name":"a","lifecycle_action_trigger":{"triggering_resource_address":"r.x",
        "action_trigger_event":"AfterRefresh","action_trigger_block_index":0,"actions_list_index":0,
        "on_failure":"ActionOnFailureHalt"},"unknown_member":[1,2]},
      {"address":"action.t.b","type":"t","name":"b"}]}"#;
    with_plan(plan.to_vec(), |plan| {
        let [a, b] = plan.action_invocations else {
            panic!("two invocations")
        };
        assert_eq!(a.address, "action.t.a");
        assert_eq!(
            a.lifecycle().unwrap().event,
            Some(TriggerEvent::Other("AfterRefresh"))
        );
        assert_eq!(TriggerEvent::Other("AfterRefresh").timing(), None);
        assert_eq!(
            TriggerEvent::BeforeDestroy.timing(),
            Some(tfwire_plan::ActionTiming::Before)
        );
        // Unknown members stay reachable.
        assert_eq!(a.raw.get("unknown_member").unwrap().to_string(), "[1,2]");
        assert!(b.trigger.is_none() && !b.is_invoked());
        let s = Summary::of(plan);
        let b = &s.action_invocations[1];
        assert_eq!((b.address, b.type_name), ("action.t.b", "t"));
        assert!(b.trigger.is_none() && b.provider_name.is_none());
    });
}

/// Shape test: what the model refuses, with the path and offset of the offending value.
#[test]
fn shape_bad_action_invocations_and_deferred_changes() {
    let e = plan_error(
        r#"{"format_version":"1.2","deferred_changes":[{"reason":"unknown","change":{}}]}"#,
    );
    assert_eq!(e.kind(), &ErrorKind::Missing("resource_change"));
    assert_eq!(e.path().to_string(), ".deferred_changes[0]");

    let e = plan_error(
        r#"{"format_version":"1.2","action_invocations":[{"address":"action.t.n",
          "lifecycle_action_trigger":{"action_trigger_block_index":"one"}}]}"#,
    );
    assert_eq!(
        e.to_string(),
        ".action_invocations[0].lifecycle_action_trigger.action_trigger_block_index: expected a \
         non-negative integer, found a string (at byte 138)"
    );

    let e = plan_error(r#"{"format_version":"1.2","action_invocations":[{"type":"t"}]}"#);
    assert_eq!(e.kind(), &ErrorKind::Missing("address"));

    let e = plan_error(
        r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["create"],
          "importing":{"unknown":"yes"}}}]}"#,
    );
    assert!(
        e.to_string().starts_with(
            ".resource_changes[0].change.importing.unknown: expected a bool, found a string"
        ),
        "{e}"
    );
}
