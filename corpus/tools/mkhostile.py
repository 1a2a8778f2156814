#!/usr/bin/env python3
"""Writes the hostile documents of corpus/hostile/ (written by this project; see its README).

Run from the repository root: `python3 corpus/tools/mkhostile.py`. The files are JSON with the
hostile characters as `\\u` escapes (ASCII files), except `error-raw-controls.json`,
which carries raw control bytes on purpose.

Conventions the test harness (crates/tfwire-cli/tests/harness/hostile/mod.rs) relies on:
- `SECRET` appears only in values that a sensitivity marker covers (or should cover):
  no output may contain it;
- `EVIL` appears only in strings aimed at Markdown: in a Markdown summary it may appear
  only inside code (a code span or a `<code>` element);
- `FAKE` always follows a line break or a carriage return in a string: in any output it
  must follow the escape `\\n` or `\\r`, never start a line of its own.
"""

import json
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "hostile")

# Terminal attacks: cursor movement, title, OSC 8 link, 8-bit CSI, NEL, bell, NUL, DEL,
# backspace, fake lines, bidirectional reordering.
ESC_CLEAR = "\u001b[2J\u001b[H"
OSC_TITLE = "\u001b]0;PWNED\u0007"
OSC_LINK = "\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\"
CSI8 = "\u009b31m\u0085"
BELL_NUL = "\u0007\u0000\u007f\u0008"
NEWLINE = "\nFAKE row"
CR = "\rFAKE"
BIDI = "\u202eevil\u202c\u2066x\u2069\u200f\u200e\u061c\u202a\u202b\u202d\u2067\u2068"
# Unicode line and paragraph separators: line breaks to some terminals, editors and
# JavaScript renderers.
LINESEP = "line\u2028sep\u2029para"
TERMINAL = [ESC_CLEAR, OSC_TITLE, OSC_LINK, CSI8, BELL_NUL, NEWLINE, CR, BIDI, LINESEP]

# Markdown / HTML attacks: links, images, autolinks, mentions, references, HTML,
# emphasis, table and code-span breaks.
MARKDOWN = [
    "[EVILlink](https://evil.example/x)",
    "![EVILimg](http://evil.example/x.png)",
    "https://evil.example/EVIL",
    "www.evil.example/EVIL",
    "<https://evil.example/EVIL>",
    "EVIL@evil.example",
    "@EVILuser",
    "#1 EVIL",
    "**EVILbold** _EVILem_ ~~EVILdel~~",
    "</sub><h1>EVIL</h1>",
    "</summary></details><img src=x onerror=alert(1)>EVIL",
    "<!-- EVIL",
    "&lt;EVIL&amp;",
    "a | EVIL | b \\| c",
    "`EVIL` `` ``` x",
    "$EVIL$ :EVIL:",
    "\nFAKE | EVIL |",
]


def write(name, doc):
    with open(os.path.join(OUT, name), "w", encoding="ascii") as f:
        json.dump(doc, f, indent=1, ensure_ascii=True)
        f.write("\n")


def rc(address, actions, before, after, **extra):
    change = {"actions": actions, "before": before, "after": after}
    change.update(extra.pop("change", {}))
    out = {
        "address": address,
        "mode": "managed",
        "type": extra.pop("type", "t"),
        "name": extra.pop("name", "n"),
        "change": change,
    }
    out.update(extra)
    return out


def repro():
    # A report of escape sequences in a plan, as it was filed: an OSC title in
    # terraform_version, ESC[2J in an address, SGR in action_reason.
    return {
        "format_version": "1.2",
        "terraform_version": "1.9\u001b]0;PWNED\u0007",
        "resource_changes": [
            {
                "address": "a.x\u001b[2J",
                "mode": "managed",
                "type": "a",
                "name": "x",
                "action_reason": "r\u001b[31m",
                "change": {"actions": ["update"], "before": {"v": 1}, "after": {"v": 2}},
            }
        ],
    }


def strings_plan(strings, tag):
    """A plan with `strings` in every string a summary or show prints."""
    changes = []
    for i, s in enumerate(strings):
        changes.append(
            rc(
                f"t.n{i}{s}",
                ["update"] if i % 3 else ["delete", "create"],
                {"k": s, s: "old" + s, "id": i},
                {"k": s + "2", s: "new" + s, "id": i},
                type="t" + s,
                name="n" + s,
                action_reason=s,
                previous_address=f"t.old{i}{s}",
                deposed="d" + s if i % 2 else None,
                module_address="module.m" + s if i % 4 == 0 else None,
                change={
                    "importing": {"id": "id" + s},
                    "replace_paths": [[s], ["k"]],
                    "after_unknown": {},
                    "before_sensitive": {},
                    "after_sensitive": {},
                },
            )
        )
        if changes[-1]["deposed"] is None:
            del changes[-1]["deposed"]
        if changes[-1]["module_address"] is None:
            del changes[-1]["module_address"]
    # Unknown action names, alone and joined.
    for i, s in enumerate(strings[:4]):
        changes.append(rc(f"t.act{i}", [s], None, {"a": 1}))
        changes.append(rc(f"t.join{i}", ["create", s], None, {"a": 1}))
    return {
        "format_version": "1.2",
        "terraform_version": "1.9.0" + strings[0] + tag,
        "resource_changes": changes,
        "resource_drift": [
            rc(f"t.drift{i}{s}", ["update"], {"a": s}, {"a": 1}, action_reason=s)
            for i, s in enumerate(strings[:3])
        ],
    }


def sensitive_plan():
    """Malformed and one-sided sensitivity markers: every SECRET must stay hidden."""
    cases = [
        # (name, before, after, before_sensitive, after_sensitive)
        ("string_true", {"pw": "SECRET_B1"}, {"pw": "SECRET_A1"}, {"pw": "true"}, {"pw": "true"}),
        ("number_one", {"pw": "SECRET_B2"}, {"pw": "SECRET_A2"}, {"pw": 1}, {"pw": 1}),
        ("yes_whole", {"pw": "SECRET_B3"}, {"pw": "SECRET_A3"}, "yes", "yes"),
        ("list_for_object", {"pw": "SECRET_B4"}, {"pw": "SECRET_A4"}, [True], [{"pw": True}]),
        ("object_for_list", {"l": ["SECRET_B5"]}, {"l": ["SECRET_A5"]}, {"l": {"0": True}}, {"l": {"0": True}}),
        ("object_on_scalar", {"pw": "SECRET_B6"}, {"pw": "SECRET_A6"}, {"pw": {}}, {"pw": {"x": False}}),
        ("list_on_scalar", {"pw": "SECRET_B7"}, {"pw": "SECRET_A7"}, {"pw": []}, {"pw": [False]}),
        # One side sensitive: the other side is hidden too.
        ("after_only", {"pw": "SECRET_B8"}, {"pw": "SECRET_A8"}, False, {"pw": True}),
        ("before_only", {"pw": "SECRET_B9"}, {"pw": "SECRET_A9"}, {"pw": True}, False),
        ("shape_change", {"pw": {"a": "SECRET_B10"}}, {"pw": "SECRET_A10"}, False, {"pw": True}),
        ("nested_after", {"m": {"k": "SECRET_B11", "v": "x"}}, {"m": {"k": "SECRET_A11", "v": "y"}}, {}, {"m": {"k": True}}),
        ("created", None, {"pw": "SECRET_A12", "x": 1}, False, {"pw": "1"}),
        ("deleted", {"pw": "SECRET_B13", "x": 1}, None, {"pw": "yes"}, False),
        ("whole_value_list", ["SECRET_B14"], ["SECRET_A14"], ["true"], [True]),
    ]
    out = []
    for name, b, a, bs, as_ in cases:
        actions = ["update"] if b is not None and a is not None else (["create"] if b is None else ["delete"])
        out.append(
            rc(
                f"t.{name}",
                actions,
                b,
                a,
                name=name,
                change={"before_sensitive": bs, "after_sensitive": as_, "after_unknown": {}},
            )
        )
    return {"format_version": "1.2", "terraform_version": "1.9.0", "resource_changes": out}


def sensitive_state():
    def res(name, values, sv):
        return {
            "address": f"t.{name}",
            "mode": "managed",
            "type": "t",
            "name": name,
            "provider_name": "registry.terraform.io/hashicorp/t",
            "schema_version": 0,
            "values": values,
            "sensitive_values": sv,
        }

    return {
        "format_version": "1.0",
        "terraform_version": "1.9.0",
        "values": {
            "root_module": {
                "resources": [
                    res("string_true", {"pw": "SECRET_S1", "id": "x"}, {"pw": "true"}),
                    res("number", {"pw": "SECRET_S2"}, {"pw": 1}),
                    res("yes", {"pw": "SECRET_S3"}, "yes"),
                    res("list_for_object", {"pw": "SECRET_S4"}, [{"pw": True}]),
                    res("object_on_scalar", {"pw": "SECRET_S5"}, {"pw": {}}),
                    res("object_for_list", {"l": ["SECRET_S6"]}, {"l": {"0": True}}),
                ]
            }
        },
    }


def sensitive_raw_state():
    def inst(sa, attrs, **extra):
        i = {"schema_version": 0, "attributes": attrs, "sensitive_attributes": sa}
        i.update(extra)
        return i

    resources = [
        ("string", inst("pw", {"pw": "SECRET_R1", "id": "a"})),
        ("object", inst({"pw": True}, {"pw": "SECRET_R2"})),
        ("true", inst(True, {"pw": "SECRET_R3"})),
        ("number", inst(1, {"pw": "SECRET_R4"})),
        ("path_not_list", inst(["pw"], {"pw": "SECRET_R5"})),
        ("step_unknown", inst([[{"type": "get_attr", "value": "m"}, {"type": "splat"}]], {"m": {"k": "SECRET_R6"}})),
        ("step_bad_value", inst([[{"type": "get_attr", "value": 7}]], {"pw": "SECRET_R7"})),
        ("index_negative", inst([[{"type": "get_attr", "value": "l"}, {"type": "index", "value": {"value": -1, "type": "number"}}]], {"l": ["SECRET_R8"]})),
        ("shape_conflict", inst([[{"type": "get_attr", "value": "l"}, {"type": "index", "value": {"value": 0, "type": "number"}}], [{"type": "get_attr", "value": "l"}, {"type": "get_attr", "value": "x"}]], {"l": ["SECRET_R9"]})),
    ]
    return {
        "version": 4,
        "terraform_version": "1.9.0",
        "serial": 1,
        "lineage": "x",
        "outputs": {},
        "resources": [
            {"mode": "managed", "type": "t", "name": n, "provider": 'provider["registry.terraform.io/hashicorp/t"]', "instances": [i]}
            for n, i in resources
        ],
    }


def terminal_state():
    resources = []
    for i, s in enumerate(TERMINAL + MARKDOWN[:6]):
        resources.append(
            {
                "address": f"t.n{i}{s}",
                "mode": "managed",
                "type": "t" + s,
                "name": "n" + s,
                "index": s,
                "provider_name": "p" + s,
                "schema_version": 0,
                "values": {"k": s, s: s},
                "sensitive_values": {},
            }
        )
    return {"format_version": "1.0", "terraform_version": "1.9" + OSC_TITLE, "values": {"root_module": {"resources": resources}}}


def terminal_raw_state():
    resources = []
    for i, s in enumerate(TERMINAL + MARKDOWN[:6]):
        resources.append(
            {
                "module": "module.m" + s,
                "mode": "managed" if i % 2 else "data",
                "type": "t" + s,
                "name": "n" + s,
                "provider": 'provider["p' + s + '"]',
                "instances": [
                    {"index_key": s, "status": "tainted" + s, "schema_version": 0, "attributes": {"k": s, s: s}, "sensitive_attributes": []},
                    {"index_key": i, "deposed": "d" + s, "schema_version": 0, "attributes": {"k": s}},
                    {"index_key": i + 100, "schema_version": 0, "attributes_flat": {"k" + s: s, "id": "x"}},
                ],
            }
        )
    return {"version": 4, "terraform_version": "1.9" + OSC_TITLE, "serial": 1, "lineage": "l" + BIDI, "outputs": {}, "resources": resources}


def unmarked_plan():
    # Values no marker covers but the default masks do: a password, a token, a private key,
    # an environment entry's value, a Lambda-style variables map, a map key named like a
    # secret, an output named like one; each changes, so every format lists it.
    before = {
        "db_password": "SECRET_U1",
        "api_token": "SECRET_U2",
        "tls": {"private_key_pem": "SECRET_U3"},
        "container": [{"env": [{"name": "PLAIN", "value": "SECRET_U4"}]}],
        "environment": [{"variables": {"DSN": "SECRET_U5"}}],
        "tags": {"Client_Secret": "SECRET_U6", "env": "prod"},
        "name": "a",
    }
    after = json.loads(json.dumps(before).replace("SECRET_U", "SECRET_V"))
    after["name"] = "b"
    return {
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": [
            rc("t.unmarked", ["update"], before, after,
               change={"after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}),
            rc("t.created", ["create"], None, {"password": "SECRET_U7"},
               change={"after_unknown": {}, "after_sensitive": False}),
        ],
        "output_changes": {
            "db_password": {"actions": ["create"], "before": None, "after": "SECRET_U8",
                            "after_unknown": False, "before_sensitive": False, "after_sensitive": False},
        },
    }


def unmarked_state():
    return {
        "format_version": "1.0",
        "terraform_version": "1.9.0",
        "values": {
            "root_module": {
                "resources": [
                    {
                        "address": "t.unmarked",
                        "mode": "managed",
                        "type": "t",
                        "name": "unmarked",
                        "provider_name": "registry.terraform.io/hashicorp/t",
                        "schema_version": 0,
                        "values": {"id": "x", "master_password": "SECRET_W1",
                                   "env": [{"name": "N", "value": "SECRET_W2"}]},
                        "sensitive_values": {},
                    }
                ]
            }
        },
    }


def unmarked_raw_state():
    return {
        "version": 4,
        "terraform_version": "1.9.0",
        "serial": 1,
        "lineage": "x",
        "outputs": {},
        "resources": [
            {"mode": "managed", "type": "t", "name": "unmarked",
             "provider": 'provider["registry.terraform.io/hashicorp/t"]',
             "instances": [
                 {"schema_version": 0, "sensitive_attributes": [],
                  "attributes": {"id": "x", "secret_string": "SECRET_X1",
                                 "env": [{"name": "N", "value": "SECRET_X2"}]},
                  "attributes_flat": None}]},
            {"mode": "managed", "type": "t", "name": "flat",
             "provider": 'provider["registry.terraform.io/hashicorp/t"]',
             "instances": [
                 {"schema_version": 0,
                  "attributes_flat": {"id": "x", "password": "SECRET_X3", "env.0.value": "SECRET_X4",
                                      "env.#": "1", "env.0.name": "N"}}]},
        ],
    }


def legacy_state():
    return {
        "version": 3,
        "terraform_version": "0.11" + OSC_TITLE,
        "serial": 1,
        "modules": [
            {
                "path": ["root", "m" + s],
                "resources": {
                    f"t{s}.n{i}": {"type": "t" + s, "primary": {"id": "x", "attributes": {"k" + s: s}}}
                },
            }
            for i, s in enumerate(TERMINAL)
        ],
    }


def terminal_schema():
    provider = {}
    for i, s in enumerate(TERMINAL + MARKDOWN[:4]):
        provider["registry.terraform.io/evil/p" + s] = {
            "provider": {"version": 0, "block": {}},
            "resource_schemas": {
                "r" + s: {"version": 0, "block": {"attributes": {"a" + s: {"type": "string", "optional": True, "description": s}}}}
            },
            "data_source_schemas": {"d" + s: {"version": 0, "block": {}}},
        }
    return {"format_version": "1.0", "provider_schemas": provider}


def values():
    return {f"k{i}{s}": s for i, s in enumerate(TERMINAL + MARKDOWN)}


def main():
    os.makedirs(OUT, exist_ok=True)
    write("repro-escape-sequences.json", repro())
    write("terminal-plan.json", strings_plan(TERMINAL, OSC_LINK))
    write("markdown-plan.json", strings_plan(MARKDOWN, "</sub><h1>EVIL</h1>"))
    write("sensitive-masks-plan.json", sensitive_plan())
    write("sensitive-values-state.json", sensitive_state())
    write("sensitive-attributes-rawstate.json", sensitive_raw_state())
    write("unmarked-secrets-plan.json", unmarked_plan())
    write("unmarked-secrets-state.json", unmarked_state())
    write("unmarked-secrets-rawstate.json", unmarked_raw_state())
    write("terminal-state.json", terminal_state())
    write("terminal-rawstate.json", terminal_raw_state())
    write("terminal-legacy-state.json", legacy_state())
    write("terminal-schema.json", terminal_schema())
    write("terminal-values.json", values())
    bad_version = repro()
    bad_version["format_version"] = "1.2" + OSC_TITLE + BIDI
    write("error-format-version.json", bad_version)
    # Raw control bytes (invalid in JSON strings) around a syntax error: the error's
    # excerpt of the line must not carry them.
    with open(os.path.join(OUT, "error-raw-controls.json"), "wb") as f:
        f.write(
            ('{"format_version":"1.2","terraform_version":"' + OSC_TITLE + BIDI + CSI8 + '"\n'
             ',"resource_changes":[' + OSC_LINK + ESC_CLEAR + ' }\n').encode("utf-8")
        )


if __name__ == "__main__":
    main()
