#!/usr/bin/env python3
"""Checks queries.json's SQL against DataFusion itself, independently of tfwire: builds the
fleet's tables (the cty → Arrow mapping of crates/tfwire-arrow, for the columns this fleet
has) with pyarrow from the `show -json` documents and plans, runs every query in
DataFusion's Python bindings (`pip install datafusion==55.0.0 pyarrow`, the same DataFusion
as tfwire-fleet), canonicalises the results as reference.py does and compares them with
the reference's answers.

    python3 benches/fleet/sqlcheck.py FLEETDIR [ANSWERS]

What it proves: the SQL parses and plans under DataFusion 55 (map access `tags['k']`, struct
fields, 1-based list indexing, unnest, array_has, split_part, decimal sums) and means what
the question says, on tables of the contract's shape. What it does not: tfwire's decoding
(tfwire-fleet's own run in ci.sh does that).
"""

import json
import os
import sys
from decimal import Decimal

import datafusion
import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402

COMMON = [
    ("source", pa.string()), ("workspace", pa.string()), ("phase", pa.string()),
    ("actions", pa.list_(pa.string())), ("address", pa.string()), ("module", pa.string()),
    ("mode", pa.string()), ("type", pa.string()), ("name", pa.string()), ("index_key", pa.string()),
    ("deposed", pa.string()), ("provider", pa.string()), ("schema_version", pa.uint64()),
    ("identity", pa.string()), ("serial", pa.uint64()), ("lineage", pa.string()),
    ("sensitive_paths", pa.list_(pa.string())), ("unknown_paths", pa.list_(pa.string())),
    ("inexact_numbers", pa.map_(pa.string(), pa.string())),
]
DECIMAL = pa.decimal128(38, 9)


def arrow_type(ty):
    if ty == "string":
        return pa.string()
    if ty == "number":
        return DECIMAL
    if ty == "bool":
        return pa.bool_()
    if ty == "dynamic":
        return pa.struct([("json", pa.string()), ("type", pa.string())])
    kind = ty[0]
    if kind in ("list", "set"):
        return pa.list_(arrow_type(ty[1]))
    if kind == "map":
        return pa.map_(pa.string(), arrow_type(ty[1]))
    if kind == "object":
        return pa.struct([(k, arrow_type(t)) for k, t in ty[1].items()])
    if kind == "tuple":
        return pa.struct([(str(i), arrow_type(t)) for i, t in enumerate(ty[1])])
    raise ValueError(ty)


def attribute_type(a):
    if "type" in a:
        return arrow_type(a["type"])
    nt = a["nested_type"]
    inner = pa.struct([(k, attribute_type(x)) for k, x in nt["attributes"].items()])
    mode = nt["nesting_mode"]
    return inner if mode == "single" else pa.map_(pa.string(), inner) if mode == "map" else pa.list_(inner)


def block_fields(block):
    fields = [(k, attribute_type(a)) for k, a in block.get("attributes", {}).items()]
    for k, b in block.get("block_types", {}).items():
        inner = pa.struct(block_fields(b["block"]))
        mode = b["nesting_mode"]
        fields.append((k, inner if mode in ("single", "group") else
                       pa.map_(pa.string(), inner) if mode == "map" else pa.list_(inner)))
    return fields


def py_value(t, v):
    """A JSON value as pyarrow wants it for type t."""
    if v is None:
        return None
    if pa.types.is_decimal(t):
        return v if reference.fits(v) else None
    if pa.types.is_map(t):
        items = v if isinstance(v, list) else sorted(v.items())
        return [(k, py_value(t.item_type, x)) for k, x in items]
    if pa.types.is_list(t):
        return [py_value(t.value_type, x) for x in v]
    if pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        if names == ["json", "type"]:
            return {"json": reference.canonical_json(v), "type": None}
        return {t.field(i).name: py_value(t.field(i).type, v.get(t.field(i).name)) for i in range(t.num_fields)}
    return v


def column(name):
    """An attribute's column: `attr_<name>` when a common column has its name (tfwire-arrow's
    `attribute_column`)."""
    return "attr_" + name if name in {c for c, _ in COMMON} else name


def load_types(fleet):
    """{table name: [(column, arrow type)]}: the union over every cached version, newest first."""
    tables = {}
    root = os.path.join(fleet, "schemas")
    docs = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".json"):
                docs.append((tuple(int(x) for x in f[:-5].split(".")), os.path.join(dirpath, f)))
    for _, path in sorted(docs, reverse=True):
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        for provider in doc["provider_schemas"].values():
            for kind, prefix in (("resource_schemas", ""), ("data_source_schemas", "data_")):
                for t, s in (provider.get(kind) or {}).items():
                    cols = tables.setdefault(prefix + t, [])
                    have = {c for c, _ in cols}
                    cols.extend((column(c), ty) for c, ty in block_fields(s["block"]) if column(c) not in have)
    return tables


def rows(fleet):
    """(table, common dict, values dict, sensitive_values) for every object of the fleet."""
    f = reference.Fleet(fleet)
    for source, ws, doc in f.states:
        for r in reference.module_resources(doc["values"]["root_module"]):
            yield r, {"source": source, "workspace": ws, "phase": "state"}, r["values"], r.get("sensitive_values", {}), {}
    for source, ws, doc in f.plans:
        for rc in doc.get("resource_changes") or []:
            ch = rc["change"]
            for phase in ("before", "after"):
                if ch[phase] is not None:
                    sens = ch[phase + "_sensitive"] or {}
                    unknown = ch["after_unknown"] if phase == "after" else {}
                    yield rc, {"source": source, "workspace": ws, "phase": phase, "actions": ch["actions"]}, ch[phase], sens, unknown


def build(fleet):
    types = load_types(fleet)
    data = {name: [] for name in types}
    data["resources"] = []
    for r, common, values, sens, unknown in rows(fleet):
        addr = r["address"]
        module = addr.rsplit(".", 2 if r["mode"] == "managed" else 3)[0] if addr.startswith("module.") else None
        key = r.get("index")
        row = dict(common)
        row.update({
            "address": addr, "module": module, "mode": r["mode"], "type": r["type"], "name": r["name"],
            "index_key": None if key is None else (str(key) if isinstance(key, Decimal) else json.dumps(key)),
            "provider": 'provider["%s"]' % r["provider_name"], "schema_version": int(r.get("schema_version", 0)),
            "sensitive_paths": sorted(k for k, x in sens.items() if x is True and values.get(k) is not None),
            "unknown_paths": sorted(k for k, x in unknown.items() if x is True),
            "inexact_numbers": [(k, str(v)) for k, v in sorted(values.items())
                                if isinstance(v, Decimal) and not reference.fits(v)],
        })
        data["resources"].append(row)
        table = ("data_" if r["mode"] == "data" else "") + r["type"]
        if table in types:
            full = dict(row)
            for col, _ in types[table]:
                attr = col[5:] if col.startswith("attr_") and col not in values else col
                full[col] = None if sens.get(attr) is True else values.get(attr)
            data[table].append(full)
    ctx = datafusion.SessionContext()
    outs = []
    for source, ws, doc in reference.Fleet(fleet).states:
        for name, o in (doc["values"].get("outputs") or {}).items():
            outs.append([source, ws, "state", name,
                         None if o["sensitive"] else reference.canonical_json(o["value"]),
                         json.dumps(o["type"], separators=(",", ":")), o["sensitive"]])
    schema = pa.schema([("source", pa.string()), ("workspace", pa.string()), ("phase", pa.string()),
                        ("name", pa.string()), ("value", pa.string()), ("type", pa.string()),
                        ("sensitive", pa.bool_())])
    ctx.register_record_batches("outputs", [[pa.RecordBatch.from_arrays(
        [pa.array([r[i] for r in outs], type=f.type) for i, f in enumerate(schema)], schema=schema)]])
    for name, cols in list(types.items()) + [("resources", [])]:
        schema = pa.schema(COMMON + cols)
        arrays = []
        for field in schema:
            arrays.append(pa.array([py_value(field.type, row.get(field.name)) for row in data[name]],
                                   type=field.type))
        ctx.register_record_batches(name, [[pa.RecordBatch.from_arrays(arrays, schema=schema)]])
    return ctx


def cell(v):
    if isinstance(v, float):
        raise TypeError("a float in a result")
    return reference.canonical(v)


def main():
    fleet = sys.argv[1]
    answers_path = sys.argv[2] if len(sys.argv) > 2 else None
    with open(os.path.join(HERE, "queries.json"), encoding="utf-8") as f:
        queries = json.load(f)
    expected = (json.load(open(answers_path, encoding="utf-8")) if answers_path
                else reference.answer(fleet, queries))
    ctx = build(fleet)
    bad = 0
    for q in queries:
        table = ctx.sql(q["sql"]).to_arrow_table()
        columns = [c.to_pylist() for c in table.columns]
        got = [[cell(v) for v in row] for row in zip(*columns)]
        if got != expected[q["id"]]:
            bad += 1
            print("sqlcheck: %s differs:\n  got      %s\n  expected %s" % (
                q["id"], json.dumps(got[:5]), json.dumps(expected[q["id"]][:5])))
        else:
            print("sqlcheck: %s: %d rows equal" % (q["id"], len(got)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
