//! `tfwire show -json`, `--schemas DIR` and `tfwire schema add`/`list` over the real-client
//! corpora: a schema cache filled from each scenario's `schemas.json` gives the same output
//! as the file itself; missing providers and versions, and hostile names, are clear errors.

use crate::common::{corpus, fails, ok, real_client_scenarios, run};
use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tfwire-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_cache_filled_from_every_scenario_gives_what_its_schemas_file_gives() {
    let cache = TempDir::new("corpus");
    let scenarios = real_client_scenarios();
    for dir in &scenarios {
        let (plan, schemas) = (dir.join("plan.tfplan"), dir.join("schemas.json"));
        let args = ["schema", "add", "--plan", s(&plan), "--cache", cache.path()];
        let filed = ok(&[&args[..], &[s(&schemas)]].concat(), b"");
        // One line a provider of the document, each filed under the lock file's version.
        let doc = crate::common::read_json(&schemas);
        let providers = doc["provider_schemas"].as_object().unwrap();
        assert_eq!(
            filed.lines().count(),
            providers.len(),
            "{}: {filed}",
            dir.display()
        );
        for line in filed.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            assert!(
                matches!(fields[0], "added" | "unchanged"),
                "{}: {line}",
                dir.display()
            );
            assert!(providers.contains_key(fields[1]), "{line}");
            let file = Path::new(cache.path())
                .join(fields[1])
                .join(format!("{}.json", fields[2]));
            assert_eq!(fields[3], s(&file));
            let filed_doc = crate::common::read_json(&file);
            assert_eq!(filed_doc["format_version"], doc["format_version"]);
            assert_eq!(
                filed_doc["provider_schemas"][fields[1]], providers[fields[1]],
                "{line}"
            );
        }
    }
    for dir in &scenarios {
        let plan = dir.join("plan.tfplan");
        let from_file = ok(
            &[
                "show",
                "-json",
                s(&plan),
                "--schemas",
                s(&dir.join("schemas.json")),
            ],
            b"",
        );
        let from_cache = ok(&["show", "-json", s(&plan), "--schemas", cache.path()], b"");
        assert!(from_file.ends_with("}\n"), "{}", dir.display());
        assert_eq!(from_cache, from_file, "{}", dir.display());
        // The other commands that take --schemas read the cache too.
        let show = ["plan", "show", "--no-default-masks", "--schemas"];
        assert_eq!(
            ok(&[&show[..], &[cache.path(), s(&plan)]].concat(), b""),
            ok(
                &[&show[..], &[s(&dir.join("schemas.json")), s(&plan)]].concat(),
                b""
            ),
            "{}",
            dir.display()
        );
    }
    let listed = ok(&["schema", "list", "--cache", cache.path()], b"");
    let mut expected: Vec<String> = Vec::new();
    for line in listed.lines() {
        let (address, version) = line.split_once(' ').unwrap();
        assert!(
            Path::new(cache.path())
                .join(address)
                .join(format!("{version}.json"))
                .is_file(),
            "{line}"
        );
        expected.push(line.to_owned());
    }
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(expected, sorted, "listed by address, then version");
    assert!(
        listed.contains("terraform.io/builtin/terraform 1.16.0\n"),
        "{listed}"
    );
    assert!(
        listed.contains("registry.opentofu.org/tfwire/tfwire 1.0.0\n"),
        "{listed}"
    );
}

#[test]
fn json_with_one_dash_is_the_clients_spelling() {
    let dir = corpus("real-client/create");
    let plan = format!("{dir}/plan.tfplan");
    let schemas = format!("{dir}/schemas.json");
    let one = ok(&["show", "-json", &plan, "--schemas", &schemas], b"");
    assert_eq!(
        ok(&["show", &plan, "--json", "--schemas", &schemas], b""),
        one
    );
    assert_eq!(
        ok(&["show", &plan, "--schemas", &schemas, "-json"], b""),
        one
    );
    // `-o FILE` writes the same bytes.
    let out = TempDir::new("output");
    std::fs::create_dir_all(&out.0).unwrap();
    let file = out.0.join("plan.json");
    let args = [
        "show",
        "-json",
        &plan,
        "--schemas",
        &schemas,
        "-o",
        s(&file),
    ];
    assert_eq!(ok(&args, b""), "");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), one);
    // Without -json: a usage error that says what to run instead.
    let (code, stdout, err) = run(&["show", &plan, "--schemas", &schemas], b"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(err.contains("tfwire plan show PLANFILE"), "{err}");
    // `-json` is not rewritten for `plan show`, which has no such option.
    let (code, _, err) = run(&["plan", "show", "-json", &plan], b"");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_show_json_document_is_not_read_again() {
    let dir = corpus("real-client/create");
    let err = fails(
        &[
            "show",
            "-json",
            &format!("{dir}/plan.json"),
            "--schemas",
            &format!("{dir}/schemas.json"),
        ],
        b"",
    );
    assert!(
        err.ends_with(
            "plan.json: this is a `show -json` document already; give the plan file or the \
             state file it was written from\n"
        ),
        "{err}"
    );
    let err = fails(
        &[
            "show",
            "-json",
            "-",
            "--schemas",
            &format!("{dir}/schemas.json"),
        ],
        b"[1]",
    );
    assert_eq!(
        err,
        "error: <stdin>: neither a plan file nor a state (no `version` member)\n"
    );
}

#[test]
fn a_missing_provider_or_version_names_it_and_the_command_that_fills_it() {
    let cache = TempDir::new("missing");
    let dir = corpus("real-client/data-sources");
    let plan = format!("{dir}/plan.tfplan");
    // Only the tfwire provider: the plan's lock file also names local and time.
    let create = corpus("real-client/create/schemas.json");
    let version = "registry.opentofu.org/tfwire/tfwire=1.0.0";
    ok(
        &[
            "schema",
            "add",
            "--version",
            version,
            "--cache",
            cache.path(),
            &create,
        ],
        b"",
    );
    let err = fails(&["show", "-json", &plan, "--schemas", cache.path()], b"");
    assert_eq!(
        err,
        format!(
            "error: {0}: no schema of provider registry.opentofu.org/hashicorp/local version \
             1.4.0 is cached (cached versions: none); fill it, in the plan's working directory: \
             `tofu providers schema -json > s.json && tfwire schema add --plan PLANFILE --cache \
             {0} s.json`\n",
            cache.path()
        )
    );
    // A version of the document that nothing gives: nothing is filed.
    let err = fails(
        &[
            "schema",
            "add",
            "--cache",
            cache.path(),
            &format!("{dir}/schemas.json"),
        ],
        b"",
    );
    assert!(
        err.ends_with(
            "no version is known for provider registry.opentofu.org/hashicorp/local: give \
             --plan PLANFILE, --lock-file FILE or --version ADDR=VERSION\n"
        ),
        "{err}"
    );
    let listed = ok(&["schema", "list", "--cache", cache.path()], b"");
    assert_eq!(listed, "registry.opentofu.org/tfwire/tfwire 1.0.0\n");
    // Two versions and a state, which has no lock file: --lock-file says which.
    let other = "registry.opentofu.org/tfwire/tfwire=0.9.0";
    ok(
        &[
            "schema",
            "add",
            "--version",
            other,
            "--cache",
            cache.path(),
            &create,
        ],
        b"",
    );
    let state = corpus("real-client/create/terraform.tfstate");
    let err = fails(&["show", "-json", &state, "--schemas", cache.path()], b"");
    assert_eq!(
        err,
        format!(
            "error: {}: several versions of provider registry.opentofu.org/tfwire/tfwire are \
             cached (0.9.0, 1.0.0) and nothing says which to take: pass --lock-file FILE (the \
             configuration's .terraform.lock.hcl)\n",
            cache.path()
        )
    );
    let lock = TempDir::new("missing-lock");
    std::fs::create_dir_all(&lock.0).unwrap();
    let lock_file = lock.0.join(".terraform.lock.hcl");
    std::fs::write(
        &lock_file,
        "provider \"registry.opentofu.org/tfwire/tfwire\" {\n  version = \"1.0.0\"\n}\n",
    )
    .unwrap();
    // The same question for a JSON plan, answered by --lock-file.
    let json_plan = corpus("real-client/create/plan.json");
    let summary = ["plan", "summary", "--schemas", cache.path()];
    let err = fails(&[&summary[..], &[&json_plan]].concat(), b"");
    assert!(err.contains("several versions"), "{err}");
    let with_lock = ok(
        &[&summary[..], &["--lock-file", s(&lock_file), &json_plan]].concat(),
        b"",
    );
    let with_file = ok(
        &[
            "plan",
            "summary",
            "--schemas",
            &corpus("real-client/create/schemas.json"),
            &json_plan,
        ],
        b"",
    );
    assert_eq!(with_lock, with_file);
}

/// `tfwire schema add --version VERSION --cache CACHE DOC`.
fn schema_add<'a>(version: &'a str, cache: &'a str, doc: &'a str) -> [&'a str; 7] {
    ["schema", "add", "--version", version, "--cache", cache, doc]
}

#[test]
fn hostile_addresses_and_versions_never_leave_the_cache() {
    let cache = TempDir::new("hostile");
    let outside = TempDir::new("hostile-outside");
    let create = corpus("real-client/create/schemas.json");
    for version in ["../../../x", "..", "1.0.0/../../x", ".hidden", ""] {
        let v = format!("registry.opentofu.org/tfwire/tfwire={version}");
        let err = fails(&schema_add(&v, cache.path(), &create), b"");
        assert!(
            err.contains("invalid provider version"),
            "{version:?}: {err}"
        );
    }
    for address in [
        "../../x",
        "registry.opentofu.org/../x",
        "registry.opentofu.org/tfwire/..",
    ] {
        let v = format!("{address}=1.0.0");
        let (code, _, err) = run(&schema_add(&v, cache.path(), &create), b"");
        assert_eq!(code, 2, "{address}: {err}");
        assert!(err.contains("provider address"), "{address}: {err}");
    }
    // A schema document whose provider key climbs out.
    std::fs::create_dir_all(&outside.0).unwrap();
    let doc = outside.0.join("s.json");
    std::fs::write(
        &doc,
        r#"{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/../evil":{}}}"#,
    )
    .unwrap();
    let err = fails(
        &[
            "schema",
            "add",
            "--version",
            "a/b/c=1",
            "--cache",
            cache.path(),
            s(&doc),
        ],
        b"",
    );
    assert!(err.contains("invalid namespace"), "{err}");
    // Lock files that climb out (by the address, by the version), given to a command that
    // reads the cache.
    std::fs::create_dir_all(&cache.0).unwrap();
    let json_plan = corpus("real-client/create/plan.json");
    for (name, provider, version, error) in [
        (
            ".terraform.lock.hcl",
            "registry.opentofu.org/../../../etc",
            "1.0.0",
            "is not a full source address",
        ),
        (
            "v.hcl",
            "registry.opentofu.org/tfwire/tfwire",
            "../../../../x",
            "invalid provider version",
        ),
    ] {
        let lock = outside.0.join(name);
        let text = format!("provider \"{provider}\" {{\n  version = \"{version}\"\n}}\n");
        std::fs::write(&lock, text).unwrap();
        let args = [
            "plan",
            "summary",
            "--schemas",
            cache.path(),
            "--lock-file",
            s(&lock),
            &json_plan,
        ];
        let err = fails(&args, b"");
        assert!(err.contains(error), "{err}");
    }
    // Nothing was written anywhere: the cache is still empty.
    assert_eq!(ok(&["schema", "list", "--cache", cache.path()], b""), "");
    assert_eq!(std::fs::read_dir(&cache.0).unwrap().count(), 0);
}

#[test]
fn show_json_with_the_cache_is_the_clients_document() {
    let cache = TempDir::new("client");
    let scenarios = real_client_scenarios();
    for dir in &scenarios {
        let (plan, schemas) = (dir.join("plan.tfplan"), dir.join("schemas.json"));
        let args = ["schema", "add", "--plan", s(&plan), "--cache", cache.path()];
        ok(&[&args[..], &[s(&schemas)]].concat(), b"");
    }
    let (mut plans, mut states) = (0, 0);
    for dir in &scenarios {
        let ours = ok(
            &[
                "show",
                "-json",
                s(&dir.join("plan.tfplan")),
                "--schemas",
                cache.path(),
            ],
            b"",
        );
        let theirs = std::fs::read_to_string(dir.join("plan.json")).unwrap();
        assert!(
            ours == theirs,
            "{}: the plan document differs",
            dir.display()
        );
        plans += 1;
        let state = dir.join("terraform.tfstate");
        let Ok(theirs) = std::fs::read_to_string(dir.join("state.json")) else {
            continue;
        };
        let ours = ok(
            &["show", "-json", s(&state), "--schemas", cache.path()],
            b"",
        );
        assert_eq!(ours, theirs, "{}", dir.display());
        states += 1;
    }
    assert!(
        plans >= 50 && states >= 45,
        "{plans} plans, {states} states"
    );
}
