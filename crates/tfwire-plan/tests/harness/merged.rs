//! The merged view: each case is a change and what nodes at paths must say.
//!
//! An expectation is `"absent"` or `"<K|U> <N|S> <value JSON or ->"`: known or unknown,
//! not sensitive or sensitive, and the known value (`-` for none).

use tfwire_plan::{Merged, Parser, Path};

struct Case {
    name: &'static str,
    change: &'static str,
    /// (`before` or `after`, path, expectation)
    expect: &'static [(&'static str, &'static str, &'static str)],
}

const CASES: &[Case] = &[
    Case {
        name: "unknown leaves in nested lists, maps and objects",
        change: r#"{"actions":["update"],
            "before":{"id":"i-1"},
            "after":{"id":null,"ingress":[{"cidr_blocks":["10.0.0.0/8",null],"port":80},
                                         {"cidr_blocks":[],"port":443}],
                     "tags":{"env":"prod","owner":null},"settings":{"tier":"gold","size":null}},
            "after_unknown":{"id":true,"ingress":[{"cidr_blocks":[false,true]},{"cidr_blocks":[]}],
                             "tags":{"owner":true},"settings":{"size":true}},
            "before_sensitive":{},"after_sensitive":{}}"#,
        expect: &[
            ("after", ".id", "U N -"),
            ("after", ".ingress[0].cidr_blocks[0]", r#"K N "10.0.0.0/8""#),
            ("after", ".ingress[0].cidr_blocks[1]", "U N -"),
            ("after", ".ingress[0].port", "K N 80"),
            ("after", ".ingress[1].cidr_blocks", "K N []"),
            ("after", ".ingress[1].port", "K N 443"),
            ("after", ".ingress[2]", "absent"),
            ("after", ".ingress[0].cidr_blocks[2]", "absent"),
            ("after", r#".tags["env"]"#, r#"K N "prod""#),
            ("after", r#".tags["owner"]"#, "U N -"),
            ("after", r#".tags["nope"]"#, "absent"),
            ("after", ".settings.tier", r#"K N "gold""#),
            ("after", ".settings.size", "U N -"),
            ("before", ".id", r#"K N "i-1""#),
            ("before", ".ingress", "absent"),
        ],
    },
    Case {
        name: "a whole subtree unknown, absent from after",
        change: r#"{"actions":["create"],"before":null,
            "after":{"name":"web"},
            "after_unknown":{"network":true},
            "before_sensitive":false,"after_sensitive":{}}"#,
        expect: &[
            ("after", ".network", "U N -"),
            ("after", r#".network[0].subnets["a"].cidr"#, "U N -"),
            ("after", ".name", r#"K N "web""#),
            ("after", ".other", "absent"),
            ("before", ".name", "absent"),
        ],
    },
    Case {
        name: "unknown written as null in after",
        change: r#"{"actions":["create"],"before":null,
            "after":{"arn":null,"list":null},
            "after_unknown":{"arn":true,"list":true}}"#,
        expect: &[("after", ".arn", "U N -"), ("after", ".list[3]", "U N -")],
    },
    Case {
        name: "false sensitivity at the top, and missing markers",
        change: r#"{"actions":["update"],
            "before":{"name":"a","tags":{"k":"v"}},"after":{"name":"b","tags":{"k":"v"}},
            "after_unknown":{},"before_sensitive":false,"after_sensitive":false}"#,
        expect: &[
            ("after", ".name", r#"K N "b""#),
            ("after", ".tags.k", r#"K N "v""#),
            ("before", ".name", r#"K N "a""#),
        ],
    },
    Case {
        name: "true sensitivity at the top covers everything",
        change: r#"{"actions":["update"],
            "before":{"name":"a"},"after":{"name":"b","nested":{"deep":[1,2]}},
            "after_unknown":{},"before_sensitive":true,"after_sensitive":true}"#,
        expect: &[
            ("after", ".name", r#"K S "b""#),
            ("after", ".nested.deep[1]", "K S 2"),
            ("after", ".nested.missing", "absent"),
            ("before", ".name", r#"K S "a""#),
        ],
    },
    Case {
        name: "sensitive leaves in nested maps, lists and objects",
        change: r#"{"actions":["update"],
            "before":{"tags":{"env":"dev","team":"a"},"passwords":["p0","p1"],"db":{"creds":{"user":"u0"}}},
            "after":{"tags":{"env":"prod","team":"a"},"passwords":["p1","p2"],
                     "db":{"creds":{"user":"u","pass":"p"},"port":5432}},
            "after_unknown":{},
            "before_sensitive":{"tags":{"env":false},"passwords":[false,true]},
            "after_sensitive":{"tags":{"env":true},"passwords":[true,false],"db":{"creds":true}}}"#,
        expect: &[
            ("after", ".tags.env", r#"K S "prod""#),
            ("after", r#".tags["team"]"#, r#"K N "a""#),
            ("after", ".passwords[0]", r#"K S "p1""#),
            ("after", ".passwords[1]", r#"K N "p2""#),
            ("after", ".db.creds.user", r#"K S "u""#),
            ("after", ".db.creds", r#"K S {"user":"u","pass":"p"}"#),
            ("after", ".db.port", "K N 5432"),
            ("before", ".tags.env", r#"K N "dev""#),
            ("before", ".passwords[0]", r#"K N "p0""#),
            ("before", ".passwords[1]", r#"K S "p1""#),
            ("before", ".db.creds.user", r#"K N "u0""#),
        ],
    },
    Case {
        name: "sensitive and unknown together",
        change: r#"{"actions":["create"],"before":null,
            "after":{"secret":null,"keys":["a",null],"conn":{"host":"h"}},
            "after_unknown":{"secret":true,"keys":[false,true],"conn":{"password":true}},
            "before_sensitive":false,
            "after_sensitive":{"secret":true,"keys":true,"conn":{"password":true}}}"#,
        expect: &[
            ("after", ".secret", "U S -"),
            ("after", ".keys[0]", r#"K S "a""#),
            ("after", ".keys[1]", "U S -"),
            ("after", ".conn.password", "U S -"),
            ("after", ".conn.host", r#"K N "h""#),
        ],
    },
    Case {
        name: "forget: no after, sensitivity false",
        change: r#"{"actions":["forget"],"before":{"id":"x"},"after":null,
            "after_unknown":{},"before_sensitive":{},"after_sensitive":false}"#,
        expect: &[("after", ".id", "absent"), ("before", ".id", r#"K N "x""#)],
    },
    // Markers tfwire cannot read fail closed: they mark the whole value they cover.
    Case {
        name: "malformed markers mark everything they cover",
        change: r#"{"actions":["update"],"before":{"a":1},"after":{"a":2},
            "after_unknown":"yes","before_sensitive":1,"after_sensitive":"no"}"#,
        expect: &[("after", ".a", "U S -"), ("before", ".a", "K S 1")],
    },
    Case {
        name: "malformed leaves of a marker tree",
        change: r#"{"actions":["update"],"before":{"a":1,"b":2,"c":3},"after":{"a":1,"b":2,"c":3},
            "before_sensitive":{"a":"true","b":false,"c":null},"after_sensitive":{"a":1,"b":{},"c":[]}}"#,
        expect: &[
            ("before", ".a", "K S 1"),
            ("before", ".b", "K N 2"),
            ("before", ".c", "K N 3"),
            ("after", ".a", "K S 1"),
            ("after", ".b", "K S 2"),
            ("after", ".c", "K S 3"),
        ],
    },
    Case {
        name: "a marker tree of the wrong shape",
        change: r#"{"actions":["update"],"before":{"o":{"k":"v"},"l":["x"]},"after":{"o":{"k":"v"},"l":["x"]},
            "before_sensitive":{"o":[false],"l":{"0":false}},"after_sensitive":[{"o":false}]}"#,
        expect: &[
            ("before", ".o", r#"K S {"k":"v"}"#),
            ("before", ".l[0]", r#"K S "x""#),
            ("after", ".o.k", r#"K S "v""#),
        ],
    },
];

fn plan_text(change: &str) -> Vec<u8> {
    format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"t.x","mode":"managed",
            "type":"t","name":"x","change":{change}}}]}}"#
    )
    .into_bytes()
}

fn describe(node: Option<Merged<'_>>) -> String {
    match node {
        None => "absent".into(),
        Some(n) => format!(
            "{} {} {}",
            if n.is_unknown() { "U" } else { "K" },
            if n.is_sensitive() { "S" } else { "N" },
            n.value().map_or("-".to_string(), |v| v.to_string())
        ),
    }
}

#[test]
fn merged_view_cases() {
    let mut parser = Parser::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in CASES {
        let mut input = plan_text(case.change);
        let tape = parser.parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let plan = tape.plan(&arena).unwrap();
        let change = plan.resource_changes[0].change;
        for (side, path, want) in case.expect {
            let view = match *side {
                "after" => change.after_view(),
                _ => change.before_view(),
            };
            let got = describe(view.at(&Path::parse(path).unwrap()));
            checked += 1;
            if got != *want {
                failures.push(format!(
                    "{}: {side} {path}: got {got:?}, want {want:?}",
                    case.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, CASES.iter().map(|c| c.expect.len()).sum::<usize>());
    assert!(checked > 40);
}

#[test]
fn leaves_of_nested_values_in_order() {
    let mut input = plan_text(CASES[0].change);
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let mut leaves = Vec::new();
    plan.resource_changes[0]
        .change
        .after_view()
        .for_each_leaf(|path, leaf| leaves.push(format!("{path} {}", describe(Some(*leaf)))));
    assert_eq!(
        leaves,
        [
            ".id U N -",
            r#".ingress[0].cidr_blocks[0] K N "10.0.0.0/8""#,
            ".ingress[0].cidr_blocks[1] U N -",
            ".ingress[0].port K N 80",
            ".ingress[1].cidr_blocks K N []",
            ".ingress[1].port K N 443",
            r#".tags.env K N "prod""#,
            ".tags.owner U N -",
            r#".settings.tier K N "gold""#,
            ".settings.size U N -",
        ]
    );
}

#[test]
fn unknown_members_missing_from_after_are_walked_after_the_known_ones() {
    let mut input = plan_text(CASES[6].change);
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let after = plan.resource_changes[0].change.after_view();
    let mut leaves = Vec::new();
    after.for_each_leaf(|path, leaf| leaves.push(format!("{path} {}", describe(Some(*leaf)))));
    assert_eq!(
        leaves,
        [
            ".secret U S -",
            r#".keys[0] K S "a""#,
            ".keys[1] U S -",
            r#".conn.host K N "h""#,
            ".conn.password U S -",
        ]
    );
    assert!(after.has_unknown() && after.has_sensitive());
    let conn = after.at(&Path::parse(".conn").unwrap()).unwrap();
    assert!(!conn.is_unknown() && conn.has_unknown() && !conn.is_leaf());
}

#[test]
fn planned_values_resources_carry_sensitivity() {
    let mut input = br#"{"format_version":"1.0","planned_values":{"root_module":{"resources":[
        {"address":"t.x","mode":"managed","type":"t","name":"x","values":{"pw":"s","n":1},
         "sensitive_values":{"pw":true}},
        {"address":"t.y","mode":"managed","type":"t","name":"y","sensitive_values":false}]}}}"#
        .to_vec();
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let plan = tape.plan(&arena).unwrap();
    let rs: Vec<_> = plan.planned_values.unwrap().resources().collect();
    let view = rs[0].view();
    assert_eq!(
        describe(view.at(&Path::parse(".pw").unwrap())),
        r#"K S "s""#
    );
    assert_eq!(describe(view.at(&Path::parse(".n").unwrap())), "K N 1");
    // A forgotten resource has no values and `sensitive_values: false`.
    assert_eq!(
        describe(rs[1].view().at(&Path::parse(".id").unwrap())),
        "absent"
    );
}

/// A leaf with one sensitive side writes neither side (as Terraform hides both).
#[test]
fn one_sensitive_side_hides_both() {
    let cases = [
        // (change, JSON of the diff's `pw` node)
        (
            r#"{"actions":["update"],"before":{"pw":"old"},"after":{"pw":"new"},
                "before_sensitive":false,"after_sensitive":{"pw":true}}"#,
            r#"{"op":"update","before_sensitive":true,"after_sensitive":true}"#,
        ),
        (
            r#"{"actions":["update"],"before":{"pw":"old"},"after":{"pw":"new"},
                "before_sensitive":{"pw":true},"after_sensitive":{}}"#,
            r#"{"op":"update","before_sensitive":true,"after_sensitive":true}"#,
        ),
        (
            r#"{"actions":["update"],"before":{"pw":{"a":"old"}},"after":{"pw":"new"},
                "before_sensitive":{},"after_sensitive":{"pw":true}}"#,
            r#"{"op":"update","before_sensitive":true,"after_sensitive":true}"#,
        ),
        (
            r#"{"actions":["create"],"before":null,"after":{"pw":"new"},
                "after_sensitive":{"pw":"yes"}}"#,
            r#"{"op":"create","before":null,"after_sensitive":true}"#,
        ),
        (
            r#"{"actions":["update"],"before":{"pw":"same"},"after":{"pw":"same"},
                "before_sensitive":{},"after_sensitive":{}}"#,
            r#"{"op":"no_op","before":"same","after":"same"}"#,
        ),
    ];
    let mut parser = Parser::new();
    for (change, want) in cases {
        let mut input = plan_text(change);
        let tape = parser.parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let plan = tape.plan(&arena).unwrap();
        let diff = tfwire_plan::Diff::of(&plan.resource_changes[0].change);
        let (_, pw) = diff
            .children
            .iter()
            .find(|(s, _)| s.name() == Some("pw"))
            .unwrap();
        assert_eq!(pw.to_json(), want, "{change}");
        assert_eq!(pw.is_sensitive(), want.contains("sensitive"), "{change}");
    }
}
