//! Path syntax: each case is the text and its steps (`a:` attribute, `k:` key, `i:`
//! index) then its display, or the exact error; the rule that attribute and key steps
//! select alike, on a JSON view and on a decoded value.

use std::hash::BuildHasher;
use tfwire::TypedJson as _;
use tfwire::{Path, PathStep, Program, Type};
use tfwire_json::{
    json_shape,
    tape::{INPUT_PADDING, TapeParser},
};

const CASES: &[(&str, &str)] = &[
    ("", "| (root)"),
    (".", "| (root)"),
    ("(root)", "| (root)"),
    (".id", "a:id | .id"),
    ("id", "a:id | .id"),
    (r#".tags["env"]"#, r#"a:tags k:env | .tags["env"]"#),
    (r#"tags["env"]"#, r#"a:tags k:env | .tags["env"]"#),
    (
        ".ingress[2].cidr_blocks[0]",
        "a:ingress i:2 a:cidr_blocks i:0 | .ingress[2].cidr_blocks[0]",
    ),
    (
        r#"["not an ident"]"#,
        r#"k:not an ident | ["not an ident"]"#,
    ),
    (
        r#".m["a.b"]["c"][0]"#,
        r#"a:m k:a.b k:c i:0 | .m["a.b"]["c"][0]"#,
    ),
    (
        r#".m["q\"\\\n\u00e9\ud83d\ude00"]"#,
        "a:m k:q\"\\\n\u{e9}\u{1f600} | .m[\"q\\\"\\\\\\né😀\"]",
    ),
    (r#".m[""]"#, r#"a:m k: | .m[""]"#),
    (".with-dash_and_9", "a:with-dash_and_9 | .with-dash_and_9"),
    (
        "[18446744073709551615]",
        "i:18446744073709551615 | [18446744073709551615]",
    ),
    // Errors.
    (
        "..a",
        r#"(root): invalid path "..a": expected an attribute name after '.' (use ["..."] for other names) (at byte 1)"#,
    ),
    (
        ".a.",
        r#"(root): invalid path ".a.": expected an attribute name after '.' (use ["..."] for other names) (at byte 3)"#,
    ),
    (
        ".1a",
        r#"(root): invalid path ".1a": expected an attribute name after '.' (use ["..."] for other names) (at byte 1)"#,
    ),
    (
        ".tags[env]",
        r#"(root): invalid path ".tags[env]": expected a number or a "string" after '[' (at byte 6)"#,
    ),
    (
        ".a[-1]",
        r#"(root): invalid path ".a[-1]": expected a number or a "string" after '[' (at byte 3)"#,
    ),
    (
        ".a[1",
        r#"(root): invalid path ".a[1": expected ']' (at byte 4)"#,
    ),
    (
        r#".a["x"#,
        r#"(root): invalid path ".a[\"x": unterminated string (at byte 3)"#,
    ),
    (
        r#".a["x\q"]"#,
        r#"(root): invalid path ".a[\"x\\q\"]": invalid escape (at byte 5)"#,
    ),
    (
        r#".a["\ud800"]"#,
        r#"(root): invalid path ".a[\"\\ud800\"]": unpaired surrogate (at byte 4)"#,
    ),
    (
        ".a b",
        r#"(root): invalid path ".a b": expected '.' or '[' (at byte 2)"#,
    ),
    (
        "[99999999999999999999]",
        r#"(root): invalid path "[99999999999999999999]": index out of range (at byte 1)"#,
    ),
    (
        ".a[\"x\ny\"]",
        r#"(root): invalid path ".a[\"x\ny\"]": control character in a string (at byte 5)"#,
    ),
    (
        ".é",
        r#"(root): invalid path ".é": expected an attribute name after '.' (use ["..."] for other names) (at byte 1)"#,
    ),
];

fn show(p: &Path<'_>) -> String {
    let steps: Vec<String> = p
        .steps()
        .iter()
        .map(|s| match s {
            PathStep::Attr(a) => format!("a:{a}"),
            PathStep::Key(k) => format!("k:{k}"),
            PathStep::Index(i) => format!("i:{i}"),
        })
        .collect();
    format!("{} | {p}", steps.join(" "))
        .trim_start()
        .to_string()
}

#[test]
fn path_syntax() {
    let mut failures = Vec::new();
    for (text, want) in CASES {
        let got = match Path::parse(text) {
            Ok(p) => show(&p),
            Err(e) => e.to_string(),
        };
        if got != *want {
            failures.push(format!("{text:?}\n  got:  {got}\n  want: {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The departures from OpenTofu's spelling that these cases show are recorded.
#[test]
fn the_spelling_is_a_recorded_decision() {
    let d = crate::support::decisions();
    let d = d
        .get("path/spelling")
        .expect("decisions.jsonl: path/spelling");
    assert_eq!(d.rule, "normalize");
}

#[test]
fn display_parses_back_to_the_same_path() {
    for (text, _) in CASES {
        if let Ok(p) = Path::parse(text) {
            let shown = p.to_string();
            assert_eq!(
                Path::parse(&shown).unwrap().into_owned(),
                p,
                "{text:?} shown as {shown:?}"
            );
        }
    }
}

#[test]
fn attribute_and_key_steps_select_the_same_member() {
    let text = br#"{"tags":{"env":"prod"},"list":[10,20]}"#;
    let mut buf = text.to_vec();
    buf.resize(text.len() + INPUT_PADDING, b' ');
    let shape = json_shape(text, 64, usize::MAX).unwrap();
    let mut parser = TapeParser::default();
    let doc = parser.parse_document(&mut buf, text.len(), &shape).unwrap();
    let root = doc.root();
    let a = Path::parse(".tags.env").unwrap();
    let k = Path::parse(r#".tags["env"]"#).unwrap();
    assert_eq!(a, k);
    // Equal paths hash alike.
    let state = std::hash::RandomState::new();
    assert_eq!(state.hash_one(&a), state.hash_one(&k));
    assert_ne!(
        a.to_string(),
        k.to_string(),
        "each prints as it was spelled"
    );
    assert_eq!(root.at(&a).unwrap().as_str(), Some("prod"));
    assert_eq!(root.at(&k).unwrap().as_str(), Some("prod"));
    let at = |p: &str| root.at(&Path::parse(p).unwrap());
    assert_eq!(at(".list[1]").unwrap().as_u64(), Some(20));
    assert!(at(".list[2]").is_none());
    assert!(at(".list.x").is_none());
    assert!(at(".tags[0]").is_none());
    assert_eq!(at("").unwrap(), root);

    // The same rule on a decoded value: a map key or an object attribute, either spelling.
    let ty = r#"["object",{"tags":["map","string"],"o":["object",{"env":"string"}]}]"#;
    let program = Program::compile(&Type::from_json(ty).unwrap());
    let arena = bumpalo::Bump::new();
    let v = tfwire::decode_json(
        &program,
        br#"{"tags":{"env":"prod"},"o":{"env":"dev"}}"#,
        &arena,
    )
    .unwrap();
    for (p, want) in [
        (".tags.env", "prod"),
        (r#".tags["env"]"#, "prod"),
        (".o.env", "dev"),
        (r#".o["env"]"#, "dev"),
    ] {
        let got = v.at(&Path::parse(p).unwrap()).and_then(|v| v.as_str());
        assert_eq!(got, Some(want), "{p}");
    }
}

/// Paths are covariant: a `Path<'static>` is usable where a shorter-lived one is expected.
#[test]
fn paths_are_covariant() {
    fn shorten<'s>(p: Path<'static>, _: &'s str) -> Path<'s> {
        p
    }
    let local = String::from(".a");
    let p = shorten(Path::parse(".a").unwrap(), &local);
    assert_eq!(p, Path::parse(&local).unwrap());
}

/// No character that could move a terminal's cursor, start a line or reorder text reaches
/// a path's display from a name: C0, DEL, C1, the line and paragraph separators and the
/// bidirectional controls are escaped in attribute names and keys alike, and the display
/// parses back to the same path.
#[test]
fn names_with_control_characters_display_escaped() {
    let unsafe_char = |c: char| {
        let u = u32::from(c);
        u < 0x20
            || (0x7f..=0x9f).contains(&u)
            || matches!(
                u,
                0x61c | 0x200e | 0x200f | 0x2028 | 0x2029 | 0x202a..=0x202e | 0x2066..=0x2069
            )
    };
    let every: String = (0u32..0x20)
        .chain(0x7f..=0x9f)
        .chain([0x61c, 0x200e, 0x200f, 0x2028, 0x2029])
        .chain(0x202a..=0x202e)
        .chain(0x2066..=0x2069)
        .filter_map(char::from_u32)
        .collect();
    for name in [
        every.clone(),
        format!("a{every}b"),
        "x\u{1b}]0;PWNED\u{7}".into(),
    ] {
        for path in [
            Path::from_iter([PathStep::attr(name.as_str())]),
            Path::from_iter([PathStep::attr("tags"), PathStep::key(name.as_str())]),
            Path::from_iter([PathStep::key(name.as_str()), PathStep::Index(3)]),
        ] {
            let shown = path.to_string();
            assert!(!shown.chars().any(unsafe_char), "{shown:?}");
            assert_eq!(Path::parse(&shown).unwrap().to_string(), shown);
        }
    }
}
