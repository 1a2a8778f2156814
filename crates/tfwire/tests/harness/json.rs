//! The JSON path beyond the conformance vectors: exact numbers, both readers, errors with
//! line and column, lenient mode, dynamic values.

use crate::support::normalize_decimal;
use tfwire::{Config, Decoder, ErrorKind, Number, Program, Type, Value};

fn both(ty: &str, text: &str, config: Config) -> Result<String, String> {
    let program = Program::compile(&Type::from_json(ty).unwrap());
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(config);
    let show = |r: Result<Value<'_>, tfwire::Error>| {
        r.map(|v| tfwire::canonical::to_string(&v))
            .map_err(|e| e.to_string())
    };
    let simd = show(d.decode_json(&program, text.as_bytes(), &arena));
    let scalar = show(d.decode_json_text(&program, text.as_bytes(), &arena));
    assert_eq!(simd, scalar, "the two readers disagree on {text:.80}");
    simd
}

#[test]
fn numbers_are_exact_however_long() {
    let digits30 = "123456789012345678901234567890";
    let digits100 = "1".repeat(100);
    let digits400 = format!("-{}.{}", "9".repeat(200), "1".repeat(200));
    for text in [
        digits30,
        &digits100,
        &digits400,
        "1e400",
        "-1e-400",
        "-0",
        "18446744073709551616",
        "-9223372036854775809",
        "0.1",
        "1.0000000000000000000000000001",
        "2.5E+3",
    ] {
        let got = both("\"number\"", text, Config::default()).unwrap();
        assert_eq!(
            got,
            format!("[\"number\",\"{}\"]", normalize_decimal(text)),
            "{text}"
        );
    }
    // Kept as text: the value holds the decimal it was sent as.
    let program = Program::compile(&Type::Number);
    let arena = bumpalo::Bump::new();
    let v = tfwire::decode_json(&program, digits30.as_bytes(), &arena).unwrap();
    assert!(matches!(v, Value::Number(Number::Decimal(t)) if t == digits30));
}

/// Arrays of numbers, whose plain decimals the tape walk takes from the text in one pass
/// (`Locator::scalar_decimal`) and every other literal through the general number path:
/// literals of every length around that pass's limits (8 and 64 bytes), with and without a
/// point, an exponent, a sign, white space; and the 1 MB numbers payload. Both readers agree.
#[test]
fn arrays_of_numbers_read_alike_by_both_readers() {
    let mut literals = Vec::new();
    for len in 1..72 {
        let digits: String = (0..len).map(|k| char::from(b'1' + (k % 9) as u8)).collect();
        literals.push(digits.clone());
        literals.push(format!("-{digits}"));
        if len > 1 {
            let (a, b) = digits.split_at(len / 2);
            literals.push(format!("{a}.{b}"));
            literals.push(format!("-{a}.{b}"));
            literals.push(format!("{a}.{b}e-3"));
            literals.push(format!("{a}.{b}E+2"));
            // Beyond the exponents go-cty reads: an error, in both readers.
            literals.push(format!("{a}.{b}e999999"));
            literals.push(format!("{a}.{b}e-999999"));
            literals.push(format!("0.{}", "0".repeat(len - 1)));
            literals.push(format!("-0.{}", "0".repeat(len - 1)));
        }
    }
    for literal in &literals {
        for text in [format!("[{literal}]"), format!("[1, {literal} ,2.5]")] {
            // (`both` asserts that the readers agree, on a value or on an error.)
            let _ = both(r#"["list","number"]"#, &text, Config::default());
        }
    }
    let in_range: Vec<&str> = literals
        .iter()
        .map(String::as_str)
        .filter(|l| !l.ends_with("999999"))
        .collect();
    for sep in [",", ", ", " ,\n\t"] {
        let list = in_range.join(sep);
        for text in [format!("[{list}]"), format!("[ {list} ]")] {
            both(r#"["list","number"]"#, &text, Config::default()).unwrap();
        }
    }
    let payload = crate::support::corpus().join("payloads/numbers-1m.json");
    let text = std::fs::read_to_string(payload).unwrap();
    both(r#"["list","number"]"#, &text, Config::default()).unwrap();
}

#[test]
fn errors_carry_path_offset_line_and_column() {
    let program =
        Program::compile(&Type::from_json(r#"["object",{"tags":["map","string"]}]"#).unwrap());
    let arena = bumpalo::Bump::new();
    let text = b"{\n  \"tags\": {\n    \"env\": [1]\n  }\n}";
    let e = tfwire::decode_json(&program, text, &arena).unwrap_err();
    assert_eq!(
        e.to_string(),
        ".tags[\"env\"]: a string is required, found array (at byte 25)"
    );
    assert_eq!(e.line_column(text), (3, 12));
    for (text, msg) in [
        (
            "{\"tags\": {\"env\": \"x\",}}",
            ".tags: invalid JSON: expected a string (an object key), found character '}' (at byte 21)",
        ),
        (
            "{\"tags\": {\"env\": \"x\"}",
            "(root): unexpected end of input (at byte 21)",
        ),
        (
            "{\"tags\": null} x",
            "(root): unexpected bytes after the end of the value (at byte 15)",
        ),
        (
            "{\"tags\": nul}",
            ".tags: invalid JSON: invalid literal (at byte 9)",
        ),
    ] {
        let e = tfwire::decode_json(&program, text.as_bytes(), &arena)
            .unwrap_err()
            .to_string();
        // Paths are rebuilt from the frames: whatever the reader, the same.
        let e2 = Decoder::new(Config::default())
            .decode_json_text(&program, text.as_bytes(), &arena)
            .unwrap_err()
            .to_string();
        assert_eq!(e, e2, "{text}");
        assert_eq!(e, msg, "{text}");
    }
}

#[test]
fn lenient_mode_ignores_undeclared_attributes() {
    let ty = r#"["object",{"a":"string","b":["list","number"]}]"#;
    let text = r#"{"old":{"deep":[1,{"x":null}]},"a":"x","gone":1,"b":[1,2],"also":[]}"#;
    assert_eq!(
        both(ty, text, Config::default().lenient(true)).unwrap(),
        r#"["object",{"a":["string","x"],"b":["list",[["number","1"],["number","2"]]]}]"#
    );
    let strict = both(ty, text, Config::default()).unwrap_err();
    assert_eq!(strict, ".old: unsupported attribute \"old\" (at byte 1)");
    // An undeclared attribute last in the object, and nested objects.
    let ty = r#"["list",["object",{"a":"bool"}]]"#;
    assert_eq!(
        both(
            ty,
            r#"[{"a":true,"z":{}},{"z":1}]"#,
            Config::default().lenient(true)
        )
        .unwrap(),
        r#"["list",[["object",{"a":["bool",true]}],["object",{"a":["null"]}]]]"#
    );
}

#[test]
fn dynamic_values_in_either_order() {
    let want = r#"["dynamic",["list","number"],["list",[["number","1"]]]]"#;
    assert_eq!(
        both(
            "\"dynamic\"",
            r#"{"type":["list","number"],"value":[1]}"#,
            Config::default()
        )
        .unwrap(),
        want
    );
    assert_eq!(
        both(
            "\"dynamic\"",
            r#"{"value":[1],"type":["list","number"]}"#,
            Config::default()
        )
        .unwrap(),
        want
    );
    // Inside containers, followed by more values.
    let got = both(
        r#"["object",{"d":"dynamic","z":"string"}]"#,
        r#"{"d":{"value":{"k":"v"},"type":["map","string"]},"z":"after"}"#,
        Config::default(),
    )
    .unwrap();
    assert_eq!(
        got,
        r#"["object",{"d":["dynamic",["map","string"],["map",{"k":["string","v"]}]],"z":["string","after"]}]"#
    );
    for (text, kind) in [
        (r#"{"value":1}"#, "missing \"type\""),
        (r#"{"type":"number"}"#, "missing \"value\""),
        (
            r#"{"type":"number","value":1,"x":2}"#,
            "unexpected key \"x\"",
        ),
    ] {
        let e = both("\"dynamic\"", text, Config::default()).unwrap_err();
        assert!(e.contains(kind), "{text}: {e}");
    }
    let e = both(
        "\"dynamic\"",
        r#"{"type":["list","strin"],"value":[]}"#,
        Config::default(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "(root): invalid type: invalid primitive type name \"strin\" (at byte 16)"
    );
    // Read in document order, as go-cty reads it: an invalid type fails where it stands,
    // before a later key or a missing value is noticed, even if a valid type follows.
    for text in [
        r#"{"type":"strin"}"#,
        r#"{"type":"strin","x":1}"#,
        r#"{"type":"strin","type":"string","value":"a"}"#,
    ] {
        let e = both("\"dynamic\"", text, Config::default()).unwrap_err();
        assert_eq!(
            e, "(root): invalid type: invalid primitive type name \"strin\" (at byte 8)",
            "{text}"
        );
    }
    // Errors that point where a type array closes: the same byte from both readers (the
    // tape has no node there).
    for (text, want) in [
        (
            r#"{"value":null,"type":["object" ]}"#,
            "(root): invalid type: missing attribute types for object (at byte 31)",
        ),
        (
            "{\"type\":[\"list\"\t],\"value\":[]}",
            "(root): invalid type: missing element type for list (at byte 16)",
        ),
    ] {
        assert_eq!(
            both("\"dynamic\"", text, Config::default()).unwrap_err(),
            want,
            "{text}"
        );
    }
    // The last valid type wins.
    let got = both(
        "\"dynamic\"",
        r#"{"type":"number","value":"a","type":"string"}"#,
        Config::default(),
    );
    assert_eq!(got.unwrap(), r#"["dynamic","string",["string","a"]]"#);
}

#[test]
fn deep_nesting_is_a_clean_error() {
    let n = 1_000_000;
    let ty = format!("{}\"string\"{}", "[\"list\",".repeat(300), "]".repeat(300));
    let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
    let e = both(&ty, &text, Config::default()).unwrap_err();
    assert!(e.contains("limit exceeded: max_depth is 256"), "{e}");
    // A type JSON nested that deep inside a dynamic value.
    let deep_type = format!("{}\"string\"{}", "[\"list\",".repeat(n), "]".repeat(n));
    let text = format!("{{\"type\":{deep_type},\"value\":null}}");
    let e = both("\"dynamic\"", &text, Config::default()).unwrap_err();
    assert!(e.contains("type nested too deeply"), "{e}");
    assert!(matches!(
        tfwire::decode_json(
            &Program::compile(&Type::Dynamic),
            text.as_bytes(),
            &bumpalo::Bump::new()
        )
        .unwrap_err()
        .kind(),
        ErrorKind::InvalidType { .. }
    ));
}

/// Both readers read in document order, whether or not they know a count in advance
/// (simd-json's tape does, the byte-wise reader does not): an element that fails is reported
/// before a tuple length or a collection limit, which are reported at the container, with
/// the number of elements it holds.
#[test]
fn lengths_are_checked_in_document_order() {
    let tuple = r#"["tuple",["bool","string"]]"#;
    let cases = [
        (
            tuple,
            r#"["x"]"#,
            r#"[0]: a bool is required, found the string "x" (at byte 1)"#,
        ),
        (
            tuple,
            r#"["x",1,2,3]"#,
            r#"[0]: a bool is required, found the string "x" (at byte 1)"#,
        ),
        (
            tuple,
            r#"[true,"a",2,[3]]"#,
            "(root): a tuple of length 2 is required (4 given) (at byte 0)",
        ),
        (
            tuple,
            "[true]",
            "(root): a tuple of length 2 is required (1 given) (at byte 0)",
        ),
        (
            tuple,
            "[]",
            "(root): a tuple of length 2 is required (0 given) (at byte 0)",
        ),
        (
            r#"["tuple",[]]"#,
            "[1,[2],3]",
            "(root): a tuple of length 0 is required (3 given) (at byte 0)",
        ),
        (
            r#"["list",["tuple",["number"]]]"#,
            "[[1],[2,3,4]]",
            "[1]: a tuple of length 1 is required (3 given) (at byte 5)",
        ),
    ];
    for (ty, text, want) in cases {
        assert_eq!(
            both(ty, text, Config::default()).unwrap_err(),
            want,
            "{text}"
        );
    }
    let small = Config::default().max_collection_len(2);
    for (ty, text, want) in [
        (
            r#"["list","number"]"#,
            r#"[1,"b",3]"#,
            r#"[1]: a number is required, found "b" (at byte 3)"#,
        ),
        (
            r#"["list","number"]"#,
            "[1,2,3]",
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
        (
            r#"["map","number"]"#,
            r#"{"a":1,"b":2,"c":3}"#,
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
        (
            r#"["object",{"a":"number"}]"#,
            r#"{"a":1,"a":2,"a":3}"#,
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
        // Plain strings, bools and nulls take a fast path; it counts too.
        (
            r#"["list","string"]"#,
            r#"["a",null,"c"]"#,
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
        (
            r#"["set","bool"]"#,
            "[true,false,true,false]",
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
        (
            r#"["list","string"]"#,
            r#"["a",{},"c"]"#,
            "[1]: a string is required, found object (at byte 5)",
        ),
        (
            r#"["map","string"]"#,
            r#"{"a":"x","b":"y","c":"z"}"#,
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
        (
            r#"["object",{"a":"string","b":"string","c":"string"}]"#,
            r#"{"a":"x","b":"y","c":"z"}"#,
            "(root): limit exceeded: max_collection_len is 2 (at byte 0)",
        ),
    ] {
        assert_eq!(both(ty, text, small).unwrap_err(), want, "{text}");
    }
    // Attributes skipped in lenient mode count too.
    assert_eq!(
        both(
            r#"["object",{"a":"number"}]"#,
            r#"{"x":1,"y":2,"a":3}"#,
            small.lenient(true)
        )
        .unwrap_err(),
        "(root): limit exceeded: max_collection_len is 2 (at byte 0)"
    );
}

/// A dynamic value's type gets the depth that is left below the dynamic value's own level,
/// in JSON as in MessagePack (found by the `decode_json` fuzz target: JSON allowed one level
/// more, so a value decoded from JSON did not decode from its own MessagePack).
#[test]
fn dynamic_types_get_the_same_depth_in_both_formats() {
    let ty = r#"["object",{"d":"dynamic"}]"#;
    let json = r#"{"d":{"type":["list","string"],"value":["x"]}}"#;
    let msgpack = crate::support::hex("81a16492c4115b226c697374222c22737472696e67225d91a178");
    let program = Program::compile(&Type::from_json(ty).unwrap());
    for (depth, ok) in [(3, false), (4, true)] {
        let config = Config::default().max_depth(depth);
        let from_json = both(ty, json, config);
        let arena = bumpalo::Bump::new();
        let from_msgpack = Decoder::new(config)
            .decode_msgpack(&program, &msgpack, &arena)
            .map(|v| tfwire::canonical::to_string(&v))
            .map_err(|e| e.to_string());
        assert_eq!(from_json.is_ok(), ok, "max_depth {depth}: {from_json:?}");
        // The same value, or the same error but for its byte offsets (MessagePack carries
        // the type JSON in a binary: its message names the byte within the type JSON too).
        let without_offset = |r: Result<String, String>| {
            r.map_err(|e| {
                let end = [" (byte ", " (at byte"]
                    .iter()
                    .filter_map(|m| e.find(m))
                    .min()
                    .unwrap_or(e.len());
                e[..end].to_owned()
            })
        };
        assert_eq!(
            without_offset(from_json),
            without_offset(from_msgpack),
            "max_depth {depth}"
        );
    }
}

#[test]
fn plain_dynamic_values_take_the_type_they_imply() {
    // As `show -json` writes them: no {"type", "value"} wrapper.
    let ty = r#"["object",{"d":"dynamic","n":"number"}]"#;
    let program = Program::compile(&Type::from_json(ty).unwrap());
    let arena = bumpalo::Bump::new();
    let mut d = Decoder::new(Config::default().plain_dynamic(true));
    let cases = [
        (
            r#"{"d":{"b":{"k":2.5},"a":true},"n":1}"#,
            r#"["object",{"d":["dynamic",["object",{"a":"bool","b":["object",{"k":"number"}]}],["object",{"a":["bool",true],"b":["object",{"k":["number","2.5"]}]}]],"n":["number","1"]}]"#,
        ),
        (
            r#"{"d":"s","n":null}"#,
            r#"["object",{"d":["dynamic","string",["string","s"]],"n":["null"]}]"#,
        ),
        (
            r#"{"d":[1,[true]],"n":2}"#,
            r#"["object",{"d":["dynamic",["tuple",["number",["tuple",["bool"]]]],["tuple",[["number","1"],["tuple",[["bool",true]]]]]],"n":["number","2"]}]"#,
        ),
        (r#"{"d":null}"#, r#"["object",{"d":["null"],"n":["null"]}]"#),
    ];
    for (text, want) in cases {
        let v = d.decode_json(&program, text.as_bytes(), &arena).unwrap();
        assert_eq!(tfwire::canonical::to_string(&v), want, "{text}");
    }
    // A repeated key has no one type.
    let e = d
        .decode_json(&program, br#"{"d":{"a":1,"a":"x"}}"#, &arena)
        .unwrap_err();
    assert!(e.to_string().contains("duplicate \"a\" property"), "{e}");
    // The byte-wise reader cannot look ahead for the type, and says so.
    let e = d
        .decode_json_text(&program, br#"{"d":"s"}"#, &arena)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        ".d: invalid dynamic value: a plain dynamic value is read from a tape only (at byte 5)"
    );
    // Without the option, the wrapper is required.
    let plain = Decoder::new(Config::default()).decode_json(&program, br#"{"d":"s"}"#, &arena);
    assert!(plain.is_err());
}
