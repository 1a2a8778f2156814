//! Provider schemas: every real schema loads and compiles; nesting modes, GROUP synthesis,
//! MAP labels, block counts, nested attribute types; programs from protobuf equal programs
//! from JSON; go-cty's payloads for a block's implied type decode.

use crate::corpus_files::json_files;
use crate::support::*;
use std::path::Path;
use tfwire::schema::{Block, Kind, ProgramCache, Protocol, ProviderSchema, ProviderSchemas};
use tfwire::{Config, Decoder, ErrorKind, Program, Type, Value};

#[test]
fn every_real_schema_loads_and_every_type_compiles() {
    let mut paths = Vec::new();
    json_files(&corpus().join("schemas"), &mut paths);
    paths.sort();
    let (mut docs, mut providers, mut resources, mut data_sources, mut nodes) = (0, 0, 0, 0, 0);
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let doc = ProviderSchemas::from_json(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        docs += 1;
        for (addr, p) in &doc.providers {
            providers += 1;
            for (kind, map) in [("resource", &p.resources), ("data source", &p.data_sources)] {
                for (name, s) in map {
                    let program = Program::from_block(&s.block);
                    assert_eq!(program.ty(), s.block.implied_type(), "{addr} {kind} {name}");
                    let bump = bumpalo::Bump::new();
                    assert_eq!(
                        program.ty_in(&bump).to_type(),
                        program.ty(),
                        "{addr} {kind} {name}"
                    );
                    nodes += program.len();
                    if kind == "resource" {
                        resources += 1
                    } else {
                        data_sources += 1
                    }
                }
            }
            if let Some(s) = &p.provider {
                Program::from_block(&s.block);
            }
        }
    }
    eprintln!(
        "{docs} schema documents, {providers} providers: {resources} resources and {data_sources} data sources \
         compiled ({nodes} program nodes)"
    );
    assert_eq!(docs, 70);
    assert!(
        resources > 3000 && data_sources > 1000,
        "{resources} resources, {data_sources} data sources"
    );
}

#[test]
fn unsupported_format_versions_and_bad_documents_are_clear_errors() {
    for (doc, want) in [
        (
            r#"{"format_version":"2.0","provider_schemas":{}}"#,
            "invalid schema: unsupported format_version \"2.0\"",
        ),
        (
            r#"{"plan":1}"#,
            "invalid schema: not a provider schemas document",
        ),
        (
            r#"[]"#,
            "(root): invalid schema: expected an object, found an array (at byte 0)",
        ),
        (
            r#"{"provider_schemas":{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"type":"strin"}}}}}}}}"#,
            "invalid type: invalid primitive type name \"strin\"",
        ),
        (
            r#"{"provider_schemas":{"p":{"resource_schemas":{"r":{"block":{"block_types":{"b":{"nesting_mode":"tree"}}}}}}}}"#,
            "invalid schema: unknown nesting mode \"tree\"",
        ),
        (
            r#"{"provider_schemas":{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"optional":true}}}}}}}}"#,
            "invalid schema: an attribute needs a \"type\" or a \"nested_type\"",
        ),
    ] {
        let e = ProviderSchemas::from_json(doc.as_bytes()).unwrap_err();
        assert!(e.to_string().contains(want), "{doc}: {e}");
    }
    assert!(
        ProviderSchemas::from_json(br#"{"format_version":"1.0"}"#)
            .unwrap()
            .providers
            .is_empty()
    );
    let e = ProviderSchemas::from_json(
        br#"{"provider_schemas":{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"type":7}}}}}}}}"#,
    )
    .unwrap_err();
    assert_eq!(
        e.path().to_string(),
        ".provider_schemas[\"p\"].resource_schemas[\"r\"].block.attributes[\"a\"].type"
    );
    assert_eq!(e.offset(), 86); // the 7
}

fn synthetic(name: &str) -> Vec<u8> {
    std::fs::read(corpus().join("schemas-synthetic").join(name)).unwrap()
}

fn nesting() -> ProviderSchemas {
    ProviderSchemas::from_json(&synthetic("nesting.json")).unwrap()
}

fn block(name: &str) -> Block {
    nesting().provider("test").unwrap().resources[name]
        .block
        .clone()
}

fn canonical_msgpack(program: &Program, bytes: &[u8]) -> Result<String, String> {
    let arena = bumpalo::Bump::new();
    tfwire::decode_msgpack(program, bytes, &arena)
        .map(|v| tfwire::canonical::to_string(&v))
        .map_err(|e| e.to_string())
}

#[test]
fn go_cty_block_vectors_decode_through_the_schema() {
    // The `block/…` conformance vectors were made by go-cty for this block's implied type
    // (with `timeouts` a SINGLE block there; GROUP only changes the null case).
    let program = Program::from_block(&block("test_all_nesting_modes"));
    let mut seen = 0;
    for v in vectors()
        .into_iter()
        .filter(|v| v.name.starts_with("block/"))
    {
        assert_eq!(Type::from_json(&v.ty).unwrap(), program.ty(), "{}", v.name);
        let got = canonical_msgpack(&program, v.msgpack.as_ref().unwrap()).unwrap();
        assert_eq!(json(&got), v.expect, "{}", v.name);
        seen += 1;
    }
    assert_eq!(seen, 4);
}

#[test]
fn go_cty_resource_payload_decodes_through_its_schema() {
    let dir = corpus().join("payloads");
    let block = Block::from_json(&std::fs::read(dir.join("vm.schema.json")).unwrap()).unwrap();
    let ty =
        Type::from_json(&std::fs::read_to_string(dir.join("resource.type.json")).unwrap()).unwrap();
    assert_eq!(block.implied_type(), ty);
    let payload = std::fs::read(dir.join("resource-1m.msgpack")).unwrap();
    let by_schema = canonical_msgpack(&Program::from_block(&block), &payload).unwrap();
    let by_type = canonical_msgpack(&Program::compile(&ty), &payload).unwrap();
    assert_eq!(by_schema, by_type);
}

/// Encodes a value with the schema's implied type (no block semantics).
fn encode(block: &Block, v: &Value<'_>) -> Vec<u8> {
    tfwire::encode_msgpack(&Program::compile(&block.implied_type()), v).unwrap()
}

#[test]
fn an_absent_group_block_is_synthesized() {
    let b = block("test_all_nesting_modes");
    let program = Program::from_block(&b);
    let absent = vectors()
        .into_iter()
        .find(|v| v.name == "block/all-nesting-modes/absent-blocks")
        .unwrap();
    // go-cty's "absent blocks" value has timeouts = {create: null, delete: null}: send the
    // same value with timeouts = null, and the block decoder must give go-cty's value back.
    let arena = bumpalo::Bump::new();
    let by_type = Program::compile(&b.implied_type());
    let v = tfwire::decode_msgpack(&by_type, absent.msgpack.as_ref().unwrap(), &arena).unwrap();
    let entries: Vec<(&str, Value<'_>)> = v
        .entries()
        .unwrap()
        .iter()
        .map(|&(k, x)| (k, if k == "timeouts" { Value::Null } else { x }))
        .collect();
    let with_null = encode(&b, &Value::Object(&entries));
    assert_ne!(&with_null, absent.msgpack.as_ref().unwrap());
    assert_eq!(
        json(&canonical_msgpack(&program, &with_null).unwrap()),
        absent.expect
    );

    // A group holding every kind of nested block, and a group in a group.
    let g = block("test_groups");
    let gp = Program::from_block(&g);
    let arena = bumpalo::Bump::new();
    let bytes = encode(
        &g,
        &Value::Object(&[("id", Value::String("x")), ("settings", Value::Null)]),
    );
    let v = tfwire::decode_msgpack(&gp, &bytes, &arena).unwrap();
    assert_eq!(
        tfwire::canonical::to_string(&v.get("settings").unwrap()),
        concat!(
            r#"["object",{"a":["null"],"b":["null"],"#,
            r#""inner_dynamic_list":["dynamic",["tuple",[]],["tuple",[]]],"#,
            r#""inner_dynamic_map":["dynamic",["object",{}],["object",{}]],"#,
            r#""inner_group":["object",{"deep":["null"]}],"inner_list":["list",[]],"inner_map":["map",{}],"#,
            r#""inner_set":["set",[]],"inner_single":["null"]}]"#
        )
    );
    // The synthesized value is the value of its type: it encodes back as go-cty would write it.
    assert!(tfwire::encode_msgpack(&gp, &v).is_ok());
}

#[test]
fn map_blocks_are_keyed_by_label() {
    let program = Program::from_block(&block("test_all_nesting_modes"));
    let full = vectors()
        .into_iter()
        .find(|v| v.name == "block/all-nesting-modes/full")
        .unwrap();
    let arena = bumpalo::Bump::new();
    let v = tfwire::decode_msgpack(&program, full.msgpack.as_ref().unwrap(), &arena).unwrap();
    let volume = v.get("volume").unwrap();
    assert!(matches!(volume, Value::Map(_)));
    assert_eq!(
        volume
            .get("data")
            .unwrap()
            .get("size")
            .unwrap()
            .as_number()
            .unwrap()
            .to_i64(),
        Some(100)
    );
    // A MAP block with dynamic contents is an object keyed by label.
    let labels = v.get("labels").unwrap();
    let Value::Dynamic(d) = labels else {
        panic!("dynamic")
    };
    assert!(matches!(d.value, Value::Object(_)));
    assert!(d.value.get("first").is_some() && d.value.get("second").is_some());
}

#[test]
fn block_counts_are_enforced_unless_unknowns_defer_them() {
    let b = block("test_limits");
    let program = Program::from_block(&b);
    let disk = |n: u64| {
        Value::Object(Box::leak(Box::new([(
            "size",
            Value::Number(tfwire::Number::Uint(n)),
        )])))
    };
    let unknown_disk = Value::Object(&[("size", Value::Unknown(None))]);
    let one = Value::Object(&[("v", Value::String("x"))]);
    let rule = |n: u64| {
        Value::Object(Box::leak(Box::new([(
            "port",
            Value::Number(tfwire::Number::Uint(n)),
        )])))
    };
    let case = |disks: &[Value<'static>], rules: &[Value<'static>], ones: &[Value<'static>]| {
        let disks: &'static [Value<'static>] = Box::leak(disks.to_vec().into_boxed_slice());
        let rules: &'static [Value<'static>] = Box::leak(rules.to_vec().into_boxed_slice());
        let ones: &'static [Value<'static>] = Box::leak(ones.to_vec().into_boxed_slice());
        let v = Value::Object(Box::leak(Box::new([
            ("disk", Value::List(disks)),
            ("id", Value::Null),
            ("one", Value::List(ones)),
            ("rule", Value::Set(rules)),
        ])));
        canonical_msgpack(&program, &encode(&b, &v))
    };
    assert!(case(&[disk(1)], &[], &[one]).is_ok());
    assert!(case(&[disk(1), disk(2)], &[rule(1), rule(2)], &[one]).is_ok());
    assert_eq!(
        case(&[], &[], &[one]).unwrap_err(),
        ".disk: between 1 and 2 \"disk\" blocks are required (0 given) (at byte 6)"
    );
    let e = case(&[disk(1), disk(2), disk(3)], &[], &[one]).unwrap_err();
    assert!(
        e.starts_with(".disk: between 1 and 2 \"disk\" blocks are required (3 given)"),
        "{e}"
    );
    let e = case(&[disk(1)], &[rule(1), rule(2), rule(3)], &[one]).unwrap_err();
    assert!(
        e.starts_with(".rule: at most 2 \"rule\" blocks are allowed (3 given)"),
        "{e}"
    );
    let e = case(&[disk(1)], &[], &[one, one]).unwrap_err();
    assert!(
        e.starts_with(".one: exactly 1 \"one\" blocks are required (2 given)"),
        "{e}"
    );
    // A block holding an unknown defers the check: the count may still change.
    assert!(case(&[disk(1), disk(2), unknown_disk], &[], &[one]).is_ok());
    // An unknown or null list of blocks is not counted.
    let v = Value::Object(&[
        ("disk", Value::Unknown(None)),
        ("id", Value::Null),
        ("one", Value::Null),
        ("rule", Value::Null),
    ]);
    assert!(canonical_msgpack(&program, &encode(&b, &v)).is_ok());
    // The type alone (no schema) knows no limits.
    let v = Value::Object(&[
        ("disk", Value::List(&[])),
        ("id", Value::Null),
        ("one", Value::List(&[])),
        ("rule", Value::Set(&[])),
    ]);
    assert!(canonical_msgpack(&Program::compile(&b.implied_type()), &encode(&b, &v)).is_ok());
    // Also through JSON.
    let arena = bumpalo::Bump::new();
    let e = Decoder::new(Config::default()).decode_json(
        &program,
        br#"{"disk":[],"one":[{"v":"a"}]}"#,
        &arena,
    );
    assert!(matches!(
        e.unwrap_err().kind(),
        ErrorKind::BlockCount { .. }
    ));
}

#[test]
fn nested_attribute_types_of_every_mode() {
    let b = block("test_nested_attributes");
    let obj = r#"["object",{"host":"string","port":"number"}]"#;
    assert_eq!(
        b.implied_type().to_string(),
        format!(
            r#"["object",{{"deep":["list",["object",{{"inner":["map",{obj}]}}]],"id":"string","list":["list",{obj}],"map":["map",{obj}],"set":["set",{obj}],"single":{obj}}}]"#
        )
    );
    let program = Program::from_block(&b);
    let doc = br#"{"id":"x","single":{"host":"a","port":1},"list":[{"host":"b"}],"set":[{"host":"c","port":3},{"host":"c","port":3}],
                   "map":{"k":{"host":"d"}},"deep":[{"inner":{"m":{"host":"e","port":5}}}]}"#;
    let arena = bumpalo::Bump::new();
    let v = tfwire::decode_json(&program, doc, &arena).unwrap();
    assert_eq!(v.get("set").unwrap().elements().unwrap().len(), 1);
    assert_eq!(
        v.get("map").unwrap().get("k").unwrap().get("port"),
        Some(Value::Null)
    );
    let bytes = tfwire::encode_msgpack(&program, &v).unwrap();
    assert_eq!(
        canonical_msgpack(&program, &bytes).unwrap(),
        tfwire::canonical::to_string(&v)
    );
}

#[test]
fn protobuf_and_json_schemas_give_equal_programs() {
    let from_json = nesting();
    let json_provider = from_json
        .provider("registry.terraform.io/example/test")
        .unwrap();
    let proto = ProviderSchema::from_protobuf(&synthetic("nesting.v6.bin"), Protocol::V6).unwrap();
    assert_eq!(&proto, json_provider);
    for (name, s) in &json_provider.resources {
        assert_eq!(
            Program::from_block(&proto.resources[name].block),
            Program::from_block(&s.block),
            "{name}"
        );
    }
    // A real provider over protocol 5.
    let docker = ProviderSchemas::from_json(
        &std::fs::read(corpus().join(
            "schemas/mikespub-org__amplify-python-hcl2/test/provider_schemas/docker/schema.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let docker_json = docker.provider("docker").unwrap();
    let docker_proto =
        ProviderSchema::from_protobuf(&synthetic("docker.v5.bin"), Protocol::V5).unwrap();
    assert_eq!(&docker_proto, docker_json);
    let mut compared = 0;
    for (json_map, proto_map) in [
        (&docker_json.resources, &docker_proto.resources),
        (&docker_json.data_sources, &docker_proto.data_sources),
    ] {
        for (name, s) in json_map {
            assert_eq!(
                Program::from_block(&proto_map[name].block),
                Program::from_block(&s.block),
                "{name}"
            );
            compared += 1;
        }
    }
    assert!(compared > 10);
    // write_only has field number 10 in protocol 5 and 11 in protocol 6.
    let wo_json = ProviderSchemas::from_json(&synthetic("write_only.json")).unwrap();
    let wo = wo_json.provider("wo").unwrap();
    for (file, protocol) in [
        ("write_only.v5.bin", Protocol::V5),
        ("write_only.v6.bin", Protocol::V6),
    ] {
        let p = ProviderSchema::from_protobuf(&synthetic(file), protocol).unwrap();
        assert_eq!(&p, wo, "{file}");
        assert!(
            p.resources["wo_secret"]
                .block
                .attribute("password")
                .unwrap()
                .write_only,
            "{file}"
        );
    }
    // Read with the other protocol's field numbers, write_only is lost: the numbers matter.
    let crossed =
        ProviderSchema::from_protobuf(&synthetic("write_only.v6.bin"), Protocol::V5).unwrap();
    assert!(
        !crossed.resources["wo_secret"]
            .block
            .attribute("password")
            .unwrap()
            .write_only
    );
}

#[test]
fn the_cache_compiles_once_and_is_shared_across_threads() {
    let cache = std::sync::Arc::new(ProgramCache::new(nesting()));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let c = cache.clone();
            std::thread::spawn(move || c.get("test", Kind::Resource, "test_limits").unwrap())
        })
        .collect();
    let programs: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(
        programs
            .windows(2)
            .all(|w| std::sync::Arc::ptr_eq(&w[0], &w[1]))
    );
    assert!(std::sync::Arc::ptr_eq(
        &programs[0],
        &cache
            .get(
                "registry.terraform.io/example/test",
                Kind::Resource,
                "test_limits"
            )
            .unwrap()
    ));
    assert!(cache.get("test", Kind::Provider, "").is_ok());
    assert!(
        cache
            .get("test", Kind::DataSource, "test_all_nesting_modes")
            .is_ok()
    );
    assert!(cache.get("test", Kind::Resource, "nope").is_err());
    assert!(cache.get("nope", Kind::Resource, "test_limits").is_err());
}

/// The scenario directories of both real-client corpora, `corpus/real-client/` (OpenTofu) and
/// `corpus/real-client-terraform/` (Terraform): what each client and real providers sent,
/// captured by `e2e/run.sh`. Fails when either corpus has none.
fn real_client_scenarios() -> Vec<std::path::PathBuf> {
    let mut dirs = Vec::new();
    for corpus_name in ["real-client", "real-client-terraform"] {
        let root = corpus().join(corpus_name);
        let entries = std::fs::read_dir(&root).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the real-client corpus is missing)",
                root.display()
            )
        });
        let mut found: Vec<_> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        assert!(!found.is_empty(), "{}: no scenario", root.display());
        dirs.extend(found);
    }
    dirs
}

/// What go-cty's encoder writes for the value go-cty decodes from `bytes`, as far as
/// terraform-plugin-go's encoder (the provider's side) writes otherwise: strings
/// NFC-normalized (`nfc`) and map entries sorted by key (`sort`). Everything else is copied
/// as it is. The flags say whether either changed anything.
fn go_cty_form(bytes: &[u8], nfc: &mut bool, sort: &mut bool) -> Vec<u8> {
    use tfwire_msgpack::{Kind as Tok, Tokenizer};
    use unicode_normalization::UnicodeNormalization;
    fn value(t: &mut Tokenizer<'_>, out: &mut Vec<u8>, nfc: &mut bool, sort: &mut bool) -> String {
        let tok = t
            .next_token()
            .expect("captured values are well-formed MessagePack");
        let raw = t.bytes(tok.span);
        match tok.kind {
            Tok::Str(_) => {
                let s = std::str::from_utf8(t.payload(&tok)).expect("UTF-8");
                let n: String = s.nfc().collect();
                if n == s {
                    out.extend_from_slice(raw);
                } else {
                    *nfc = true;
                    tfwire_msgpack::write::str(out, &n);
                }
                n
            }
            Tok::Array(len) => {
                out.extend_from_slice(raw);
                for _ in 0..len {
                    value(t, out, nfc, sort);
                }
                String::new()
            }
            Tok::Map(len) => {
                out.extend_from_slice(raw);
                let mut entries: Vec<(String, Vec<u8>)> = (0..len)
                    .map(|_| {
                        let mut entry = Vec::new();
                        let key = value(t, &mut entry, nfc, sort);
                        value(t, &mut entry, nfc, sort);
                        (key, entry)
                    })
                    .collect();
                if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
                    *sort = true;
                    entries.sort_by(|a, b| a.0.cmp(&b.0));
                }
                entries.iter().for_each(|(_, e)| out.extend_from_slice(e));
                String::new()
            }
            _ => {
                out.extend_from_slice(raw);
                String::new()
            }
        }
    }
    let mut out = Vec::with_capacity(bytes.len());
    value(&mut Tokenizer::new(bytes), &mut out, nfc, sort);
    out
}

#[test]
fn real_client_plugin_traffic_decodes_with_its_schema_and_reencodes_byte_for_byte() {
    // Every DynamicValue the test provider received or sent (terraform-plugin-go's
    // TF_LOG_SDK_PROTO_DATA_DIR), decoded with the schema its index names, through the
    // ProgramCache (a function's argument with its parameter's type, its result with the
    // return type), and written again: MessagePack gives the same bytes; a value without
    // unknowns also goes through JSON and back to the same value. Every kind is counted.
    let (mut scenarios, mut files, mut through_json, mut exact) = (0, 0, 0, 0);
    // Re-encoded as go-cty's form: strings normalized, maps sorted, both.
    let mut normalized = [0; 3];
    let decisions = decisions();
    let decided = |name: &str| decisions.get(name).is_some_and(|d| d.rule == "normalize");
    let mut failures = Vec::new();
    // Decodes the captured file at `path` with `program`, and writes it again.
    let mut check = |at: &str, program: &Program, path: &Path, encoding: &str| {
        let bytes = std::fs::read(path).unwrap();
        let arena = bumpalo::Bump::new();
        let json = match encoding {
            "msgpack" => false,
            "json" => true,
            other => panic!("{at}: encoding {other:?}"),
        };
        let decoded = if json {
            tfwire::decode_json(program, &bytes, &arena)
        } else {
            tfwire::decode_msgpack(program, &bytes, &arena)
        };
        let value = match decoded {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{at}: does not decode: {e}"));
                return;
            }
        };
        let again = if json {
            tfwire::encode_json(program, &value).map(String::into_bytes)
        } else {
            tfwire::encode_msgpack(program, &value)
        };
        match again {
            Ok(b) if b == bytes => exact += 1,
            // The provider's encoder (terraform-plugin-go) writes strings as it got them
            // and maps in Go's map order; go-cty (OpenTofu) and tfwire read strings
            // NFC-normalized and write map entries sorted. Recorded decisions
            // `real-client/proto/nfc` and `real-client/proto/map-order`: the bytes must
            // then be go-cty's form of the same value.
            Ok(b) if !json => {
                let (mut nfc, mut sort) = (false, false);
                let want = go_cty_form(&bytes, &mut nfc, &mut sort);
                let decided = (!nfc || decided("real-client/proto/nfc"))
                    && (!sort || decided("real-client/proto/map-order"));
                if b == want && decided {
                    normalized[usize::from(nfc) + 2 * usize::from(sort) - 1] += 1;
                } else {
                    failures.push(format!(
                        "{at}: re-encodes as {:.400}\n      sent {:.400}",
                        to_hex(&b),
                        to_hex(&bytes)
                    ));
                }
            }
            Ok(b) => failures.push(format!(
                "{at}: JSON re-encodes as {:.400}\n      sent {:.400}",
                String::from_utf8_lossy(&b),
                String::from_utf8_lossy(&bytes)
            )),
            Err(e) => failures.push(format!("{at}: does not re-encode: {e}")),
        }
        if !json && value.is_wholly_known() {
            through_json += 1;
            let text =
                tfwire::encode_json(program, &value).unwrap_or_else(|e| panic!("{at}: JSON: {e}"));
            let back = tfwire::decode_json(program, text.as_bytes(), &arena)
                .unwrap_or_else(|e| panic!("{at}: its JSON {text:.200} does not decode: {e}"));
            if tfwire::canonical::to_string(&back) != tfwire::canonical::to_string(&value) {
                failures.push(format!("{at}: JSON {text:.300} decodes to another value"));
            }
        }
    };
    // The values decoded, by schema kind.
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for dir in real_client_scenarios() {
        let proto = dir.join("proto");
        if !proto.exists() {
            continue;
        }
        scenarios += 1;
        let name = dir
            .strip_prefix(corpus())
            .unwrap_or(&dir)
            .display()
            .to_string();
        let schemas = ProviderSchemas::from_json(&std::fs::read(dir.join("schemas.json")).unwrap())
            .unwrap_or_else(|e| panic!("{name}/schemas.json: {e}"));
        let cache = ProgramCache::new(schemas);
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(proto.join("index.json")).unwrap())
                .unwrap_or_else(|e| panic!("{name}/proto/index.json: {e}"));
        let provider = index["provider"].as_str().expect("index.json: provider");
        let entries = index["files"].as_array().expect("index.json: files");
        let mut listed = std::collections::BTreeSet::new();
        for f in entries {
            let s = |k: &str| {
                f[k].as_str()
                    .unwrap_or_else(|| panic!("{name}/proto/index.json: an entry without {k}"))
            };
            let file = s("file");
            listed.insert(file.to_owned());
            files += 1;
            let at = format!("{name}/proto/{file}");
            let type_name = f["type_name"].as_str().unwrap_or("");
            let schema_kind = s("schema");
            let kind = match schema_kind {
                "resource" => Kind::Resource,
                "data_source" => Kind::DataSource,
                "ephemeral_resource" => Kind::EphemeralResource,
                "provider" => Kind::Provider,
                "provider_meta" => Kind::ProviderMeta,
                "resource_identity" => Kind::Identity,
                "list_resource" => Kind::ListResource,
                "action" => Kind::Action,
                "function" => {
                    // The README: field `Arguments_N` is typed by parameter N (the variadic
                    // parameter past the last), `Result` by the return type.
                    let function = cache
                        .schemas()
                        .provider(provider)
                        .and_then(|p| p.functions.get(type_name))
                        .unwrap_or_else(|| panic!("{at}: no function {type_name:?}"));
                    let field = s("field");
                    let ty = match field.strip_prefix("Arguments_") {
                        Some(n) => {
                            let n: usize = n
                                .parse()
                                .unwrap_or_else(|e| panic!("{at}: argument {n:?}: {e}"));
                            function.argument(n).unwrap_or_else(|| {
                                panic!("{at}: {type_name} takes no argument {n}")
                            })
                        }
                        None if field == "Result" => &function.return_type,
                        None => panic!("{at}: a function has no field {field:?}"),
                    };
                    *kinds.entry(schema_kind.to_owned()).or_insert(0) += 1;
                    check(&at, &Program::compile(ty), &proto.join(file), s("encoding"));
                    continue;
                }
                other => panic!("{at}: schema kind {other:?}"),
            };
            *kinds.entry(schema_kind.to_owned()).or_insert(0) += 1;
            let program = match cache.get(provider, kind, type_name) {
                Ok(p) => p,
                // The README: no provider_meta schema means an empty object type.
                Err(_) if kind == Kind::ProviderMeta => std::sync::Arc::new(Program::compile(
                    &Type::from_json(r#"["object",{}]"#).unwrap(),
                )),
                Err(e) => panic!("{at}: {e}"),
            };
            check(&at, &program, &proto.join(file), s("encoding"));
        }
        // Every captured file is indexed (else a value would go unchecked).
        for e in std::fs::read_dir(&proto).unwrap() {
            let f = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                f == "index.json" || listed.contains(&f),
                "{name}/proto/{f} is not in index.json"
            );
        }
    }
    eprintln!(
        "real-client plugin traffic: {files} values in {scenarios} scenarios: {exact} re-encoded \
         byte for byte, {} as go-cty's form of the provider's bytes (NFC {}, map order {}, both \
         {}); {through_json} also through JSON; {} failed; by schema kind: {kinds:?}",
        normalized.iter().sum::<usize>(),
        normalized[0],
        normalized[1],
        normalized[2],
        failures.len()
    );
    assert!(scenarios > 0 && files > 0, "no captured plugin traffic");
    // The test provider's captures hold a value of every kind the README names (no provider
    // sends a provider_meta: the scenarios declare none).
    for kind in [
        "resource",
        "data_source",
        "ephemeral_resource",
        "provider",
        "resource_identity",
        "list_resource",
        "action",
        "function",
    ] {
        assert!(
            kinds.contains_key(kind),
            "no {kind} value decoded: {kinds:?}"
        );
    }
    assert_eq!(
        kinds.values().sum::<usize>(),
        files,
        "every value is decoded"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A name used twice in a block (two attributes, two block types, or an attribute and a
/// block type) would give an object type with the attribute twice: rejected at load, with
/// the provider, resource and name, as Terraform does; so is `min_items > max_items`.
#[test]
fn ambiguous_schemas_are_rejected_at_load() {
    let doc = |block: &str| {
        format!(
            r#"{{"format_version":"1.0","provider_schemas":{{"registry.terraform.io/hashicorp/x":{{"resource_schemas":{{"x_thing":{{"version":0,"block":{block}}}}}}}}}}}"#
        )
    };
    let at = r#".provider_schemas["registry.terraform.io/hashicorp/x"].resource_schemas["x_thing"].block"#;
    for (block, want) in [
        (
            r#"{"attributes":{"b":{"type":"string"}},"block_types":{"b":{"nesting_mode":"list","block":{}}}}"#,
            format!(
                r#"{at}.block_types["b"]: invalid schema: "b" is both an attribute and a nested block type (at byte 189)"#
            ),
        ),
        (
            r#"{"attributes":{"b":{"type":"string"},"b":{"type":"number"}}}"#,
            format!(r#"{at}.attributes["b"]: invalid schema: "b" is declared twice (at byte 173)"#),
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","block":{}},"b":{"nesting_mode":"set","block":{}}}}"#,
            format!(
                r#"{at}.block_types["b"]: invalid schema: "b" is declared twice (at byte 191)"#
            ),
        ),
        (
            r#"{"attributes":{"n":{"nested_type":{"nesting_mode":"single","attributes":{"c":{"type":"string"},"c":{"type":"bool"}}}}}}"#,
            format!(
                r#"{at}.attributes["n"].nested_type.attributes["c"]: invalid schema: "c" is declared twice (at byte 231)"#
            ),
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","min_items":3,"max_items":2,"block":{}}}}"#,
            format!(
                r#"{at}.block_types["b"]: invalid schema: min_items (3) is greater than max_items (2) (at byte 152)"#
            ),
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","max_items":18446744073709551616,"block":{}}}}"#,
            format!(
                r#"{at}.block_types["b"].max_items: invalid schema: expected a non-negative integer of at most 18446744073709551615, found the number 18446744073709551616 (at byte 187)"#
            ),
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","max_items":-1,"block":{}}}}"#,
            format!(
                r#"{at}.block_types["b"].max_items: invalid schema: expected a non-negative integer, found the number -1 (at byte 187)"#
            ),
        ),
        (
            r#"{"block_types":{"b":{"nesting_mode":"list","max_items":2.5,"block":{}}}}"#,
            format!(
                r#"{at}.block_types["b"].max_items: invalid schema: expected a non-negative integer, found the number 2.5 (at byte 187)"#
            ),
        ),
    ] {
        let e = ProviderSchemas::from_json(doc(block).as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), want, "{block}");
    }
    // min_items with max_items 0 (no upper bound) is fine.
    ProviderSchemas::from_json(
        doc(r#"{"block_types":{"b":{"nesting_mode":"list","min_items":3,"block":{}}}}"#).as_bytes(),
    )
    .unwrap();
    // Syntax errors in words, not the JSON parser's names; a bracket bomb fails at the first
    // bracket too deep.
    for (text, want) in [
        (&b"{\"a\":}"[..], "(root): invalid JSON: unexpected character '}' (at byte 5)".to_string()),
        (
            &[b'['; 100_000][..],
            "(root): invalid JSON: arrays and objects nested deeper than 1024 levels (at byte 1024)".to_string(),
        ),
    ] {
        let e = ProviderSchemas::from_json(text).unwrap_err().to_string();
        assert_eq!(e, want);
    }
}

/// The protobuf loader applies the same rules, naming the resource.
#[test]
fn ambiguous_protobuf_schemas_are_rejected_at_load() {
    fn field(n: u8, bytes: &[u8]) -> Vec<u8> {
        [&[n << 3 | 2, bytes.len() as u8][..], bytes].concat()
    }
    let attr = |name: &str| [field(1, name.as_bytes()), field(2, b"\"string\"")].concat();
    let nested = |name: &str, extra: &[u8]| {
        [
            field(1, name.as_bytes()),
            field(2, b""),
            vec![0x18, 2],
            extra.to_vec(),
        ]
        .concat()
    };
    let response = |block: Vec<u8>| {
        let schema = field(2, &block);
        let entry = [field(1, b"x_thing"), field(2, &schema)].concat();
        field(2, &entry)
    };
    for (block, want) in [
        (
            [field(2, &attr("b")), field(3, &nested("b", &[]))].concat(),
            r#"["x_thing"]: invalid schema: "b" is both an attribute and a nested block type"#,
        ),
        (
            [field(2, &attr("b")), field(2, &attr("b"))].concat(),
            r#"["x_thing"]: invalid schema: "b" is declared twice"#,
        ),
        (
            field(3, &nested("b", &[0x20, 3, 0x28, 2])),
            r#"["x_thing"]: invalid schema: nested block "b": min_items (3) is greater than max_items (2)"#,
        ),
    ] {
        let e = ProviderSchema::from_protobuf(&response(block), Protocol::V6).unwrap_err();
        let e = e.to_string();
        assert!(e.starts_with(want), "{e}");
    }
}

/// Parses `text` with the shared JSON layer and runs `f` on the root's `provider_schemas`
/// member (as the CLI reads a redacted plan's embedded schemas).
fn with_view<T>(text: &[u8], f: impl FnOnce(tfwire_json::view::Json<'_>) -> T) -> T {
    use tfwire_json::{
        json_shape,
        tape::{INPUT_PADDING, TapeParser},
    };
    let mut buf = text.to_vec();
    buf.resize(text.len() + INPUT_PADDING, b' ');
    let shape = json_shape(text, 1024, usize::MAX).unwrap();
    let mut parser = TapeParser::default();
    let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
    f(doc.root().get("provider_schemas").unwrap())
}

/// `ProviderSchemas::from_view` over a parsed document's `provider_schemas` member loads
/// exactly what `from_json` loads from the document's text, for every real schema document,
/// also when the member sits after others (a redacted plan's place for it).
#[test]
fn schemas_load_in_place_from_the_shared_view_as_from_text() {
    let mut paths = Vec::new();
    json_files(&corpus().join("schemas"), &mut paths);
    paths.sort();
    let mut compared = 0;
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let want = ProviderSchemas::from_json(&bytes).unwrap();
        if want.providers.is_empty() {
            continue;
        }
        let got = with_view(&bytes, |v| ProviderSchemas::from_view(v).unwrap());
        // `format_version` belongs to the document, not to the `provider_schemas` member.
        assert_eq!(got.format_version, None);
        assert_eq!(got.providers, want.providers, "{}", path.display());
        compared += 1;
    }
    assert!(compared > 60, "{compared} documents compared");
}

/// Errors of the in-place loader are those of the text loader, path and byte offset alike
/// (paths start at `.provider_schemas`, where the member sits in both kinds of document).
#[test]
fn schema_errors_in_place_name_the_same_path_and_offset() {
    for ps in [
        r#"{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"type":7}}}}}}}"#,
        r#"{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"type":"strin"}}}}}}}"#,
        r#"{"p":{"resource_schemas":{"r":{"block":{"block_types":{"b":{"nesting_mode":"tree"}}}}}}}"#,
        r#"{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"optional":true}}}}}}}"#,
        r#"{"p":{"resource_schemas":{"r":{"block":{"attributes":{"a":{"type":"string"}},"block_types":{"a":{"nesting_mode":"list","block":{}}}}}}}}"#,
        r#"{"p":{"data_source_schemas":{"d":{"block":{"block_types":{"b":{"nesting_mode":"list","max_items":-1,"block":{}}}}}}}}"#,
        r#"{"p":[]}"#,
        r#"[1]"#,
        r#""schemas""#,
    ] {
        // After other members, with numbers and strings before it: offsets are the plan's.
        let doc = format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"x.y","n":[1.5,2e400]}}],"provider_schemas":{ps}}}"#
        );
        let want = ProviderSchemas::from_json(doc.as_bytes()).unwrap_err();
        let got = with_view(doc.as_bytes(), |v| {
            ProviderSchemas::from_view(v).unwrap_err()
        });
        assert_eq!(got.to_string(), want.to_string(), "{ps}");
        assert_eq!(got.offset(), want.offset(), "{ps}");
        assert!(
            got.path().to_string().starts_with(".provider_schemas"),
            "{got}"
        );
    }
    // A view that belongs to no document fails the same way, at byte 0.
    let e = ProviderSchemas::from_view(tfwire_json::view::Json::null()).unwrap_err();
    assert_eq!(
        e.to_string(),
        ".provider_schemas: invalid schema: expected an object, found null (at byte 0)"
    );
}

/// Every kind of `providers schema -json` a Terraform 1.16 document has, read from the
/// synthetic `kinds.json` (written to the shapes of Terraform's `jsonprovider` and
/// `jsonfunction`): identity schemas with their version and import flags, actions, state
/// stores, ephemeral and list resources, function signatures; and each compiles.
#[test]
fn every_kind_of_a_provider_loads() {
    let doc = ProviderSchemas::from_json(&synthetic("kinds.json")).unwrap();
    let p = doc.provider("registry.terraform.io/example/kinds").unwrap();
    assert!(p.unread.is_empty(), "{:?}", p.unread);
    let id = &p.identities["kinds_thing"];
    assert_eq!(id.version, 3);
    let names: Vec<_> = id.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["id", "region", "tags"]);
    let a = id.attribute("id").unwrap();
    assert!(a.required_for_import && !a.optional_for_import);
    assert_eq!(a.description, "The thing's ID.");
    assert!(id.attribute("tags").unwrap().optional_for_import);
    assert_eq!(
        id.implied_type().to_string(),
        r#"["object",{"id":"string","region":"string","tags":["list","string"]}]"#
    );
    let f = &p.functions["join_path"];
    assert_eq!(f.return_type, Type::String);
    assert_eq!(f.summary, "Joins path segments");
    assert_eq!(f.parameters.len(), 2);
    assert!(!f.parameters[0].allow_null && f.parameters[1].allow_null);
    assert_eq!(f.parameters[1].description, "The first segment.");
    assert_eq!(f.argument(1).unwrap().to_string(), r#"["list","string"]"#);
    assert_eq!(f.argument(7), Some(&Type::String)); // the variadic parameter
    assert_eq!(f.variadic.as_ref().unwrap().name, "segments");
    let parse = &p.functions["parse"];
    assert_eq!(parse.return_type, Type::Dynamic);
    assert_eq!(parse.deprecation_message, "Use parse2.");
    assert_eq!(parse.argument(1), None); // no variadic parameter
    assert!(p.functions["now"].parameters.is_empty());
    assert_eq!(p.state_stores["kinds_store"].version, 1);
    let cache = ProgramCache::new(doc.clone());
    let k = "registry.terraform.io/example/kinds";
    for (kind, name, ty) in [
        (
            Kind::Identity,
            "kinds_thing",
            r#"["object",{"id":"string","region":"string","tags":["list","string"]}]"#,
        ),
        (
            Kind::Action,
            "kinds_restart",
            r#"["object",{"force":"bool","target":["set",["object",{"id":"string"}]]}]"#,
        ),
        (
            Kind::StateStore,
            "kinds_store",
            r#"["object",{"bucket":"string","lock":"bool"}]"#,
        ),
        (
            Kind::EphemeralResource,
            "kinds_token",
            r#"["object",{"scope":"string","value":"string"}]"#,
        ),
        (
            Kind::ListResource,
            "kinds_thing",
            r#"["object",{"filter":["list",["object",{"name":"string"}]],"region":"string"}]"#,
        ),
    ] {
        let program = cache.get(k, kind, name).unwrap();
        assert_eq!(program.ty().to_string(), ty, "{kind:?} {name}");
    }
    // An action's block is a compiled block: its set of `target` blocks must not be empty.
    let program = cache.get(k, Kind::Action, "kinds_restart").unwrap();
    let arena = bumpalo::Bump::new();
    let e = tfwire::decode_json(&program, br#"{"force":true,"target":[]}"#, &arena).unwrap_err();
    assert!(e.to_string().contains("target"), "{e}");
    assert_eq!(
        cache
            .get(k, Kind::Identity, "kinds_token")
            .unwrap_err()
            .to_string(),
        r#"(root): invalid schema: "registry.terraform.io/example/kinds" has no identity schema for resource type "kinds_token" (at byte 0)"#
    );
}

/// Every `schemas.json` of the corpus and every document of `schemas/` loads, and every
/// schema of every kind compiles to a program of its implied type (identities to their
/// object type; function parameter and return types are types already).
#[test]
fn every_kind_of_every_corpus_document_compiles() {
    let mut all = Vec::new();
    json_files(&corpus(), &mut all);
    let mut paths: Vec<_> = all
        .into_iter()
        .filter(|p| {
            p.starts_with(corpus().join("schemas"))
                || p.file_name().is_some_and(|n| n == "schemas.json")
        })
        .collect();
    paths.sort();
    let mut counts = [0usize; 5];
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let doc = ProviderSchemas::from_json(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (addr, p) in &doc.providers {
            let what = format!("{} {addr}", path.display());
            assert!(p.unread.is_empty(), "{what}: {:?}", p.unread);
            for (i, map) in [
                &p.ephemeral_resources,
                &p.list_resources,
                &p.actions,
                &p.state_stores,
            ]
            .into_iter()
            .enumerate()
            {
                for (name, s) in map {
                    let program = Program::from_block(&s.block);
                    assert_eq!(program.ty(), s.block.implied_type(), "{what} {name}");
                    counts[i] += 1;
                }
            }
            for (name, id) in &p.identities {
                let ty = id.implied_type();
                assert_eq!(Program::compile(&ty).ty(), ty, "{what} identity {name}");
                assert!(!id.attributes.is_empty(), "{what} identity {name}");
                counts[4] += 1;
            }
        }
    }
    eprintln!(
        "{} documents: {counts:?} ephemeral, list, action, state store, identity schemas compiled",
        paths.len()
    );
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}

/// Bad identity schemas and function signatures are errors naming the path and the byte of
/// the offending value.
#[test]
fn bad_identities_and_functions_are_clear_errors() {
    for (doc, path, at, want) in [
        (
            r#"{"provider_schemas":{"p":{"resource_identity_schemas":{"r":{"version":1,"attributes":{"id":{"required_for_import":true}}}}}}}"#,
            r#".provider_schemas["p"].resource_identity_schemas["r"].attributes["id"]"#,
            r#"{"required_for_import"#,
            "invalid schema: an identity attribute needs a \"type\"",
        ),
        (
            r#"{"provider_schemas":{"p":{"resource_identity_schemas":{"r":{"attributes":{"id":{"type":"strin"}}}}}}}"#,
            r#".provider_schemas["p"].resource_identity_schemas["r"].attributes["id"].type"#,
            r#""strin""#,
            "invalid type: invalid primitive type name \"strin\"",
        ),
        (
            r#"{"provider_schemas":{"p":{"resource_identity_schemas":{"r":{"version":"1"}}}}}"#,
            r#".provider_schemas["p"].resource_identity_schemas["r"].version"#,
            r#""1""#,
            "invalid schema: expected an integer, found a string",
        ),
        (
            r#"{"provider_schemas":{"p":{"functions":{"f":{"parameters":[{"name":"a","type":"string"}]}}}}}"#,
            r#".provider_schemas["p"].functions["f"]"#,
            r#"{"parameters"#,
            "invalid schema: a function needs a \"return_type\"",
        ),
        (
            r#"{"provider_schemas":{"p":{"functions":{"f":{"return_type":"string","parameters":[{"name":"a","type":"string"},{"name":"b"}]}}}}}"#,
            r#".provider_schemas["p"].functions["f"].parameters[1]"#,
            r#"{"name":"b"}"#,
            "invalid schema: a function parameter needs a \"type\"",
        ),
        (
            r#"{"provider_schemas":{"p":{"functions":{"f":{"return_type":"string","parameters":{"a":1}}}}}}"#,
            r#".provider_schemas["p"].functions["f"].parameters"#,
            r#"{"a":1}"#,
            "invalid schema: expected an array, found an object",
        ),
        (
            r#"{"provider_schemas":{"p":{"action_schemas":{"a":{"block":{"attributes":{"x":{}}}}}}}}"#,
            r#".provider_schemas["p"].action_schemas["a"].block.attributes["x"]"#,
            "{}",
            "invalid schema: an attribute needs a \"type\" or a \"nested_type\"",
        ),
    ] {
        let e = ProviderSchemas::from_json(doc.as_bytes()).unwrap_err();
        assert_eq!(e.path().to_string(), path, "{doc}: {e}");
        assert_eq!(e.offset(), doc.find(at).unwrap(), "{doc}: {e}");
        assert!(e.kind().to_string().starts_with(want), "{doc}: {e}");
    }
    // A kind newer than the reader is named, not lost unseen.
    let doc = ProviderSchemas::from_json(
        br#"{"provider_schemas":{"p":{"widget_schemas":{},"resource_schemas":{}}}}"#,
    )
    .unwrap();
    assert_eq!(doc.providers["p"].unread, ["widget_schemas"]);
}

/// The protobuf reader's functions, actions, state stores and identity schemas: read, and
/// bad ones rejected naming the entry and the offset of the offending message.
#[test]
fn protobuf_functions_actions_state_stores_and_identities() {
    fn field(n: u8, bytes: &[u8]) -> Vec<u8> {
        [&[n << 3 | 2, bytes.len() as u8][..], bytes].concat()
    }
    let entry = |n: u8, key: &str, value: &[u8]| {
        field(n, &[field(1, key.as_bytes()), field(2, value)].concat())
    };
    let string = field(1, b"\"string\"");
    // functions = {"f": {parameters: [{name: "a", type: "string", allow_unknown_values: true}],
    //   return: {type: "string"}, summary: "s"}}
    let param = [field(1, b"a"), field(2, b"\"string\""), vec![0x20, 1]].concat();
    let function = [field(1, &param), field(3, &string), field(4, b"s")].concat();
    let block = field(2, &[field(1, b"id"), field(2, b"\"string\"")].concat());
    let schema = field(2, &block);
    let response = [
        entry(7, "f", &function),
        entry(11, "act", &field(1, &schema)),
        entry(10, "store", &schema),
        field(12, b"future"),
    ]
    .concat();
    let v6 = ProviderSchema::from_protobuf(&response, Protocol::V6).unwrap();
    let f = &v6.functions["f"];
    assert_eq!(
        (f.return_type.clone(), f.summary.as_str()),
        (Type::String, "s")
    );
    assert!(f.parameters[0].allow_unknown && !f.parameters[0].allow_null);
    assert_eq!(v6.actions["act"].block.attribute("id").unwrap().name, "id");
    assert!(v6.state_stores.contains_key("store"));
    assert_eq!(v6.unread, ["field 12"]);
    // Protocol 5 reserves field 10: not a state store there.
    let v5 = ProviderSchema::from_protobuf(&response, Protocol::V5).unwrap();
    assert!(v5.state_stores.is_empty());
    assert_eq!(v5.unread, ["field 10", "field 12"]);

    for (response, want) in [
        (
            entry(7, "f", &field(1, &param)),
            r#"["f"]: invalid schema: a function without a return type"#,
        ),
        (
            entry(
                7,
                "f",
                &[field(1, &field(1, b"a")), field(3, &string)].concat(),
            ),
            r#"["f"]: invalid schema: parameter "a" has no type"#,
        ),
    ] {
        let e = ProviderSchema::from_protobuf(&response, Protocol::V6).unwrap_err();
        assert!(e.to_string().starts_with(want), "{e}");
    }
    // GetResourceIdentitySchemas: {identity_schemas: {"r": {version: 2, identity_attributes: [...]}}}
    let attr = |name: &str, ty: &[u8]| {
        field(
            2,
            &[field(1, name.as_bytes()), field(2, ty), vec![0x20, 1]].concat(),
        )
    };
    let ids = entry(
        1,
        "r",
        &[
            vec![0x08, 2],
            attr("z", b"\"number\""),
            attr("a", b"\"string\""),
        ]
        .concat(),
    );
    let mut p = ProviderSchema::default();
    p.add_identities_from_protobuf(&ids).unwrap();
    let id = &p.identities["r"];
    assert_eq!(id.version, 2);
    assert_eq!(
        id.implied_type().to_string(),
        r#"["object",{"a":"string","z":"number"}]"#
    );
    assert!(id.attribute("z").unwrap().optional_for_import);
    for (ids, want) in [
        (
            entry(1, "r", &attr("a", b"")),
            r#"["r"]: invalid schema: identity attribute "a" has no type"#,
        ),
        (
            entry(
                1,
                "r",
                &[attr("a", b"\"string\""), attr("a", b"\"number\"")].concat(),
            ),
            r#"["r"]: invalid schema: "a" is declared twice"#,
        ),
        (
            entry(1, "r", &attr("a", b"\"strin\"")),
            r#"["r"]: invalid type: invalid primitive type name "strin""#,
        ),
    ] {
        let e = ProviderSchema::default()
            .add_identities_from_protobuf(&ids)
            .unwrap_err();
        assert!(e.to_string().starts_with(want), "{e}");
    }
}
