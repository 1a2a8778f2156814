//! The encoders beyond the conformance vectors: number forms, refinements, dynamic values,
//! and the errors for values that break the value model's rules (messages verbatim).

use crate::support::to_hex;
use tfwire::{Dynamic, Number, Program, Refinements, Ty, Type, Value};

fn program(ty: &str) -> Program {
    Program::compile(&Type::from_json(ty).unwrap())
}

fn msgpack(ty: &str, v: Value<'_>) -> Result<String, String> {
    tfwire::encode_msgpack(&program(ty), &v)
        .map(|b| to_hex(&b))
        .map_err(|e| e.to_string())
}

fn json(ty: &str, v: Value<'_>) -> Result<String, String> {
    tfwire::encode_json(&program(ty), &v).map_err(|e| e.to_string())
}

fn num(n: Number<'_>) -> Value<'_> {
    Value::Number(n)
}

#[test]
fn msgpack_numbers_as_go_cty_writes_them_floats_kept() {
    let cases: &[(Number<'_>, &str)] = &[
        (Number::Int(0), "00"),
        (Number::Int(127), "7f"),
        (Number::Int(128), "cc80"),
        (Number::Int(-1), "ff"),
        (Number::Int(-32), "e0"),
        (Number::Int(-33), "d0df"),
        (Number::Int(i64::MIN), "d38000000000000000"),
        (Number::Uint(i64::MAX as u64), "cf7fffffffffffffff"),
        // Integers beyond int64: decimal text.
        (
            Number::Uint(u64::MAX),
            "b43138343436373434303733373039353531363135",
        ),
        // A float stays the float it arrived as, integral or not, -0 included.
        (Number::F64(0.1), "cb3fb999999999999a"),
        (Number::F64(1.0), "cb3ff0000000000000"),
        (Number::F64(-0.0), "cb8000000000000000"),
        (Number::F64(18446744073709551616.0), "cb43f0000000000000"),
        (Number::F64(f64::INFINITY), "cb7ff0000000000000"),
        (Number::F64(f64::NEG_INFINITY), "cbfff0000000000000"),
        (Number::F32(0.5), "cb3fe0000000000000"),
        // Decimals: int64 → int, exact non-integer → float64, else decimal text.
        (Number::Decimal("1e3"), "cd03e8"),
        (Number::Decimal("-0"), "00"),
        (Number::Decimal("+12.50"), "cb4029000000000000"),
        (Number::Decimal("0.1"), "a3302e31"),
        (
            Number::Decimal("1e20"),
            "b5313030303030303030303030303030303030303030",
        ),
        (
            Number::Decimal("-9223372036854775809"),
            "b42d39323233333732303336383534373735383039",
        ),
    ];
    for &(n, want) in cases {
        assert_eq!(msgpack(r#""number""#, num(n)).unwrap(), want, "{n:?}");
    }
}

#[test]
fn json_numbers_as_go_cty_writes_them() {
    let cases: &[(Number<'_>, &str)] = &[
        (Number::Int(-5), "-5"),
        (Number::Uint(u64::MAX), "18446744073709551615"),
        (Number::F64(0.1), "0.1"),
        (Number::F64(-0.0), "-0"),
        (Number::F64(1.5e-7), "0.00000015"),
        (Number::F32(0.1), "0.10000000149011612"),
        (Number::Decimal("1.50e3"), "1500"),
        (Number::Decimal("-0.0"), "-0"),
        (Number::Decimal("-1.5e-3"), "-0.0015"),
    ];
    for &(n, want) in cases {
        assert_eq!(json(r#""number""#, num(n)).unwrap(), want, "{n:?}");
    }
    assert_eq!(
        json(r#""number""#, num(Number::F64(1e300))).unwrap(),
        format!("1{}", "0".repeat(300))
    );
    assert_eq!(
        json(r#""number""#, num(Number::F64(5e-324))).unwrap(),
        format!("0.{}5", "0".repeat(323))
    );
    assert_eq!(
        json(
            r#"["list","number"]"#,
            Value::List(&[num(Number::F64(f64::INFINITY))])
        )
        .unwrap_err(),
        "[0]: cannot encode: cannot serialize infinity as JSON (at byte 1)"
    );
}

#[test]
fn bad_numbers_are_errors() {
    let ty = r#""number""#;
    assert_eq!(
        msgpack(ty, num(Number::F64(f64::NAN))).unwrap_err(),
        r#"(root): a number is required, found "NaN" (at byte 0)"#
    );
    assert_eq!(
        json(ty, num(Number::F32(f32::NAN))).unwrap_err(),
        r#"(root): a number is required, found "NaN" (at byte 0)"#
    );
    assert_eq!(
        msgpack(ty, num(Number::Decimal("1_000"))).unwrap_err(),
        r#"(root): a number is required, found "1_000" (at byte 0)"#
    );
    // Infinity is never decimal text.
    assert_eq!(
        msgpack(ty, num(Number::Decimal("Inf"))).unwrap_err(),
        r#"(root): a number is required, found "Inf" (at byte 0)"#
    );
}

#[test]
fn json_strings_are_escaped_as_go_does() {
    assert_eq!(
        json(
            r#"["map","string"]"#,
            Value::Map(&[("<k>", Value::String("a&b\u{2028}\u{1}\u{8}\"\\\n\té"))])
        )
        .unwrap(),
        r#"{"\u003ck\u003e":"a\u0026b\u2028\u0001\u0008\"\\\n\té"}"#
    );
}

fn refined<'a>(r: &'a Refinements<'a>) -> Value<'a> {
    Value::Unknown(Some(r))
}

#[test]
fn refinements_in_go_cty_order() {
    let r = Refinements {
        not_null: true,
        lower: Some((Number::Int(1), true)),
        upper: Some((Number::F64(2.5), false)),
        ..Refinements::default()
    };
    assert_eq!(
        msgpack(r#""number""#, refined(&r)).unwrap(),
        "c7130c8301c2039201c30492cb4004000000000000c2"
    );
    let r = Refinements {
        not_null: true,
        prefix: Some("ab"),
        ..Refinements::default()
    };
    assert_eq!(
        msgpack(r#""string""#, refined(&r)).unwrap(),
        "c7070c8201c202a26162"
    );
    let r = Refinements {
        len_lower: Some(2),
        len_upper: Some(4),
        ..Refinements::default()
    };
    assert_eq!(
        msgpack(r#"["set","bool"]"#, refined(&r)).unwrap(),
        "c7050c8205020604"
    );
    // Refinements that say nothing are not written; nor is an ext 12 with an empty map.
    let r = Refinements {
        prefix: Some(""),
        ..Refinements::default()
    };
    assert_eq!(msgpack(r#""string""#, refined(&r)).unwrap(), "d40000");
    let r = Refinements {
        len_lower: Some(0),
        len_upper: Some(u64::MAX),
        ..Refinements::default()
    };
    assert_eq!(msgpack(r#"["map","bool"]"#, refined(&r)).unwrap(), "d40000");
    // A -Inf bound is written (go-cty omits only its own "no bound" value).
    let r = Refinements {
        lower: Some((Number::F64(f64::NEG_INFINITY), true)),
        ..Refinements::default()
    };
    assert_eq!(
        msgpack(r#""number""#, refined(&r)).unwrap(),
        "c70d0c810392cbfff0000000000000c3"
    );
}

#[test]
fn long_prefixes_are_cut_as_go_cty_cuts_them() {
    let p = "p".repeat(300);
    let r = Refinements {
        prefix: Some(&p),
        ..Refinements::default()
    };
    let out = msgpack(r#""string""#, refined(&r)).unwrap();
    assert_eq!(out, format!("c801020c8102d9fe{}", "70".repeat(254)));
    let p = "é".repeat(150);
    let r = Refinements {
        prefix: Some(&p),
        ..Refinements::default()
    };
    let out = msgpack(r#""string""#, refined(&r)).unwrap();
    assert_eq!(out, format!("c801000c8102d9fc{}", "c3a9".repeat(126)));
    // Exactly 256 bytes: kept whole.
    let p = format!("{}-", "c".repeat(255));
    let r = Refinements {
        prefix: Some(&p),
        ..Refinements::default()
    };
    let out = msgpack(r#""string""#, refined(&r)).unwrap();
    assert_eq!(out, format!("c801050c8102da0100{}2d", "63".repeat(255)));
}

#[test]
fn refinements_that_do_not_fit_are_errors() {
    let cases: &[(&str, Refinements<'_>, &str)] = &[
        (
            r#""number""#,
            Refinements {
                prefix: Some("a"),
                ..Refinements::default()
            },
            "a string prefix refines only a string",
        ),
        (
            r#""string""#,
            Refinements {
                lower: Some((Number::Int(0), true)),
                ..Refinements::default()
            },
            "number bounds refine only a number",
        ),
        (
            r#""bool""#,
            Refinements {
                len_upper: Some(3),
                ..Refinements::default()
            },
            "length bounds refine only a list, set or map",
        ),
        (
            r#""dynamic""#,
            Refinements {
                not_null: true,
                ..Refinements::default()
            },
            "an unknown value of unknown type has none (go-cty ignores them)",
        ),
        (
            r#""number""#,
            Refinements {
                lower: Some((Number::Int(2), true)),
                upper: Some((Number::Int(2), false)),
                ..Refinements::default()
            },
            "the number lower bound 2 is greater than the upper bound 2",
        ),
        (
            r#""number""#,
            Refinements {
                upper: Some((Number::F64(f64::NAN), true)),
                ..Refinements::default()
            },
            "",
        ),
        (
            r#"["list","bool"]"#,
            Refinements {
                len_lower: Some(3),
                len_upper: Some(2),
                ..Refinements::default()
            },
            "the length lower bound 3 is greater than the upper bound 2",
        ),
        (
            r#""string""#,
            Refinements {
                prefix: Some("e\u{301}"),
                ..Refinements::default()
            },
            "the string prefix is not in Unicode normalization form C",
        ),
    ];
    for (ty, r, want) in cases {
        let got = msgpack(ty, refined(r)).unwrap_err();
        let want = if want.is_empty() {
            r#"(root): a number is required, found "NaN" (at byte 0)"#.to_owned()
        } else {
            format!("(root): cannot encode: refinements: {want} (at byte 0)")
        };
        assert_eq!(got, want);
    }
    // 1,100 significant digits: too long even in scientific notation.
    let long = format!("1.{}1", "0".repeat(1098));
    let r = Refinements {
        lower: Some((Number::Decimal(&long), true)),
        ..Refinements::default()
    };
    assert_eq!(
        msgpack(r#""number""#, refined(&r)).unwrap_err(),
        "(root): cannot encode: the refinements take 1110 bytes, more than the 1024 go-cty \
         accepts (at byte 0)"
    );
}

#[test]
fn refinement_bounds_too_long_in_full_go_out_in_scientific_notation() {
    // go-cty writes these as 2,001 and 1,101 digits, past the 1 KiB its own decoder accepts.
    let big = format!("1e{}", 1100);
    let r = Refinements {
        lower: Some((Number::Decimal("-1.5e-2000"), false)),
        upper: Some((Number::Decimal(&big), true)),
        ..Refinements::default()
    };
    let hex = msgpack(r#""number""#, refined(&r)).unwrap();
    let (lower, upper) = (to_hex(b"-1.5e-2000"), to_hex(b"1e1100"));
    assert_eq!(hex, format!("c7190c820392aa{lower}c20492a6{upper}c3"));
    // And it decodes back to the same value.
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let p = program(r#""number""#);
    let arena = bumpalo::Bump::new();
    let back = tfwire::decode_msgpack(&p, &bytes, &arena).unwrap();
    assert_eq!(back, refined(&r));
}

fn dynamic<'a>(ty: Ty<'a>, value: Value<'a>, bump: &'a bumpalo::Bump) -> Value<'a> {
    Value::Dynamic(bump.alloc(Dynamic { ty, value }))
}

#[test]
fn dynamic_values_carry_their_type() {
    let bump = bumpalo::Bump::new();
    let list_of_string = Type::list(Type::String).to_ty(&bump);
    let v = dynamic(
        list_of_string,
        Value::List(bump.alloc_slice_copy(&[Value::String("x")])),
        &bump,
    );
    assert_eq!(
        msgpack(r#""dynamic""#, v).unwrap(),
        "92c4115b226c697374222c22737472696e67225d91a178"
    );
    assert_eq!(
        json(r#""dynamic""#, v).unwrap(),
        r#"{"value":["x"],"type":["list","string"]}"#
    );
    // A null of a known type is wrapped; of unknown type it is a plain nil.
    let n = dynamic(Ty::String, Value::Null, &bump);
    assert_eq!(
        msgpack(r#""dynamic""#, n).unwrap(),
        "92c40822737472696e6722c0"
    );
    assert_eq!(
        json(r#""dynamic""#, n).unwrap(),
        r#"{"value":null,"type":"string"}"#
    );
    assert_eq!(msgpack(r#""dynamic""#, Value::Null).unwrap(), "c0");
    assert_eq!(json(r#""dynamic""#, Value::Null).unwrap(), "null");
    assert_eq!(
        msgpack(r#""dynamic""#, Value::Unknown(None)).unwrap(),
        "d40000"
    );
    // A wrapper whose type is `dynamic` wraps nothing.
    let d = dynamic(Ty::Dynamic, Value::Null, &bump);
    assert_eq!(msgpack(r#""dynamic""#, d).unwrap(), "c0");
}

#[test]
fn dynamic_values_in_the_wrong_place_or_with_the_wrong_type_are_errors() {
    let bump = bumpalo::Bump::new();
    let s = dynamic(Ty::String, Value::String("x"), &bump);
    assert_eq!(
        msgpack(
            r#"["list","string"]"#,
            Value::List(bump.alloc_slice_copy(&[s]))
        )
        .unwrap_err(),
        "[0]: cannot encode: a value with a type of its own (Value::Dynamic) is allowed only at \
         a dynamic position (at byte 1)"
    );
    assert_eq!(
        msgpack(
            r#""dynamic""#,
            dynamic(Ty::Number, Value::String("x"), &bump)
        )
        .unwrap_err(),
        "(root): a number is required, found string (at byte 11)"
    );
    let list_of_dynamic = Type::list(Type::Dynamic).to_ty(&bump);
    let v = dynamic(
        list_of_dynamic,
        Value::List(bump.alloc_slice_copy(&[s])),
        &bump,
    );
    assert_eq!(
        msgpack(r#""dynamic""#, v).unwrap_err(),
        r#"(root): cannot encode: a dynamic value says its type is ["list","dynamic"], but the value's type is ["list","string"] (at byte 0)"#
    );
    let n = dynamic(Ty::Number, Value::Number(Number::Int(1)), &bump);
    let mixed = Value::List(bump.alloc_slice_copy(&[s, Value::Null, n]));
    assert_eq!(
        msgpack(
            r#"["object",{"l":["list","dynamic"]}]"#,
            Value::Object(bump.alloc_slice_copy(&[("l", mixed)]))
        )
        .unwrap_err(),
        r#".l: inconsistent list element types: "string" then "number" (at byte 3)"#
    );
}

fn object<'a>(bump: &'a bumpalo::Bump, es: &[(&'a str, Value<'a>)]) -> Value<'a> {
    Value::Object(bump.alloc_slice_copy(es))
}

#[test]
fn values_that_break_the_rules_are_errors_with_paths() {
    let bump = bumpalo::Bump::new();
    let ty = r#"["object",{"a":"string","b":["map","bool"]}]"#;
    assert_eq!(
        msgpack(ty, object(&bump, &[("a", Value::Null)])).unwrap_err(),
        r#"(root): missing attribute "b" (at byte 0)"#
    );
    assert_eq!(
        msgpack(
            ty,
            object(
                &bump,
                &[("a", Value::Null), ("b", Value::Null), ("c", Value::Null)]
            )
        )
        .unwrap_err(),
        r#"(root): unsupported attribute "c" (at byte 0)"#
    );
    assert_eq!(
        msgpack(ty, object(&bump, &[("b", Value::Null), ("a", Value::Null)])).unwrap_err(),
        "(root): cannot encode: object attributes must be sorted by name, each once (at byte 0)"
    );
    let map = Value::Map(bump.alloc_slice_copy(&[("y", Value::Bool(true)), ("x", Value::Null)]));
    assert_eq!(
        msgpack(ty, object(&bump, &[("a", Value::String("s")), ("b", map)])).unwrap_err(),
        r#".b: cannot encode: map keys must be sorted and unique: "x" comes after "y" (at byte 7)"#
    );
    let map = Value::Map(bump.alloc_slice_copy(&[("k", Value::String("no"))]));
    assert_eq!(
        msgpack(ty, object(&bump, &[("a", Value::Null), ("b", map)])).unwrap_err(),
        r#".b["k"]: a bool is required, found string (at byte 9)"#
    );
    let map = Value::Map(bump.alloc_slice_copy(&[("e\u{301}", Value::Bool(true))]));
    assert_eq!(
        json(ty, object(&bump, &[("a", Value::Null), ("b", map)])).unwrap_err(),
        ".b[\"e\u{301}\"]: cannot encode: map key is not in Unicode normalization form C \
         (go-cty normalizes every string; normalize it first) (at byte 15)"
    );
    assert_eq!(
        msgpack(
            ty,
            object(
                &bump,
                &[("a", Value::String("e\u{301}")), ("b", Value::Null)]
            )
        )
        .unwrap_err(),
        ".a: cannot encode: string is not in Unicode normalization form C (go-cty normalizes \
         every string; normalize it first) (at byte 3)"
    );
    assert_eq!(
        msgpack(r#"["tuple",["bool"]]"#, Value::Tuple(&[])).unwrap_err(),
        "(root): a tuple of length 1 is required (0 given) (at byte 0)"
    );
    assert_eq!(
        json(r#"["set","number"]"#, Value::List(&[])).unwrap_err(),
        "(root): a set is required, found list (at byte 0)"
    );
}

#[test]
fn nesting_is_limited() {
    // The encoders recurse: give them the stack a debug build needs for 1024 levels.
    let out = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let bump = bumpalo::Bump::new();
            let nest = |n: usize| {
                let mut ty = Type::Bool;
                let mut v = Value::Bool(true);
                for _ in 0..n {
                    ty = Type::list(ty);
                    v = Value::List(bump.alloc_slice_copy(&[v]));
                }
                (Program::compile(&ty), v)
            };
            let (p, v) = nest(1024);
            assert!(tfwire::encode_msgpack(&p, &v).is_ok());
            let (p, v) = nest(1025);
            let e = tfwire::encode_json(&p, &v).unwrap_err();
            (e.offset(), e.path().steps().len(), e.kind().to_string())
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        out,
        (
            1025,
            1025,
            "cannot encode: the value is nested more than 1024 levels deep".to_owned()
        )
    );
}

#[test]
fn types_of_dynamic_values_are_depth_limited_before_use() {
    // A user-built type far deeper than any decoder allows, inside a collection of dynamic
    // whose element types are compared: refused before anything recurses over it.
    let bump = bumpalo::Bump::new();
    let mut ty = Ty::String;
    for _ in 0..100_000 {
        ty = Ty::List(bump.alloc(ty));
    }
    let deep = Value::Dynamic(bump.alloc(Dynamic {
        ty,
        value: Value::Null,
    }));
    let v = Value::List(bump.alloc_slice_copy(&[deep, deep]));
    assert_eq!(
        msgpack(r#"["list","dynamic"]"#, v).unwrap_err(),
        "[0]: cannot encode: the type of a dynamic value is nested more than 1024 levels deep \
         (at byte 1)"
    );
}

#[test]
fn raw_msgpack_is_checked_then_copied() {
    let mut out = vec![0x91];
    tfwire::append_raw_msgpack(
        &[0x82, 0xa1, b'a', 0xc0, 0xa1, b'b', 0x93, 1, 2, 3],
        &mut out,
    )
    .unwrap();
    assert_eq!(to_hex(&out), "9182a161c0a162930102 03".replace(' ', ""));
    let err = |raw: &[u8]| {
        let mut out = Vec::new();
        let e = tfwire::append_raw_msgpack(raw, &mut out).unwrap_err();
        assert!(out.is_empty());
        e.to_string()
    };
    assert_eq!(
        err(&[0x92, 0x01]),
        "(root): unexpected end of input (at byte 2)"
    );
    assert_eq!(
        err(&[0x01, 0x02]),
        "(root): unexpected bytes after the end of the value (at byte 1)"
    );
    assert_eq!(
        err(&[0x91, 0xc1]),
        "(root): invalid MessagePack marker 0xc1 (at byte 1)"
    );
    assert_eq!(err(&[]), "(root): unexpected end of input (at byte 0)");
}
