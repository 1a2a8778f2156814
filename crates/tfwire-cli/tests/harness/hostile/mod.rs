//! The hostile-document corpus: every file of `corpus/hostile/` (see its README) through
//! every command and output format, asserting what must hold for any input whatever:
//!
//! - exit code 0, 1 or 2 (and 0 where the command reads that kind of document, so the
//!   hostile text is really rendered; files named `error-*` must be rejected with 1);
//! - standard output and standard error are UTF-8 and carry no control character but the
//!   line feed, no DEL, no C1 control, no bidirectional control and no line or paragraph
//!   separator (U+2028, U+2029);
//! - no `SECRET` (the corpus puts it only in values that are, or should be, sensitive);
//! - every `FAKE` (which the corpus puts only after a line break or carriage return) comes
//!   right after the escape `\n` or `\r`: no document can start a line of its own;
//! - Markdown summaries: outside code spans and `<code>` elements there is nothing from
//!   the document (no `EVIL`, `PWNED`, `evil.example`), no HTML but the summary's own
//!   tags, and the tables and `<details>` stay well formed.
//!
//! A file dropped into `corpus/hostile/` is picked up as it is: its kind is read from its
//! content (any file that is not JSON gets the commands that read any input).

use crate::common::{details_balanced, repo, run_raw, tables_well_formed};
use serde_json::Value;
use std::path::PathBuf;

/// What a document is, as far as the harness is concerned.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Plan,
    State,
    RawState,
    LegacyState,
    Schema,
    /// A JSON object of strings: input for `decode`/`encode --type '["map","string"]'`.
    Values,
    /// Anything else (not JSON, or JSON of no known kind).
    Other,
}

fn kind(doc: Option<&Value>) -> Kind {
    let Some(doc) = doc else {
        return Kind::Other;
    };
    if doc.get("resource_changes").is_some() {
        Kind::Plan
    } else if doc.get("provider_schemas").is_some() {
        Kind::Schema
    } else if doc.get("values").is_some() {
        Kind::State
    } else if doc.get("version").and_then(Value::as_u64) == Some(3) {
        Kind::LegacyState
    } else if doc.get("resources").is_some() {
        Kind::RawState
    } else if doc
        .as_object()
        .is_some_and(|o| o.values().all(Value::is_string))
    {
        Kind::Values
    } else {
        Kind::Other
    }
}

fn files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(repo().join("corpus/hostile"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
        .collect();
    out.sort();
    out
}

/// A character that must never reach a terminal raw (the harness's own list, not
/// tfwire's): C0 but the line feed and the tab (which OpenTofu's plan view writes raw in
/// heredoc strings, and which only moves the cursor forward; document text in a line
/// has its tabs escaped, which the FAKE and table checks see), DEL, C1, bidirectional
/// controls, line and paragraph separators.
fn unsafe_char(c: char) -> bool {
    let u = u32::from(c);
    (u < 0x20 && c != '\n' && c != '\t')
        || (0x7f..=0x9f).contains(&u)
        || matches!(
            u,
            0x61c | 0x200e | 0x200f | 0x2028 | 0x2029 | 0x202a..=0x202e | 0x2066..=0x2069
        )
}

/// An address written as tfwire writes instance keys: a JSON string, with DEL, C1 and
/// bidirectional controls escaped too.
fn quote_key(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The addresses a `show` command should find, read from the document with serde_json.
fn addresses(kind: Kind, doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match kind {
        Kind::Plan => {
            for rc in doc["resource_changes"].as_array().into_iter().flatten() {
                out.extend(rc["address"].as_str().map(str::to_string));
            }
        }
        Kind::State => {
            fn walk(m: &Value, out: &mut Vec<String>) {
                for r in m["resources"].as_array().into_iter().flatten() {
                    out.extend(r["address"].as_str().map(str::to_string));
                }
                for c in m["child_modules"].as_array().into_iter().flatten() {
                    walk(c, out);
                }
            }
            walk(&doc["values"]["root_module"], &mut out);
        }
        Kind::RawState => {
            for r in doc["resources"].as_array().into_iter().flatten() {
                let base = crate::common::raw_state_base(r);
                for inst in r["instances"].as_array().into_iter().flatten() {
                    let a = match &inst["index_key"] {
                        Value::String(k) => format!("{base}[{}]", quote_key(k)),
                        Value::Number(n) => format!("{base}[{n}]"),
                        _ => base.clone(),
                    };
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
        Kind::LegacyState => {
            for m in doc["modules"].as_array().into_iter().flatten() {
                let mut prefix = String::new();
                for p in m["path"].as_array().into_iter().flatten().skip(1) {
                    prefix.push_str(&format!("module.{}.", p.as_str().unwrap()));
                }
                for key in m["resources"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|e| e.0)
                {
                    out.push(format!("{prefix}{key}"));
                }
            }
        }
        Kind::Schema | Kind::Values | Kind::Other => {}
    }
    out
}

/// One run of `tfwire` and what it printed.
struct Run {
    args: Vec<String>,
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    run_with(args, b"")
}

fn run_with(args: &[&str], stdin: &[u8]) -> Run {
    let out = run_raw(args, stdin);
    let text = |b: Vec<u8>, what: &str| {
        String::from_utf8(b).unwrap_or_else(|e| panic!("tfwire {args:?}: {what} is not UTF-8: {e}"))
    };
    Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        code: out.status.code().unwrap_or(-1),
        stdout: text(out.stdout, "stdout"),
        stderr: text(out.stderr, "stderr"),
    }
}

/// The checks every run passes; returns the problems found.
fn check(r: &Run, problems: &mut Vec<String>) {
    let who = format!("tfwire {:?}", r.args);
    if !matches!(r.code, 0..=2) {
        problems.push(format!("{who}: exit code {}", r.code));
    }
    for (name, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
        if let Some(c) = text.chars().find(|&c| unsafe_char(c)) {
            problems.push(format!("{who}: {name} carries U+{:04X} raw", u32::from(c)));
        }
        if text.contains("SECRET") {
            problems.push(format!("{who}: {name} shows a secret"));
        }
        // A multi-line string is drawn as OpenTofu draws it, as a heredoc: its lines are
        // the document's, inside the indented `<<-EOT` ... `EOT` block, where they
        // cannot pass for a line of tfwire's own.
        let text = &without_heredocs(text);
        for (at, _) in text.match_indices("FAKE") {
            let before = &text[..at];
            if !(before.ends_with("\\n") || before.ends_with("\\r")) {
                problems.push(format!("{who}: {name} lets a document start a line (FAKE)"));
            }
        }
    }
}

/// `text` without the bodies of its heredoc strings (the lines after one ending in `<<-EOT`,
/// or `<<-EOT # forces replacement`, up to the line `EOT`, indented deeper than the line
/// that opened it).
fn without_heredocs(text: &str) -> String {
    let mut out = String::new();
    let mut open: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        match open {
            Some(at) if line.trim() == "EOT" && indent > at => open = None,
            Some(_) => continue,
            None if line
                .trim_end()
                .trim_end_matches(" # forces replacement")
                .ends_with("<<-EOT") =>
            {
                open = Some(indent)
            }
            None => {}
        }
        out.push_str(line);
    }
    out
}

/// Markdown with its code spans (a backtick run up to the next run of the same length on
/// the line, as CommonMark pairs them) and `<code>` elements taken out.
fn outside_code(md: &str) -> String {
    let mut out = String::new();
    for line in md.lines() {
        let mut rest = line;
        while let Some(at) = rest.find('`') {
            out.push_str(&rest[..at]);
            let run = rest[at..].chars().take_while(|&c| c == '`').count();
            let after = &rest[at + run..];
            // The closing run: exactly `run` backticks.
            let mut close = None;
            let mut i = 0;
            while let Some(j) = after[i..].find('`') {
                let start = i + j;
                let n = after[start..].chars().take_while(|&c| c == '`').count();
                if n == run {
                    close = Some(start);
                    break;
                }
                i = start + n;
            }
            match close {
                Some(c) => rest = &after[c + run..],
                None => {
                    // No code span: the backticks are text.
                    out.push_str(&rest[at..at + run]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out.push('\n');
    }
    // `<code>` elements in the HTML (their text is HTML-escaped: no `<` inside).
    let mut text = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("<code>") {
        text.push_str(&rest[..at]);
        match rest[at..].find("</code>") {
            Some(end) => rest = &rest[at + end + "</code>".len()..],
            None => {
                text.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    text.push_str(rest);
    text
}

/// The HTML tags a summary writes itself.
const TAGS: [&str; 8] = [
    "<details>",
    "<details open>",
    "</details>",
    "<summary>",
    "</summary>",
    "<strong>",
    "</strong>",
    "<sub>",
];

fn check_markdown(r: &Run, problems: &mut Vec<String>) {
    if r.code != 0 {
        return;
    }
    let who = format!("tfwire {:?}", r.args);
    let md = &r.stdout;
    let text = outside_code(md);
    // (`<details>` counted outside code: a code span may show the text `</details>`.)
    if !details_balanced(&text) || !tables_well_formed(md) {
        problems.push(format!("{who}: tables or <details> broken:\n{md}"));
    }
    for word in ["EVIL", "PWNED", "evil.example", "http", "www."] {
        if text.contains(word) {
            problems.push(format!("{who}: {word:?} outside code:\n{text}"));
        }
    }
    for (at, _) in text.match_indices('<') {
        let tag = &text[at..];
        if !(TAGS.iter().any(|t| tag.starts_with(t)) || tag.starts_with("</sub>")) {
            let end = tag.find('>').map_or(tag.len().min(40), |e| e + 1);
            problems.push(format!("{who}: HTML not the summary's: {}", &tag[..end]));
        }
    }
    // Links, images, autolinks, mentions and emphasis need these outside code.
    for c in ['[', ']', '@', '|'] {
        let stray = text
            .lines()
            .filter(|l| !l.starts_with('|'))
            .any(|l| l.contains(c));
        if stray {
            problems.push(format!("{who}: {c:?} outside code and tables"));
        }
    }
}

#[test]
fn hostile_documents_through_every_command() {
    let mut problems = Vec::new();
    let mut runs = 0;
    let files = files();
    assert!(
        files.len() >= 13,
        "corpus/hostile/ has {} files",
        files.len()
    );
    for path in &files {
        let p = path.to_string_lossy().into_owned();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc: Option<Value> = std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        let kind = kind(doc.as_ref());
        let rejected = name.starts_with("error-");
        let mut all: Vec<(Vec<String>, Option<i32>)> = Vec::new();
        let mut add = |args: &[&str], want: Option<i32>| {
            all.push((args.iter().map(|s| s.to_string()).collect(), want));
        };
        // A command that reads this kind of document accepts it (or, for `error-*`
        // files, rejects it with 1); one for another kind may accept a document it reads
        // leniently, but within the exit codes. An `error-*` file of no kind the harness
        // knows (not JSON: gzip, binary) is rejected by every command.
        let want = |k: bool| match (rejected, k, kind == Kind::Other) {
            (true, _, true) | (true, true, _) => Some(1),
            (false, true, false) => Some(0),
            _ => None,
        };
        // Every file through every command that reads any input.
        let is_plan = kind == Kind::Plan;
        add(&["plan", "summary", &p], want(is_plan));
        add(&["plan", "summary", "--format", "json", &p], want(is_plan));
        add(&["plan", "summary", "--format", "tree", &p], want(is_plan));
        add(
            &["plan", "summary", "--format", "markdown", &p],
            want(is_plan),
        );
        for max in ["300", "1000", "4000", "65536"] {
            add(&["plan", "summary", "--max-bytes", max, &p], None);
        }
        add(
            &["plan", "summary", "--action", "update", &p],
            want(is_plan),
        );
        let is_state = matches!(kind, Kind::State | Kind::RawState | Kind::LegacyState);
        add(&["state", "list", &p], want(is_state));
        add(&["schema", &p], want(kind == Kind::Schema));
        let map = r#"["map","string"]"#;
        for output in ["canonical", "json"] {
            add(
                &[
                    "decode", "--input", "json", "--type", map, "--output", output, &p,
                ],
                want(kind == Kind::Values),
            );
        }
        add(
            &["encode", "--input", "json", "--type", map, "--hex", &p],
            want(kind == Kind::Values),
        );
        // Each address, both views; and near misses, for the suggestions.
        // An address holding NUL cannot be a command-line argument (its document is still
        // rendered by the summaries and lists above).
        let addrs: Vec<String> = doc
            .as_ref()
            .map(|d| addresses(kind, d))
            .unwrap_or_default()
            .into_iter()
            .filter(|a| !a.contains('\0'))
            .collect();
        for a in &addrs {
            if is_plan {
                // The text view draws what OpenTofu draws, and refuses (exit 1) an action
                // list OpenTofu has no drawing for; checked below.
                add(&["plan", "show", &p, a], want(true));
                add(&["plan", "show", "--all", &p, a], want(true));
                add(&["plan", "show", "--format", "json", &p, a], want(true));
            } else {
                // With the deposed objects, so that their headers are drawn too (an instance
                // may have nothing else).
                add(&["state", "show", "--deposed", &p, a], want(true));
            }
        }
        let missing: Vec<String> = addrs
            .iter()
            .take(3)
            .flat_map(|a| [format!("{a}x"), a.chars().skip(1).collect::<String>()])
            .chain(["t.n".to_string(), "x".to_string()])
            .collect();
        for m in &missing {
            if addrs.contains(m) {
                continue;
            }
            add(&["plan", "show", &p, m], Some(1));
            add(&["state", "show", &p, m], Some(1));
        }
        // Schemas: every type of every provider.
        if kind == Kind::Schema {
            let providers = doc.as_ref().unwrap()["provider_schemas"]
                .as_object()
                .unwrap();
            // (Names holding NUL cannot be arguments; `schema FILE` lists them above.)
            for (addr, s) in providers.iter().filter(|(a, _)| !a.contains('\0')) {
                for (key, flag) in [
                    ("resource_schemas", None),
                    ("data_source_schemas", Some("--data-source")),
                ] {
                    let types = s[key].as_object().into_iter().flatten().map(|e| e.0);
                    for ty in types.filter(|t| !t.contains('\0')) {
                        let mut args = vec!["schema", &p, "--provider", addr, "--resource", ty];
                        args.extend(flag);
                        add(&args, want(true));
                    }
                }
                add(
                    &["schema", &p, "--provider", addr, "--resource", "r_missing"],
                    Some(1),
                );
            }
            add(
                &[
                    "schema",
                    &p,
                    "--provider",
                    "nope\u{1b}[2J",
                    "--resource",
                    "r",
                ],
                Some(1),
            );
        }
        for (args, want) in all {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = run(&args);
            runs += 1;
            check(&r, &mut problems);
            // The text view refuses an action list OpenTofu has no drawing for.
            let undrawable = args[..2] == ["plan", "show"]
                && !args.contains(&"json")
                && r.code == 1
                && r.stderr.contains("is not one OpenTofu draws");
            if let Some(w) = want
                && r.code != w
                && !undrawable
            {
                problems.push(format!(
                    "tfwire {args:?}: exit {} (want {w}): {}",
                    r.code, r.stderr
                ));
            }
            let markdown = args.contains(&"markdown") || args.contains(&"--max-bytes");
            if markdown {
                check_markdown(&r, &mut problems);
            }
        }
    }
    // The value maps once more through MessagePack: encoded, then decoded from hex on
    // standard input (canonical, JSON, and a type the strings do not fit).
    for path in files.iter().filter(|p| {
        let doc = std::fs::read(p)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
        kind(doc.as_ref()) == Kind::Values
    }) {
        let p = path.to_string_lossy();
        let map = r#"["map","string"]"#;
        let hex = run(&["encode", "--input", "json", "--type", map, "--hex", &p]);
        assert_eq!(hex.code, 0, "{}", hex.stderr);
        for (ty, output, want) in [
            (map, "canonical", 0),
            (map, "json", 0),
            (r#"["map","number"]"#, "canonical", 1),
            (r#"["object",{"k0":"string"}]"#, "canonical", 1),
        ] {
            let args = ["decode", "--hex", "--type", ty, "--output", output];
            let r = run_with(&args, hex.stdout.as_bytes());
            runs += 1;
            check(&r, &mut problems);
            if r.code != want {
                problems.push(format!(
                    "tfwire {args:?} < {p}: exit {} (want {want})",
                    r.code
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems in {runs} runs:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(runs > 300, "only {runs} runs");
}

/// A report of escape sequences in a plan, as filed (`corpus/hostile/repro-escape-sequences.json`): the table shows
/// the escapes, not the sequences.
#[test]
fn filed_escape_sequence_repro() {
    let p = repo().join("corpus/hostile/repro-escape-sequences.json");
    let r = run(&["plan", "summary", &p.to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "Plan (format 1.2, Terraform 1.9\\u001b]0;PWNED\\u0007)\n\n\
         ACTION  ADDRESS       NOTES\n\
         update  a.x\\u001b[2J  r\\u001b[31m\n\n\
         Changes: 0 create, 1 update, 0 delete, 0 replace\n"
    );
    // The same escapes in a suggestion on standard error.
    let r = run(&["plan", "show", &p.to_string_lossy(), "a.x"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("did you mean:\n  a.x\\u001b[2J\n"),
        "{}",
        r.stderr
    );
}

/// Every class of character that must not reach a terminal raw: C0 (ESC, BEL, CR, LF, TAB),
/// DEL, C1 (NEL, 8-bit CSI), the line and paragraph separators, the bidirectional
/// embeddings, overrides and isolates, ALM, LRM, RLM; a line feed and a carriage return
/// each followed by `FAKE`.
const CONTROLS: &str = "n\u{1b}[2J\u{7}\u{7f}\u{85}\u{9b}\u{2028}\u{2029}\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{61c}\u{200e}\u{200f}\tz\rFAKE\nFAKE";

/// A temporary file holding `v`.
fn temp_json(name: &str, v: &Value) -> String {
    let dir = std::env::temp_dir().join(format!("tfwire-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(v).unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

/// Names (attribute names, map keys, nested block type names, output names, provider
/// addresses, instance keys) and string values holding [`CONTROLS`], through the renderers
/// that draw with provider schemas (`plan show --schemas`, `state show --schemas`, the
/// embedded schemas of a redacted plan, `plan summary --schemas`), the tree summary, and
/// the error messages whose paths name them (tfwire's, tfwire-plan's and the schema
/// loader's, through `tfwire::path`'s printer): nothing raw reaches stdout or stderr, no
/// line is started by the document, and the escaped names are there (shown, not dropped).
#[test]
fn control_characters_in_names_never_reach_the_terminal() {
    let h = CONTROLS;
    // A nested block type's name (an attribute has `h`).
    let hb = &format!("{h}b");
    let provider = "registry.opentofu.org/hashicorp/t";
    let block = serde_json::json!({
        "attributes": {
            "id": {"type": "string", "computed": true},
            "tags": {"type": ["map", "string"], "optional": true},
            "secret": {"type": "string", "optional": true, "sensitive": true},
            h: {"type": "string", "optional": true},
            "obj": {"nested_type": {"nesting_mode": "map", "attributes": {
                h: {"type": "string", "optional": true},
                "pw": {"type": "string", "optional": true, "sensitive": true}}}, "optional": true}
        },
        "block_types": {
            hb: {"nesting_mode": "list", "block": {"attributes": {"v": {"type": "string", "optional": true}}}}
        }
    });
    let schemas = serde_json::json!({"format_version": "1.0", "provider_schemas": {
        provider: {"resource_schemas": {"t_r": {"version": 0, "block": block}}}}});
    let value = |v: &str| {
        serde_json::json!({
            "id": v, "tags": {h: v, "k": h}, "secret": "SECRET", h: v,
            "obj": {h: {h: v, "pw": "SECRET"}},
            hb: [{"v": v}]
        })
    };
    // The document's own markers hide what the schema hides.
    let marks = serde_json::json!({"secret": true, "obj": {h: {"pw": true}}});
    let address = format!("t_r.x[{}]", quote_key(h));
    let rc = serde_json::json!({
        "address": address, "mode": "managed", "type": "t_r", "name": "x", "index": h,
        "provider_name": provider,
        "change": {"actions": ["update"], "before": value("old"), "after": value(h),
                   "after_unknown": {}, "before_sensitive": marks, "after_sensitive": marks}
    });
    let plan = serde_json::json!({"format_version": "1.2", "resource_changes": [rc],
        "output_changes": {h: {"actions": ["create"], "before": null, "after": h,
                               "after_unknown": false, "after_sensitive": false}}});
    let state = serde_json::json!({"format_version": "1.0", "values": {"root_module": {"resources": [{
        "address": address, "mode": "managed", "type": "t_r", "name": "x", "index": h,
        "provider_name": provider, "values": value(h), "sensitive_values": marks}]}}});
    let mut redacted = plan.clone();
    redacted["provider_schemas"] = schemas["provider_schemas"].clone();
    // The embedded schemas, unloadable under a hostile provider name: the warning names it.
    let mut bad_embedded = plan.clone();
    bad_embedded["provider_schemas"] = serde_json::json!({h: {"resource_schemas": {
        "t_r": {"block": {"attributes": {h: {"type": 7}}}}}}});
    // A value that does not conform to the schema under a hostile key: the error's path.
    let mut bad_value = plan.clone();
    bad_value["resource_changes"][0]["change"]["after"]["tags"][h] = serde_json::json!([1]);
    // Documents rejected with a path through hostile names.
    let bad_output = serde_json::json!({"format_version": "1.2", "resource_changes": [],
        "output_changes": {h: {"actions": 5}}});
    let mut bad_schema = schemas.clone();
    bad_schema["provider_schemas"][provider]["resource_schemas"]["t_r"]["block"]["attributes"][h]
        ["type"] = serde_json::json!(["map", 7]);
    let values = serde_json::json!({h: [h]});
    let object = serde_json::json!({"k": [h]});

    let files = [
        ("plan.json", &plan),
        ("state.json", &state),
        ("schemas.json", &schemas),
        ("redacted.json", &redacted),
        ("bad-embedded.json", &bad_embedded),
        ("bad-value.json", &bad_value),
        ("bad-output.json", &bad_output),
        ("bad-schema.json", &bad_schema),
        ("values.json", &values),
        ("object.json", &object),
    ];
    let paths: std::collections::HashMap<&str, String> =
        files.iter().map(|(n, v)| (*n, temp_json(n, v))).collect();
    let f = |n: &str| paths[n].as_str();
    let s = f("schemas.json");
    let decode_json = |ty, file| vec!["decode", "--input", "json", "--type", ty, f(file)];
    // (arguments, exit code, whether the escaped hostile name must be printed)
    let cases: Vec<(Vec<&str>, i32, bool)> = vec![
        (vec!["plan", "show", f("plan.json")], 0, true),
        (
            vec!["plan", "show", "--schemas", s, f("plan.json")],
            0,
            true,
        ),
        (
            vec![
                "plan",
                "show",
                "--schemas",
                s,
                "--all",
                f("plan.json"),
                &address,
            ],
            0,
            true,
        ),
        (
            vec!["plan", "show", "--format", "json", f("plan.json"), &address],
            0,
            true,
        ),
        (vec!["plan", "show", f("redacted.json")], 0, true),
        (vec!["plan", "show", f("redacted.json"), &address], 0, true),
        (vec!["plan", "show", f("bad-embedded.json")], 0, true),
        (vec!["plan", "summary", f("plan.json")], 0, true),
        (
            vec!["plan", "summary", "--format", "tree", f("plan.json")],
            0,
            true,
        ),
        (
            vec![
                "plan",
                "summary",
                "--format",
                "tree",
                "--schemas",
                s,
                f("plan.json"),
            ],
            0,
            true,
        ),
        (
            vec!["plan", "summary", "--schemas", s, f("plan.json")],
            0,
            true,
        ),
        (
            vec!["plan", "summary", "--schemas", s, f("bad-value.json")],
            1,
            true,
        ),
        (vec!["plan", "summary", f("bad-output.json")], 1, true),
        (vec!["plan", "show", f("bad-output.json")], 1, true),
        (vec!["state", "show", f("state.json"), &address], 0, true),
        (
            vec!["state", "show", "--schemas", s, f("state.json"), &address],
            0,
            true,
        ),
        (vec!["schema", f("bad-schema.json")], 1, true),
        (
            vec![
                "state",
                "show",
                "--schemas",
                f("bad-schema.json"),
                f("state.json"),
                &address,
            ],
            1,
            true,
        ),
        (decode_json(r#"["map","string"]"#, "values.json"), 1, true),
        (
            decode_json(r#"["object",{"k":["list","number"]}]"#, "object.json"),
            1,
            false,
        ),
    ];
    let mut problems = Vec::new();
    // How `n\u{1b}[2J` and the rest print once escaped.
    let escaped = "n\\u001b[2J\\u0007\\u007f\\u0085\\u009b\\u2028\\u2029\\u202a";
    for (args, code, shown) in &cases {
        let r = run(args);
        check(&r, &mut problems);
        if r.code != *code {
            problems.push(format!(
                "tfwire {args:?}: exit {} (want {code}): {}",
                r.code, r.stderr
            ));
        }
        let out = format!("{}{}", r.stdout, r.stderr);
        if *shown && !out.contains(escaped) {
            problems.push(format!(
                "tfwire {args:?}: the hostile name is not shown escaped:\n{out}"
            ));
        }
        // Tabs in names are escaped too (only heredoc bodies keep the document's tabs).
        if without_heredocs(&out).contains("\tz") {
            problems.push(format!("tfwire {args:?}: a raw tab from a name"));
        }
    }
    let _ = std::fs::remove_dir_all(std::path::Path::new(f("plan.json")).parent().unwrap());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
