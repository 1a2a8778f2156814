//! Hostile and malformed snapshots: every one is an error or a document, never a panic, a
//! stack overflow or unbounded work.

use tfwire::schema::{ProgramCache, ProviderSchemas};
use tfwire_config::{Client, Configuration, ErrorKind, Limits};
use tfwire_json::{Escape, JsonWriter};

const MANIFEST: &[u8] = br#"[{"Key":"","Dir":"."}]"#;

fn schemas() -> ProgramCache {
    let doc = br#"{"format_version":"1.0","provider_schemas":{"terraform.io/builtin/terraform":{"resource_schemas":{"terraform_data":{"version":0,"block":{"attributes":{"input":{"type":"dynamic","optional":true},"id":{"type":"string","computed":true}}}}}}}}"#;
    ProgramCache::new(ProviderSchemas::from_json(doc).unwrap())
}

/// Reads and writes `main` as the root module's only file, in both dialects.
fn run(main: &str) -> Result<(String, String), tfwire_config::Error> {
    let files: [(&str, &[u8]); 2] = [("modules.json", MANIFEST), ("m-/main.tf", main.as_bytes())];
    let config = Configuration::read(&files, &Limits::default())?;
    let cache = schemas();
    let tofu = write(&config, &cache, Client::OpenTofu)?;
    let tf = write(&config, &cache, Client::Terraform)?;
    config.root_variable_defaults()?;
    Ok((tofu, tf))
}

/// The `configuration` document `client` writes for `config`.
fn write(
    config: &Configuration,
    cache: &ProgramCache,
    client: Client,
) -> Result<String, tfwire_config::Error> {
    let mut out = String::new();
    config.write_json(&mut JsonWriter::new(&mut out, Escape::Go), cache, client)?;
    Ok(out)
}

#[test]
fn a_syntax_error_names_the_file_line_column_and_offset() {
    let err = run("resource \"terraform_data\" \"x\" {\n  input = [1,\n}\n").unwrap_err();
    assert_eq!(err.file(), "m-/main.tf");
    assert!(matches!(err.kind(), ErrorKind::Syntax(_)), "{err}");
    let at = err.location().unwrap();
    assert_eq!((at.line, at.column, at.offset), (3, 1, 46), "{err}");
}

#[test]
fn a_file_that_is_not_utf8_is_named() {
    let files: [(&str, &[u8]); 2] = [
        ("modules.json", MANIFEST),
        ("m-/main.tf", b"a = \"\xff\"\n"),
    ];
    let err = Configuration::read(&files, &Limits::default()).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::NotUtf8);
    assert_eq!(err.location().unwrap().offset, 5);
}

#[test]
fn the_limits_bound_bytes_files_and_modules() {
    let files: [(&str, &[u8]); 2] = [("modules.json", MANIFEST), ("m-/main.tf", b"# a comment\n")];
    let mut small = Limits::default();
    small.max_bytes = 10;
    let err = Configuration::read(&files, &small).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 10 });

    let many = format!(
        "[{}]",
        (0..20)
            .map(|i| format!(r#"{{"Key":"m{i}"}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let files: [(&str, &[u8]); 1] = [("modules.json", many.as_bytes())];
    let mut few = Limits::default();
    few.max_modules = 10;
    let err = Configuration::read(&files, &few).unwrap_err();
    assert!(
        err.to_string()
            .contains("20 modules, more than the limit of 10"),
        "{err}"
    );
}

#[test]
fn a_manifest_that_is_not_the_clients_is_an_error() {
    for manifest in [
        &b""[..],
        b"{}",
        b"[1]",
        b"[{\"Key\":1}]",
        b"[{\"Key\":\"a\"}]",
        b"[[",
    ] {
        let files: [(&str, &[u8]); 1] = [("modules.json", manifest)];
        let err = Configuration::read(&files, &Limits::default()).unwrap_err();
        assert_eq!(err.file(), "modules.json", "{err}");
    }
    let err = Configuration::read(&[], &Limits::default()).unwrap_err();
    assert!(err.to_string().contains("no modules manifest"), "{err}");
}

#[test]
fn long_operator_chains_and_deep_nesting_do_not_overflow_the_stack() {
    for n in [1_000usize, 100_000] {
        let chain = vec!["1"; n].join(" + ");
        let body = format!("resource \"terraform_data\" \"x\" {{\n  input = {chain}\n}}\n");
        // A document (with or without the constant) or an error: never a crash.
        let _ = run(&body);
        let not = format!("locals {{\n  x = {}true\n}}\n", "!".repeat(n));
        let _ = run(&not);
    }
    let deep = format!(
        "locals {{\n  x = {}1{}\n}}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert!(matches!(
        run(&deep).unwrap_err().kind(),
        ErrorKind::Syntax(_)
    ));
}

#[test]
fn nested_loops_and_growing_strings_are_bounded() {
    let list = format!("[{}]", vec!["\"aaaaaaaaaaaaaaaa\""; 1000].join(","));
    let cube = format!(
        "[for a in {list} : [for b in {list} : [for c in {list} : \"${{a}}${{b}}${{c}}\"]]]"
    );
    let body = format!("resource \"terraform_data\" \"x\" {{\n  input = {cube}\n}}\n");
    let started = std::time::Instant::now();
    let (tofu, _) = run(&body).unwrap();
    // Left unevaluated: the expression is written without a constant.
    assert!(
        tofu.contains(r#""expressions":{"input":{}}"#),
        "{}",
        &tofu[..200]
    );
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let doubling = format!(
        "locals {{\n  x = \"%{{for a in {list}}}%{{for b in {list}}}${{a}}${{b}}%{{endfor}}%{{endfor}}\"\n}}\n"
    );
    run(&doubling).unwrap();
}

#[test]
fn modules_nest_to_a_bounded_depth() {
    let mut manifest = vec![r#"{"Key":""}"#.to_string()];
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut key = String::new();
    for i in 0..300 {
        files.push((
            format!("m-{key}/main.tf"),
            b"module \"m\" {\n  source = \"./m\"\n}\n".to_vec(),
        ));
        key = if i == 0 {
            "m".to_string()
        } else {
            format!("{key}.m")
        };
        manifest.push(format!(r#"{{"Key":"{key}"}}"#));
    }
    let manifest = format!("[{}]", manifest.join(","));
    files.push(("modules.json".into(), manifest.into_bytes()));
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    let config = Configuration::read(&refs, &Limits::default()).unwrap();
    let err = write(&config, &schemas(), Client::OpenTofu).unwrap_err();
    assert!(err.to_string().contains("nested more than"), "{err}");
}

/// A small deterministic generator of HCL-looking text: fragments of the grammar glued
/// together at random, many of them malformed.
#[test]
fn random_fragments_never_panic() {
    const FRAGMENTS: &[&str] = &[
        "resource",
        "data",
        "module",
        "variable",
        "output",
        "provider",
        "terraform",
        "check",
        "\"terraform_data\"",
        "\"x\"",
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "=",
        ",",
        "\n",
        " ",
        "input",
        "count",
        "for_each",
        "depends_on",
        "source",
        "\"./m\"",
        "type",
        "default",
        "value",
        "1",
        "-0",
        "1.5e3",
        "1e99999",
        "0.1",
        "/",
        "%",
        "*",
        "+",
        "-",
        "!",
        "?",
        ":",
        "==",
        "&&",
        "var.a",
        "local.b",
        "module.m[0].out",
        "data.x.y",
        "self",
        "each.key",
        "count.index",
        "\"${",
        "}\"",
        "%{ if true }",
        "%{ endif }",
        "%{ for x in [1] }",
        "%{ endfor }",
        "~",
        "[for x in [1,2]: x]",
        "{for k, v in {a=1}: k => v...}",
        "[*]",
        ".*",
        "\"a\\u00e9\"",
        "<<EOT\nx\nEOT\n",
        "null",
        "true",
        "list(string)",
        "object({a=optional(number,1)})",
        "set(number)",
        "map(any)",
        "tuple([string])",
        "provider::p::f(1)",
        "f(1,2)",
        "#c\n",
        "/* c */",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let len = (next() % 40) as usize;
        let text: String = (0..len)
            .map(|_| FRAGMENTS[(next() % FRAGMENTS.len() as u64) as usize])
            .collect();
        let _ = run(&text);
    }
    // The valid shapes the fragments aim at, each written in both dialects.
    let valid = "variable \"v\" {\n  type = object({a = optional(number, 1)})\n  default = {}\n}\nresource \"terraform_data\" \"x\" {\n  count = 2\n  input = [for i, x in [1, 2] : \"${i}${x}\" if x > 1]\n}\n";
    let (tofu, tf) = run(valid).unwrap();
    assert!(tofu.contains(r#""constant_value":["12"]"#), "{tofu}");
    assert!(
        tf.contains(r#""count_expression":{"constant_value":2}"#),
        "{tf}"
    );
}

#[test]
fn json_and_override_files_are_refused_by_name() {
    for name in ["m-/extra.tf.json", "m-/override.tf", "m-/x_override.tf"] {
        let files: [(&str, &[u8]); 3] = [
            ("modules.json", MANIFEST),
            ("m-/main.tf", b"locals {\n  a = 1\n}\n"),
            (name, b"{}"),
        ];
        let config = Configuration::read(&files, &Limits::default()).unwrap();
        let err = write(&config, &schemas(), Client::OpenTofu).unwrap_err();
        assert_eq!(err.file(), name);
        assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    }
}

#[test]
fn a_module_call_without_its_module_is_an_error() {
    let err = run("module \"gone\" {\n  source = \"./gone\"\n}\n").unwrap_err();
    assert_eq!(err.file(), "m-/main.tf");
    assert!(
        err.to_string()
            .contains("module call \"gone\" has no module \"gone\""),
        "{err}"
    );
}

/// A legacy provider's list-of-objects attribute configured as blocks becomes one attribute
/// expression (the clients' `lang/blocktoattr`): the list of the blocks' objects, every
/// attribute present (null where unset, converted to its type), and the blocks' references.
#[test]
fn blocks_for_a_list_of_objects_attribute_are_one_expression() {
    let doc = br#"{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/legacy":{"resource_schemas":{"legacy_group":{"version":2,"block":{"attributes":{"name":{"type":"string","optional":true},"ingress":{"type":["set",["object",{"from":"number","cidrs":["list","string"]}]],"optional":true},"egress":{"type":["list",["object",{"to":"string"}]],"optional":true}}}}}}}}"#;
    let cache = ProgramCache::new(ProviderSchemas::from_json(doc).unwrap());
    let main = b"resource \"legacy_group\" \"g\" {\n  name = \"n\"\n  ingress {\n    from  = \"1\"\n    cidrs = [\"a\"]\n  }\n  ingress {\n    from = 2\n  }\n  egress {\n    to = var.dest\n  }\n}\n";
    let files: [(&str, &[u8]); 2] = [("modules.json", MANIFEST), ("m-/main.tf", main)];
    let config = Configuration::read(&files, &Limits::default()).unwrap();
    let out = write(&config, &cache, Client::OpenTofu).unwrap();
    assert!(
        out.contains(r#""expressions":{"egress":{"references":["var.dest"]},"ingress":{"constant_value":[{"cidrs":["a"],"from":1},{"cidrs":null,"from":2}]},"name":{"constant_value":"n"}},"schema_version":2"#),
        "{out}"
    );
}
