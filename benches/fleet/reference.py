#!/usr/bin/env python3
"""The slow reference: answers each question of queries.json (by id) in plain Python over
the `show -json` documents of a fleet made by generate.py, and writes the answers.

    python3 benches/fleet/reference.py FLEETDIR [--out answers.json] [--queries queries.json]

It reads `FLEETDIR/show-json/<workspace>/terraform.tfstate.json` (the states' `show -json`
documents) and `FLEETDIR/plans/<workspace>/plan.json` (plans), never the raw states and
never tfwire's output. Numbers are `decimal.Decimal` throughout. The answers file is
`{"<id>": [[cell, ...], ...]}`, rows in the query's ORDER BY order, each cell canonical
text (see `canonical`): what `tfwire_fleet::canonical_rows` prints for DataFusion's result.

Where the tables decide something the documents leave open, the reference applies the
same rule as the tables (docs/the contract in benches/fleet/README.md):
- a number that does not fit Decimal128(38, 9) is a null cell (`fits`), its text goes to
  `inexact_numbers`;
- a value marked in `sensitive_values` is a null cell, its path listed in `sensitive_paths`;
- a resource's `provider` is the provider configuration address the state writes,
  `provider["<provider_name>"]` (the fleet has no aliases and no module-local provider
  configurations);
- the workspace is the document's directory relative to `show-json/` (or `plans/`), which
  is the raw state's directory relative to `states/`.
Only the standard library is used.
"""

import argparse
import json
import os
import sys
import time
import decimal
from decimal import Decimal

# Exact arithmetic: every sum and comparison of the fleet's numbers fits in 200 digits.
decimal.getcontext().prec = 200

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal)


def documents(root, name):
    """[(source, workspace, document)] for every `name` under root, sorted by path."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in sorted(filenames):
            if f == name:
                path = os.path.join(dirpath, f)
                ws = os.path.relpath(dirpath, root).replace(os.sep, "/")
                out.append((path, "default" if ws == "." else ws, load(path)))
    return out


def module_resources(module):
    for r in module.get("resources") or []:
        yield r
    for child in module.get("child_modules") or []:
        yield from module_resources(child)


# ---------------------------------------------------------------- cells

MAX_INT = Decimal(10) ** 29  # Decimal128(38, 9): 29 integer digits, 9 fractional


def fits(d):
    """Whether a number fits Decimal128(38, 9) exactly."""
    return abs(d) < MAX_INT and d == d.quantize(Decimal("1e-9"))


def canonical_number(d):
    d = Decimal(d)
    if d == 0:
        return "0"
    return format(d.normalize(), "f")


def canonical_json(v):
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, (int, Decimal)):
        return canonical_number(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(canonical_json(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical_json(x)
                              for k, x in v.items()) + "}"
    raise TypeError(type(v))


def canonical(v):
    """One cell as canonical text: null → None, strings as is, numbers as decimal text with no
    exponent and no trailing zero, booleans `true`/`false`, the rest as canonical JSON."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, Decimal)):
        return canonical_number(v)
    if isinstance(v, str):
        return v
    return canonical_json(v)


def nulls_last(v):
    return (v is None, v if v is not None else 0)


def cell(resource, name):
    """An attribute's cell: null when withheld as sensitive or a number that does not fit."""
    if resource.get("sensitive_values", {}).get(name) is True:
        return None
    v = resource["values"].get(name)
    if isinstance(v, Decimal) and not fits(v):
        return None
    return v


def first(xs):
    return xs[0] if isinstance(xs, list) and xs else None


# ---------------------------------------------------------------- the fleet


class Fleet:
    def __init__(self, root):
        self.states = documents(os.path.join(root, "show-json"), "terraform.tfstate.json")
        self.plans = documents(os.path.join(root, "plans"), "plan.json")

    def resources(self, rtype=None, mode="managed"):
        for source, ws, doc in self.states:
            for r in module_resources(doc["values"]["root_module"]):
                if (rtype is None or r["type"] == rtype) and (mode is None or r["mode"] == mode):
                    yield ws, r


def team(ws):
    return ws.split("/")[0]


def public_buckets(f):
    counts = {}
    for ws, r in f.resources("aws_s3_bucket"):
        if cell(r, "acl") == "public-read":
            counts[ws] = counts.get(ws, 0) + 1
    return [[ws, n] for ws, n in sorted(counts.items())]


def record_sizes(f):
    groups = {}
    for ws, r in f.resources("tfwire_record"):
        g = groups.setdefault(team(ws), {"sum": None, "sized": 0, "inexact": 0})
        v = r["values"].get("size")
        if v is None:
            continue
        if fits(v):
            g["sum"] = v if g["sum"] is None else g["sum"] + v
            g["sized"] += 1
        else:
            g["inexact"] += 1
    return [[t, g["sum"], g["sized"], g["inexact"]] for t, g in sorted(groups.items())]


def sse_algorithms(f):
    counts = {}
    for ws, r in f.resources("aws_s3_bucket"):
        conf = first(cell(r, "server_side_encryption_configuration"))
        rule = first(conf.get("rule")) if conf else None
        default = first(rule.get("apply_server_side_encryption_by_default")) if rule else None
        algo = default.get("sse_algorithm") if default else None
        counts[algo] = counts.get(algo, 0) + 1
    return [[a, n] for a, n in sorted(counts.items(), key=lambda kv: nulls_last(kv[0]))]


def environment_tags(f):
    counts = {}
    for ws, r in f.resources("aws_s3_bucket"):
        tags = cell(r, "tags") or {}
        env = tags.get("Environment")
        c = counts.setdefault(env, [0, 0])
        c[0] += 1
        c[1] += tags.get("CostCenter") is not None
    return [[e, c[0], c[1]] for e, c in sorted(counts.items(), key=lambda kv: nulls_last(kv[0]))]


def world_ssh(f):
    rows = set()
    for ws, r in f.resources("aws_security_group"):
        for rule in cell(r, "ingress") or []:
            lo, hi = rule.get("from_port"), rule.get("to_port")
            if lo is not None and hi is not None and lo <= 22 <= hi and "0.0.0.0/0" in (rule.get("cidr_blocks") or []):
                rows.add((ws, r["address"]))
    return [list(x) for x in sorted(rows)]


def provider_types(f):
    counts = {}
    for ws, r in f.resources(None, None):
        key = ('provider["%s"]' % r["provider_name"], r["mode"], r["type"], r["schema_version"])
        counts[key] = counts.get(key, 0) + 1
    return [[*k, n] for k, n in sorted(counts.items())]


def cdn_certificates(f):
    certs = {}
    for ws, r in f.resources("aws_acm_certificate"):
        certs.setdefault((ws, cell(r, "arn")), []).append(r)
    rows = []
    for ws, d in f.resources("aws_cloudfront_distribution"):
        vc = first(cell(d, "viewer_certificate"))
        arn = vc.get("acm_certificate_arn") if vc else None
        if arn is None:
            continue
        for c in certs.get((ws, arn), []):
            rows.append([ws, d["address"], cell(c, "domain_name"), cell(c, "validation_method")])
    rows.sort(key=lambda row: (row[0], row[1]))
    return rows


def outputs_by_team(f):
    groups = {}
    for source, ws, doc in f.states:
        g = groups.setdefault(team(ws), [0, 0, 0])
        for name, o in (doc["values"].get("outputs") or {}).items():
            g[0] += 1
            g[1] += bool(o["sensitive"])
            g[2] += (not o["sensitive"]) and o.get("value") is not None
    return [[t, *g] for t, g in sorted(groups.items())]


def withheld_secrets(f):
    rows = []
    for ws, r in f.resources("aws_acm_certificate"):
        if cell(r, "certificate_body") is not None:
            withheld = r.get("sensitive_values", {}).get("private_key") is True
            rows.append([ws, r["address"], "private_key", cell(r, "private_key") is None,
                         withheld and r["values"].get("private_key") is not None])
    for ws, r in f.resources("aws_s3_bucket"):
        if r.get("sensitive_values", {}).get("policy") is True and r["values"].get("policy") is not None:
            rows.append([ws, r["address"], "policy", cell(r, "policy") is None, True])
    rows.sort(key=lambda row: (row[0], row[1], row[2]))
    return rows


def plan_actions(f):
    changes = {}
    for source, ws, doc in f.plans:
        for rc in doc.get("resource_changes") or []:
            key = (",".join(rc["change"]["actions"]), rc["type"])
            changes.setdefault(key, set()).add((source, rc["address"]))
    return [[a, t, len(s)] for (a, t), s in sorted(changes.items())]


ANSWERS = {
    "public_buckets": public_buckets,
    "record_sizes": record_sizes,
    "sse_algorithms": sse_algorithms,
    "environment_tags": environment_tags,
    "world_ssh": world_ssh,
    "provider_types": provider_types,
    "cdn_certificates": cdn_certificates,
    "outputs_by_team": outputs_by_team,
    "withheld_secrets": withheld_secrets,
    "plan_actions": plan_actions,
}


def answer(root, queries):
    fleet = Fleet(root)
    out = {}
    for q in queries:
        if q["id"] not in ANSWERS:
            raise SystemExit("reference.py: no answer for query %r" % q["id"])
        out[q["id"]] = [[canonical(v) for v in row] for row in ANSWERS[q["id"]](fleet)]
    return out


def dump(answers):
    """answers.json's text: one row a line, so that a diff shows which rows differ."""
    lines = ["{"]
    ids = list(answers)
    for n, qid in enumerate(ids):
        rows = answers[qid]
        lines.append("  %s: [" % json.dumps(qid))
        for m, row in enumerate(rows):
            lines.append("    " + json.dumps(row, ensure_ascii=False) + ("," if m + 1 < len(rows) else ""))
        lines.append("  ]" + ("," if n + 1 < len(ids) else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fleet")
    p.add_argument("--queries", default=os.path.join(HERE, "queries.json"))
    p.add_argument("--out", help="answers file (default: standard output)")
    a = p.parse_args()
    with open(a.queries, encoding="utf-8") as f:
        queries = json.load(f)
    t0 = time.monotonic()
    answers = answer(a.fleet, queries)
    text = dump(answers)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print("reference.py: %d queries over %s in %.2f s" % (len(queries), a.fleet, time.monotonic() - t0),
          file=sys.stderr)


if __name__ == "__main__":
    main()
