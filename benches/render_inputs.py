#!/usr/bin/env python3
"""Writes the hostile rendering inputs (wide names, quadratic shapes, deep nesting) into a
directory, one file per case, and prints for each the tfwire command that reads it.

    python3 benches/render_inputs.py OUT_DIR

Each case is a JSON plan or state a few hundred KiB to a few MiB in size; the commands must
exit 0 or 1 within seconds, with output within the documented multiples of the input
(crates/tfwire-cli/src/escape.rs: ALIGN_MAX, DEPTH_MAX).
"""
import json
import os
import sys


def plan(changes, outputs=None):
    return {
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "resource_changes": changes,
        "output_changes": outputs or {},
    }


def rc(address, actions, before, after, **extra):
    change = {"actions": actions, "before": before, "after": after}
    change.update(extra)
    mod, _, rest = address.rpartition("aws_s3_bucket.")
    r = {
        "address": address,
        "mode": "managed",
        "type": "aws_s3_bucket",
        "name": rest.split("[")[0] or "x",
        "provider_name": "registry.opentofu.org/hashicorp/aws",
        "change": change,
    }
    if mod:
        r["module_address"] = mod.rstrip(".")
    return r


def cases():
    long = "a" * 65536
    # 1. widths above u16::MAX
    yield "wide-address.json", ["plan", "summary"], plan(
        [rc("aws_s3_bucket.x" + long, ["create"], None, {"id": "1"}),
         rc("aws_s3_bucket.y", ["create"], None, {"id": "1"})])
    yield "wide-address-show.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x" + long, ["create"], None, {"id": "1"})])
    yield "wide-output.json", ["plan", "summary"], plan([], {
        long: {"actions": ["create"], "before": None, "after": 1},
        "b": {"actions": ["create"], "before": None, "after": 2}})
    yield "wide-output-show.json", ["plan", "show"], plan([], {
        long: {"actions": ["create"], "before": None, "after": 1},
        "b": {"actions": ["create"], "before": None, "after": 2}})
    deep_mod = ".".join("module.m" for _ in range(10000))
    yield "deep-module.json", ["plan", "summary"], plan(
        [rc(deep_mod + ".aws_s3_bucket.x", ["create"], None, {"id": "1"})])
    yield "deep-module-tree.json", ["plan", "summary", "--format", "tree"], plan(
        [rc(deep_mod + ".aws_s3_bucket.x", ["create"], None, {"id": "1"})])
    yield "deep-module-md.json", ["plan", "summary", "--format", "markdown"], plan(
        [rc(deep_mod + ".aws_s3_bucket.x", ["create"], None, {"id": "1"})])
    yield "deep-module-show.json", ["plan", "show"], plan(
        [rc(deep_mod + ".aws_s3_bucket.x", ["create"], None, {"id": "1"})])
    yield "wide-attr.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["create"], None, {long: "1", "b": "2"})])
    yield "wide-attr-update.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["update"], {long: "1", "b": "2"}, {long: "2", "b": "3"})])
    state = {
        "version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "x",
        "outputs": {}, "resources": [{
            "mode": "managed", "type": "aws_s3_bucket", "name": "x",
            "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
            "instances": [{"schema_version": 0, "attributes": {long: "1", "b": "2"}}]}]}
    yield "wide-attr-state-raw.json", ["state", "show", "{}", "aws_s3_bucket.x"], state
    v3 = {"version": 3, "terraform_version": "0.11.0", "serial": 1, "lineage": "x",
          "modules": [{"path": ["root"], "outputs": {}, "resources": {
              "aws_s3_bucket.x": {"type": "aws_s3_bucket", "primary": {
                  "id": "x", "attributes": {long: "1", "b": "2"}}}}}]}
    yield "wide-attr-state-v3.json", ["state", "show", "{}", "aws_s3_bucket.x"], v3
    showstate = {"format_version": "1.0", "terraform_version": "1.9.0", "values": {
        "root_module": {"resources": [{
            "address": "aws_s3_bucket.x", "mode": "managed", "type": "aws_s3_bucket",
            "name": "x", "provider_name": "registry.opentofu.org/hashicorp/aws",
            "schema_version": 0, "values": {long: "1", "b": "2"}}]}}}
    yield "wide-attr-state-show.json", ["state", "show", "{}", "aws_s3_bucket.x"], showstate
    # 2. quadratic shapes
    n = 60000
    wide = {f"a{i}": i for i in range(n)}
    wide2 = dict(wide)
    wide2["a0"] = -1
    yield "many-attrs-update.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["update"], {"v": wide}, {"v": wide2})])
    yield "many-attrs-md.json", ["plan", "summary", "--format", "markdown"], plan(
        [rc("aws_s3_bucket.x", ["update"], {"v": wide}, {"v": wide2})])
    lst = list(range(n))
    yield "unchanged-list.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["update"], {"l": lst, "s": "a"}, {"l": lst, "s": "b"})])
    changed = list(range(n))
    changed2 = [i * 2 + 1 for i in range(n)]
    yield "changed-list.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["update"], {"l": changed}, {"l": changed2})])
    s1 = list(range(100000))
    s2 = list(range(50000, 150000))
    yield "set-update.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["update"], {"s": s1}, {"s": s2})])
    yield "set-replace.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["delete", "create"], {"s": s1}, {"s": s2},
            replace_paths=[["s"]])])
    m = 20000
    attrs = {f"a{i}": i for i in range(m)}
    attrs2 = {f"a{i}": i + 1 for i in range(m)}
    yield "replace-paths.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["delete", "create"], attrs, attrs2,
            replace_paths=[[f"a{i}"] for i in range(m)])])
    k = 60000
    l1 = [[str(i)] for i in range(k)]
    l2 = [[str(i + 1)] for i in range(k)]
    sens = [[True] for _ in range(k)]
    yield "sensitive-lists.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["update"], {"l": l1}, {"l": l2},
            before_sensitive={"l": sens}, after_sensitive={"l": sens})])
    # 3. amplification: deep values
    deep = 0
    for _ in range(1000):
        deep = {"a": deep}
    yield "deep-value.json", ["plan", "show"], plan(
        [rc("aws_s3_bucket.x", ["create"], None, {"v": deep})])
    ident = rc("aws_s3_bucket.x", ["create"], None, {"id": "1"})
    ident["change"]["importing"] = {"identity": deep}
    yield "deep-identity.json", ["plan", "show"], plan([ident])
    deepl = 0
    for _ in range(1000):
        deepl = [deepl, 1]
    yield "deep-list-state.json", ["state", "show", "{}", "aws_s3_bucket.x"], {
        "format_version": "1.0", "terraform_version": "1.9.0", "values": {
            "root_module": {"resources": [{
                "address": "aws_s3_bucket.x", "mode": "managed", "type": "aws_s3_bucket",
                "name": "x", "provider_name": "registry.opentofu.org/hashicorp/aws",
                "schema_version": 0, "values": {"v": deepl}}]}}}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "render-inputs"
    os.makedirs(out, exist_ok=True)
    for name, cmd, doc in cases():
        path = os.path.join(out, name)
        with open(path, "w") as f:
            json.dump(doc, f)
        if "{}" not in cmd:
            cmd = cmd + ["{}"]
        print(" ".join(["tfwire"] + [path if a == "{}" else a for a in cmd]))


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    main()
