//! Untyped numbers keep their exact text wherever an `f64` might not hold them.

use tfwire_plan::{JsonNumber, Parser};

/// Parses `text` and gives back its compact JSON text and the numbers of `root.n` (an array).
fn round_trip(text: &str) -> (String, Vec<String>) {
    let mut input = text.as_bytes().to_vec();
    let tape = Parser::new().parse(&mut input).expect("valid JSON");
    let root = tape.root();
    let numbers = root
        .get("n")
        .and_then(|n| n.as_array())
        .map(|a| {
            a.iter()
                .map(|v| v.as_number().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    (root.to_string(), numbers)
}

#[test]
fn long_numbers_keep_their_text() {
    let exact = [
        "123456789012345678901234567890",
        "-18446744073709551616",
        "0.10000000000000000001",
        "1e400",
        "-1E-400",
        "3.141592653589793238462643383279",
        "5e-320",
    ];
    let huge = format!("-1{}", "0".repeat(400));
    let exact: Vec<&str> = exact.iter().copied().chain([huge.as_str()]).collect();
    let short = [
        "0",
        "-1",
        "0.5",
        "3.14",
        "18446744073709551615",
        "-9223372036854775808",
    ];
    let all: Vec<&str> = exact.iter().chain(short.iter()).copied().collect();
    // Long numbers everywhere a value may stand: arrays, object members, nesting, after
    // strings that look like numbers and contain `:`, `,` and `[`.
    let text = format!(
        r#"{{"s":"a:123456789012345678901, [1e999 \" :1e999","n":[{}],"o":{{"k":{},"e":[],"f":{{}},"x":[[{}]]}}}}"#,
        all.join(" , "),
        exact[0],
        exact[3],
    );
    let (compact, numbers) = round_trip(&text);
    assert_eq!(numbers, all, "numbers of {text}");
    assert_eq!(compact, text.replace(" , ", ","));
}

#[test]
fn kept_numbers_are_decimals_and_compare_by_text() {
    let mut a = br#"[12345678901234567890123, 0.5, 1e400]"#.to_vec();
    let mut b = br#"[12345678901234567890124, 0.5, 1e400]"#.to_vec();
    let mut parser = Parser::new();
    let (ta, tb) = (
        parser.parse(&mut a).unwrap(),
        Parser::new().parse(&mut b).unwrap(),
    );
    let (ra, rb) = (ta.root(), tb.root());
    assert_eq!(
        ra.index(0).unwrap().as_number(),
        Some(JsonNumber::Decimal("12345678901234567890123"))
    );
    assert_eq!(ra.index(1).unwrap().as_number(), Some(JsonNumber::F64(0.5)));
    assert_eq!(ra.index(2).unwrap().as_f64(), Some(f64::INFINITY));
    // The same f64, different numbers.
    assert_eq!(ra.index(0).unwrap().as_f64(), rb.index(0).unwrap().as_f64());
    assert_ne!(ra, rb);
    assert_eq!(ra.index(2), rb.index(2));
}

#[test]
fn invalid_numbers_stay_invalid() {
    for text in [
        r#"{"n":[8e]}"#,
        r#"{"n":[1.e400]}"#,
        r#"{"n":[01234567890123456789]}"#,
        r#"{"n":[-]}"#,
        r#"{"n":[1e400.5]}"#,
    ] {
        let mut input = text.as_bytes().to_vec();
        let e = Parser::new().parse(&mut input).unwrap_err();
        assert!(e.to_string().contains("invalid"), "{text}: {e}");
    }
}

#[test]
fn short_numbers_with_exponents_are_floats() {
    let mut input = br#"[1.5e+3, 2E-2, 1e-400, 1e308]"#.to_vec();
    let tape = Parser::new().parse(&mut input).unwrap();
    let n = |i: usize| tape.root().index(i).unwrap().as_number().unwrap();
    assert_eq!(n(0), JsonNumber::F64(1500.0));
    assert_eq!(n(1), JsonNumber::F64(0.02));
    assert_eq!(n(2), JsonNumber::Decimal("1e-400"));
    assert_eq!(n(3), JsonNumber::F64(1e308));
    assert_eq!(tape.root().to_string(), "[1500,0.02,1e-400,1e308]");
}
