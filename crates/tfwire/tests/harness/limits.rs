//! Nothing a small value holds inflates past a bound when it is written out, and what a
//! go-cty value cannot be (a set holding a value twice) is never written.

use tfwire::{Number, Program, Type, Value};

fn program(ty: &str) -> Program {
    Program::compile(&Type::from_json(ty).unwrap())
}

/// Numbers whose plain text would pad their digits with more than `MAX_PLAIN_ZEROS` zeros
/// are written in scientific notation by every writer; go-cty's own range (up to `1e1000`)
/// keeps its plain text.
#[test]
fn huge_exponents_stay_short() {
    let cases = [
        ("1e99999", "1e99999"),
        ("-2.5e-2000", "-2.5e-2000"),
        ("12.5e1030", "1.25e1031"),
        ("0.0001e-1030", "1e-1034"),
    ];
    let number = program(r#""number""#);
    let arena = bumpalo::Bump::new();
    for (text, want) in cases {
        let n = Number::parse(text).unwrap();
        assert_eq!(n.to_string(), want, "{text}");
        let v = Value::Number(n);
        assert_eq!(
            tfwire::canonical::to_string(&v),
            format!(r#"["number","{want}"]"#)
        );
        assert_eq!(tfwire::encode_json(&number, &v).unwrap(), want);
        let mp = tfwire::encode_msgpack(&number, &v).unwrap();
        assert_eq!(&mp[1..], want.as_bytes(), "a MessagePack string");
        // Read back (as go-cty's ParseNumberVal reads the string), the same number.
        let back = tfwire::decode_msgpack(&number, &mp, &arena).unwrap();
        assert!(back.as_number().unwrap().cty_eq(&n));
        let back = tfwire::decode_json(&number, want.as_bytes(), &arena).unwrap();
        assert!(back.as_number().unwrap().cty_eq(&n));
    }
    // At the bound, plain text (as go-cty writes 1e1000); one past it, scientific.
    let at = "1".to_string() + &"0".repeat(tfwire::MAX_PLAIN_ZEROS as usize);
    assert_eq!(Number::parse("1e1024").unwrap().to_string(), at);
    assert_eq!(Number::parse("1e1025").unwrap().to_string(), "1e1025");
    let tiny = format!("0.{}1", "0".repeat(1024));
    assert_eq!(Number::parse("1e-1025").unwrap().to_string(), tiny);
    assert_eq!(Number::parse("1e-1026").unwrap().to_string(), "1e-1026");
    // Many significant digits are never shortened: they came in.
    let long = "7".repeat(5000);
    assert_eq!(Number::parse(&long).unwrap().to_string(), long);
    // 400 KB of such numbers write about as much, not 8 GiB.
    let list = program(r#"["list","number"]"#);
    let input = format!("[{}1e99999]", "1e99999,".repeat(50_000));
    let v = tfwire::decode_json(&list, input.as_bytes(), &arena).unwrap();
    let out = tfwire::encode_json(&list, &v).unwrap();
    assert_eq!(out.len(), input.len());
}

/// go-cty's `SetVal` merges equal elements; so does the canonical form's reader, and the
/// encoders refuse a hand-built set that holds a value twice, naming the elements.
#[test]
fn sets_hold_each_value_once() {
    let arena = bumpalo::Bump::new();
    let set = program(r#"["set","number"]"#);
    let v =
        tfwire::canonical::parse(br#"["set",[["number","1"],["number","1.0"]]]"#, &arena).unwrap();
    assert_eq!(
        tfwire::canonical::to_string(&v),
        r#"["set",[["number","1"]]]"#
    );
    assert_eq!(tfwire::encode_msgpack(&set, &v).unwrap(), b"\x91\x01");
    // Unknowns are never equal to anything: both stay.
    let v = tfwire::canonical::parse(br#"["set",[["unknown"],["unknown"]]]"#, &arena).unwrap();
    assert_eq!(v.elements().map(<[_]>::len), Some(2));
    // Large sets (sorted, not compared pairwise) too.
    let text = format!(
        r#"["set",[{}["number","5"]]]"#,
        (0..100)
            .map(|i| format!(r#"["number","{i}"],"#))
            .collect::<String>()
    );
    let v = tfwire::canonical::parse(text.as_bytes(), &arena).unwrap();
    assert_eq!(v.elements().map(<[_]>::len), Some(100));

    let one = Value::Number(Number::Int(1));
    let one_f = Value::Number(Number::F64(1.0));
    let nested = program(r#"["object",{"s":["set","number"]}]"#);
    let elems = [Value::Number(Number::Int(0)), one, one_f];
    let attrs = [("s", Value::Set(&elems))];
    let v = Value::Object(&attrs);
    let want = ".s: cannot encode: set elements [1] and [2] are equal: a set holds each value once (at byte 3)";
    assert_eq!(
        tfwire::encode_msgpack(&nested, &v).unwrap_err().to_string(),
        want
    );
    let e = tfwire::encode_json(&nested, &v).unwrap_err().to_string();
    assert!(
        e.starts_with(".s: cannot encode: set elements [1] and [2] are equal"),
        "{e}"
    );
    let many: Vec<Value<'_>> = (0..40)
        .map(|i| Value::Number(Number::Int(i)))
        .chain([Value::Number(Number::Uint(7))])
        .collect();
    let e = tfwire::encode_msgpack(&set, &Value::Set(&many)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "(root): cannot encode: set elements [7] and [40] are equal: a set holds each value once (at byte 0)"
    );
}
