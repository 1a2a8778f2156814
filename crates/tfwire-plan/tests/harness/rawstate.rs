//! Raw state files (`tests/data/*.tfstate`, written for these tests in the format Terraform
//! writes: the corpus has none).

use std::path::Path;
use tfwire_plan::decode::{ValueRole, visit_values};
use tfwire_plan::{Document, Index, Mode, Parser};

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

#[test]
fn version_4_model_and_addresses() {
    let mut input = data("raw-v4.tfstate");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let state = tape.raw_state(&arena).unwrap();
    assert_eq!(state.header.version, 4);
    assert_eq!(state.header.terraform_version, Some("1.9.8"));
    assert_eq!(state.header.serial, Some(12));
    assert_eq!(
        state.header.lineage,
        Some("7f3c2f4e-0b5a-4b1e-9d1c-2a7e3f0c9b11")
    );
    let outputs: Vec<_> = state
        .outputs
        .iter()
        .map(|o| (o.name, o.sensitive, o.value.unwrap().to_string()))
        .collect();
    assert_eq!(
        outputs,
        [
            ("db_password", true, r#""hunter2""#.to_string()),
            (
                "subnet_ids",
                false,
                r#"["subnet-1","subnet-2"]"#.to_string()
            ),
        ]
    );
    assert_eq!(state.resources.len(), 4);
    let web = &state.resources[1];
    assert_eq!(
        (web.mode, web.type_name, web.name, web.each),
        (Mode::Managed, "aws_instance", "web", Some("list"))
    );
    let i0 = &web.instances[0];
    assert_eq!(i0.index_key, Some(Index::Int(0)));
    assert_eq!(i0.schema_version, Some(1));
    assert_eq!(i0.dependencies, ["data.aws_ami.ubuntu"]);
    assert_eq!(i0.create_before_destroy, Some(true));
    assert_eq!(i0.private, Some("eyJzY2hlbWFfdmVyc2lvbiI6IjEifQ=="));
    assert_eq!(
        i0.sensitive_attributes.unwrap().to_string(),
        r#"[[{"type":"get_attr","value":"user_data"}]]"#
    );
    assert_eq!(
        i0.attributes
            .unwrap()
            .get("tags")
            .unwrap()
            .get("env")
            .unwrap()
            .as_str(),
        Some("prod")
    );
    assert_eq!(web.instances[1].status, Some("tainted"));
    assert_eq!(web.instances[2].deposed, Some("00000001"));
    assert!(state.check_results.is_some());

    let addresses: Vec<String> = state.addresses().map(|a| a.to_string()).collect();
    assert_eq!(
        addresses,
        [
            "data.aws_ami.ubuntu",
            "aws_instance.web[0]",
            "aws_instance.web[1]",
            r#"module.network["eu-west-1"].aws_subnet.this["a"]"#,
            r#"module.network["eu-west-1"].aws_subnet.this["say \"hi\"\\"]"#,
            "module.old.null_resource.gone",
        ]
    );
}

#[test]
fn version_4_attributes_reach_a_value_decoder() {
    let mut input = data("raw-v4.tfstate");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let doc = tape.document(&arena).unwrap();
    let mut seen = Vec::new();
    visit_values(&doc, |site, v| {
        assert_eq!(site.role, ValueRole::Attributes);
        seen.push(format!(
            "{} {} {:?} {}",
            site.address,
            site.type_name,
            site.schema_version,
            v.get("id").unwrap()
        ));
        Ok::<(), ()>(())
    })
    .unwrap();
    assert_eq!(
        seen,
        [
            r#"data.aws_ami.ubuntu aws_ami Some(0) "ami-123""#,
            r#"aws_instance.web[0] aws_instance Some(1) "i-0""#,
            r#"aws_instance.web[1] aws_instance Some(1) "i-1""#,
            r#"aws_instance.web[1] aws_instance Some(1) "i-old""#,
            r#"module.network["eu-west-1"].aws_subnet.this["a"] aws_subnet Some(1) "subnet-1""#,
            r#"module.network["eu-west-1"].aws_subnet.this["say \"hi\"\\"] aws_subnet Some(1) "subnet-2""#,
            r#"module.old.null_resource.gone null_resource Some(0) "123""#,
            r#"module.old.null_resource.gone null_resource Some(0) "124""#,
        ]
    );
}

#[test]
fn version_3_addresses_in_todays_syntax() {
    let mut input = data("raw-v3.tfstate");
    let tape = Parser::new().parse(&mut input).unwrap();
    let arena = bumpalo::Bump::new();
    let Document::LegacyState(state) = tape.document(&arena).unwrap() else {
        panic!("not a legacy state")
    };
    assert_eq!((state.header.version, state.header.serial), (3, Some(7)));
    assert_eq!(state.header.terraform_version, Some("0.11.14"));
    assert_eq!(state.modules[1].path, ["root", "network"]);
    assert_eq!(state.modules[0].resources[0].provider, Some("provider.aws"));
    let addresses: Vec<String> = state.addresses().collect();
    assert_eq!(
        addresses,
        [
            "aws_instance.web",
            "data.aws_ami.ubuntu",
            "module.network.aws_subnet.private[0]",
            "module.network.aws_subnet.private[1]",
        ]
    );
    assert_eq!(
        tape.raw_state(&arena).unwrap_err().to_string(),
        "(root): expected a raw state file of version 4, but this is a raw state file (.tfstate)"
    );
}

/// `sensitive_attributes` tfwire cannot read hides more, never less.
#[test]
fn unreadable_sensitive_attributes_fail_closed() {
    let cases = [
        (r#""pw""#, "true"),
        (r#"{"pw":true}"#, "true"),
        ("true", "true"),
        ("null", "false"),
        ("[]", "false"),
        (r#"["pw"]"#, "true"),
        (
            r#"[[{"type":"get_attr","value":"m"},{"type":"splat"}]]"#,
            r#"{"m":true}"#,
        ),
        (r#"[[{"type":"get_attr","value":7}]]"#, "true"),
        (
            r#"[[{"type":"get_attr","value":"l"},{"type":"index","value":{"value":-1,"type":"number"}}]]"#,
            r#"{"l":true}"#,
        ),
        (
            r#"[[{"type":"get_attr","value":"l"},{"type":"index","value":{"value":0,"type":"number"}}],
                [{"type":"get_attr","value":"l"},{"type":"get_attr","value":"x"}]]"#,
            r#"{"l":true}"#,
        ),
    ];
    for (sa, want) in cases {
        let mut input = format!(
            r#"{{"version":4,"resources":[{{"mode":"managed","type":"t","name":"n",
                "instances":[{{"attributes":{{"pw":"x"}},"sensitive_attributes":{sa}}}]}}]}}"#
        )
        .into_bytes();
        let tape = Parser::new().parse(&mut input).unwrap();
        let arena = bumpalo::Bump::new();
        let Document::RawState(state) = tape.document(&arena).unwrap() else {
            panic!("not a raw state")
        };
        let inst = &state.resources[0].instances[0];
        assert_eq!(inst.sensitive_marker_json(), want, "{sa}");
    }
}
