#!/usr/bin/env python3
"""Computes benches/answers.json: what every benchmark must find in each payload.

usage: python3 benches/answers.py [--check]

The figures come from Python's `msgpack` and `json` modules and a walk written here, so that
they are independent of the Rust code being timed (a fast wrong answer fails the benchmark).
With --check, compares with the committed file instead of writing it (exit 1 on a difference).

For each payload KIND in corpus/payloads (KIND-1m.msgpack, KIND-1m.json, KIND.type.json):

- "value": the decoded cty value, walked with its type (the same for both formats):
  "values" (every value node: containers and leaves, map keys and attribute names not
  counted), "nulls", "bools", "numbers", "strings", "string_bytes" (UTF-8 bytes of the
  string leaves), "keys" (map keys and attribute names), "key_bytes";
- "msgpack": "bytes", "tokens" (every MessagePack token: values and map keys),
  "str_tokens" and "str_bytes" (str tokens, keys included, and their payload bytes);
- "json": "bytes", "nodes" (every JSON value plus every object key: what a DOM or a
  simd-json tape holds), "string_bytes" (unescaped UTF-8 bytes of every JSON string, keys
  included).

The 32 MB inputs are built at bench time as a list of 32 copies of the 1 MB value; their
answers follow from these (see src/lib.rs, `Answers::repeated`).

For each provider schema document of the schema-compile bench (SCHEMAS: the full aws, google
and azurerm schemas of corpus/schemas), under "schema:NAME":

- "bytes"; "schemas": resource types plus data sources; "type_attributes": the attributes of
  every object type in their implied types (block attributes, nested block types, nested
  attribute types and object type constraints, at every depth), which is what a compiled
  program's type must hold.
"""
import json
import os
import sys

import msgpack

KINDS = ["resource", "state-list", "strings", "numbers"]
HERE = os.path.dirname(os.path.abspath(__file__))
PAYLOADS = os.path.join(HERE, "..", "corpus", "payloads")
SCHEMA_DIR = os.path.join(HERE, "..", "corpus", "schemas",
                          "mikespub-org__amplify-python-hcl2", "test", "provider_schemas")
SCHEMAS = ["aws", "google", "azurerm"]


def type_attributes(ty):
    """Object attributes in a cty type constraint (type JSON), at every depth."""
    if isinstance(ty, str):
        return 0
    kind = ty[0]
    if kind in ("list", "set", "map"):
        return type_attributes(ty[1])
    if kind == "object":
        return len(ty[1]) + sum(type_attributes(t) for t in ty[1].values())
    if kind == "tuple":
        return sum(type_attributes(t) for t in ty[1])
    raise SystemExit(f"type {ty!r} not handled")


def attribute_attributes(attr):
    """Object attributes inside one schema attribute's implied type."""
    if "nested_type" in attr:
        nested = attr["nested_type"]["attributes"]
        return len(nested) + sum(attribute_attributes(a) for a in nested.values())
    return type_attributes(attr["type"])


def block_attributes(block):
    """Object attributes in a block's implied type: its own attributes and nested block
    types, and everything inside them."""
    attrs = block.get("attributes", {})
    blocks = block.get("block_types", {})
    return (len(attrs) + sum(attribute_attributes(a) for a in attrs.values())
            + len(blocks) + sum(block_attributes(b["block"]) for b in blocks.values()))


def schema_answer(data):
    doc = json.loads(data.decode("utf-8"))
    acc = {"bytes": len(data), "schemas": 0, "type_attributes": 0}
    for provider in doc["provider_schemas"].values():
        for section in ("resource_schemas", "data_source_schemas"):
            for schema in provider.get(section, {}).values():
                acc["schemas"] += 1
                acc["type_attributes"] += block_attributes(schema["block"])
    return acc


def walk_value(v, ty, acc):
    """Walks a decoded value along its cty type."""
    acc["values"] += 1
    if v is None:
        acc["nulls"] += 1
        return
    if isinstance(ty, str):
        if ty == "string":
            acc["strings"] += 1
            acc["string_bytes"] += len(v.encode("utf-8"))
        elif ty == "number":
            acc["numbers"] += 1
        elif ty == "bool":
            acc["bools"] += 1
        else:
            raise SystemExit(f"type {ty!r} not handled")
        return
    kind = ty[0]
    if kind in ("list", "set"):
        for e in v:
            walk_value(e, ty[1], acc)
    elif kind == "map":
        for k, e in v.items():
            acc["keys"] += 1
            acc["key_bytes"] += len(k.encode("utf-8"))
            walk_value(e, ty[1], acc)
    elif kind == "object":
        attrs = ty[1]
        if sorted(v.keys()) != sorted(attrs.keys()):
            raise SystemExit("object attributes do not match the type")
        for k, e in v.items():
            acc["keys"] += 1
            acc["key_bytes"] += len(k.encode("utf-8"))
            walk_value(e, attrs[k], acc)
    else:
        raise SystemExit(f"type {kind!r} not handled")


def value_answer(v, ty):
    acc = dict.fromkeys(
        ["values", "nulls", "bools", "numbers", "strings", "string_bytes", "keys", "key_bytes"], 0
    )
    walk_value(v, ty, acc)
    return acc


def msgpack_answer(data):
    """Counts tokens with msgpack's streaming Unpacker, reading headers one by one."""
    acc = {"bytes": len(data), "tokens": 0, "str_tokens": 0, "str_bytes": 0}

    def walk(v):
        acc["tokens"] += 1
        if isinstance(v, str):
            acc["str_tokens"] += 1
            acc["str_bytes"] += len(v.encode("utf-8"))
        elif isinstance(v, list):
            for e in v:
                walk(e)
        elif isinstance(v, dict):
            for k, e in v.items():
                walk(k)
                walk(e)

    # raw=False: str payloads must be UTF-8; strict_map_key=False: keys as they come.
    # use_list: arrays as lists; the payloads hold no bin or ext (checked by the type walk).
    v = msgpack.unpackb(data, raw=False, strict_map_key=False)
    walk(v)
    return acc, v


def json_answer(data):
    acc = {"bytes": len(data), "nodes": 0, "string_bytes": 0}

    def walk(v):
        acc["nodes"] += 1
        if isinstance(v, str):
            acc["string_bytes"] += len(v.encode("utf-8"))
        elif isinstance(v, list):
            for e in v:
                walk(e)
        elif isinstance(v, dict):
            for k, e in v.items():
                acc["nodes"] += 1
                acc["string_bytes"] += len(k.encode("utf-8"))
                walk(e)

    # Python's json reads floats as floats; the counts do not depend on their values.
    v = json.loads(data.decode("utf-8"))
    walk(v)
    return acc, v


def main():
    out = {"_doc": "Computed by benches/answers.py (Python msgpack + json); do not edit."}
    for kind in KINDS:
        ty = json.load(open(os.path.join(PAYLOADS, f"{kind}.type.json")))
        mp = open(os.path.join(PAYLOADS, f"{kind}-1m.msgpack"), "rb").read()
        js = open(os.path.join(PAYLOADS, f"{kind}-1m.json"), "rb").read()
        mp_acc, mp_value = msgpack_answer(mp)
        js_acc, js_value = json_answer(js)
        from_mp = value_answer(mp_value, ty)
        from_js = value_answer(js_value, ty)
        if from_mp != from_js:
            raise SystemExit(f"{kind}: the msgpack and JSON payloads hold different values:\n"
                             f"  {from_mp}\n  {from_js}")
        out[kind] = {"value": from_mp, "msgpack": mp_acc, "json": js_acc}
    for name in SCHEMAS:
        data = open(os.path.join(SCHEMA_DIR, name, "schema.json"), "rb").read()
        out[f"schema:{name}"] = schema_answer(data)
    text = json.dumps(out, indent=2) + "\n"
    path = os.path.join(HERE, "answers.json")
    if "--check" in sys.argv[1:]:
        if open(path).read() != text:
            sys.exit(f"{path} is out of date: run python3 benches/answers.py")
        print("answers.json is up to date")
    else:
        open(path, "w").write(text)
        print(text, end="")


if __name__ == "__main__":
    main()
