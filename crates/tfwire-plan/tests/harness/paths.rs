//! Path syntax: each case is the text and its steps (`a:` attribute, `k:` key, `i:`
//! index) then its display, or the exact error.

use tfwire_plan::{Path, Step};

const CASES: &[(&str, &str)] = &[
    ("", "| ."),
    (".", "| ."),
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
        r#"invalid path "..a" at character 1: expected an attribute name after '.' (use ["..."] for other names)"#,
    ),
    (
        ".a.",
        r#"invalid path ".a." at character 3: expected an attribute name after '.' (use ["..."] for other names)"#,
    ),
    (
        ".1a",
        r#"invalid path ".1a" at character 1: expected an attribute name after '.' (use ["..."] for other names)"#,
    ),
    (
        ".tags[env]",
        r#"invalid path ".tags[env]" at character 6: expected a number or a "string" after '['"#,
    ),
    (
        ".a[-1]",
        r#"invalid path ".a[-1]" at character 3: expected a number or a "string" after '['"#,
    ),
    (
        ".a[1",
        r#"invalid path ".a[1" at character 4: expected ']'"#,
    ),
    (
        r#".a["x"#,
        r#"invalid path ".a[\"x" at character 3: unterminated string"#,
    ),
    (
        r#".a["x\q"]"#,
        r#"invalid path ".a[\"x\\q\"]" at character 5: invalid escape"#,
    ),
    (
        r#".a["\ud800"]"#,
        r#"invalid path ".a[\"\\ud800\"]" at character 4: unpaired surrogate"#,
    ),
    (
        ".a b",
        r#"invalid path ".a b" at character 2: expected '.' or '['"#,
    ),
    (
        "[99999999999999999999]",
        r#"invalid path "[99999999999999999999]" at character 1: index out of range"#,
    ),
    (
        ".é",
        r#"invalid path ".é" at character 1: expected an attribute name after '.' (use ["..."] for other names)"#,
    ),
];

fn show(p: &Path<'_>) -> String {
    let steps: Vec<String> = p
        .steps()
        .iter()
        .map(|s| match s {
            Step::Attr(a) => format!("a:{a}"),
            Step::Key(k) => format!("k:{k}"),
            Step::Index(i) => format!("i:{i}"),
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
    let mut input = br#"{"tags":{"env":"prod"},"list":[10,20]}"#.to_vec();
    let tape = tfwire_plan::Parser::new().parse(&mut input).unwrap();
    let root = tape.root();
    let a = Path::parse(".tags.env").unwrap();
    let k = Path::parse(r#".tags["env"]"#).unwrap();
    assert_eq!(a, k);
    assert_eq!(a.select(root).unwrap().as_str(), Some("prod"));
    assert_eq!(k.select(root).unwrap().as_str(), Some("prod"));
    assert_eq!(
        Path::parse(".list[1]")
            .unwrap()
            .select(root)
            .unwrap()
            .as_u64(),
        Some(20)
    );
    assert!(Path::parse(".list[2]").unwrap().select(root).is_none());
    assert!(Path::parse(".list.x").unwrap().select(root).is_none());
    assert!(Path::parse(".tags[0]").unwrap().select(root).is_none());
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
