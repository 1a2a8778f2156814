#!/usr/bin/env python3
"""The fleet, side by side: tfwire-fleet `query` against DuckDB's `read_json` over the same
state files, the same ten questions (queries.json), on the same machine.

    pip install duckdb psutil       # DuckDB's Python package is the anchor
    python3 benches/fleet/bench.py [--bin target/release/tfwire-fleet] [--rounds 5]

1. The big fleet: `target/fleet/big` (generate.py --seed 32 --states 2000 --plans 20, about
   620 MB of state files), generated when missing.
2. The reference (reference.py) answers the ten questions once over its `show -json`
   documents; its time is recorded, its answers are the truth.
3. Each round runs every query once with each engine, interleaved (tfwire-fleet, DuckDB,
   next query), each run a fresh process: wall time and peak RSS (`wait4`'s ru_maxrss, the
   whole process: DuckDB's includes the Python interpreter, about 50 MB). Medians of the
   rounds are printed as a Markdown table with the ratios, and each engine's answers are
   compared canonically with the reference's.

DuckDB's formulation (the fairest we found; written out in `duck_queries`): `read_json_objects`
over the raw state files (each file one document) and `from_json` with a structure naming
exactly the members the query reads (`{"resources":[{"type":"VARCHAR","mode":"VARCHAR",
"instances":[{"attributes":{"acl":"VARCHAR"}}]}]}` for the anchor query), so DuckDB's JSON
parser materialises nothing else; the workspace comes from `filename`, the address is rebuilt
from module, type, name and `index_key`. Measured on 200 of the big fleet's states (58 MB),
for `public_buckets`: this formulation 1.0 s; `read_json_objects` with `attributes` as JSON
1.9 s; `read_json` with an explicit narrow `columns` STRUCT 6.5 s; `read_json` with
auto-detection 8.9 s; `read_json` with `columns` keeping `attributes` as JSON 9.8 s. Naming
the members is the user knowing the schema per query; tfwire brings it from the provider
schemas. Numbers: DuckDB types a JSON number as DOUBLE, so the exactness query sums DOUBLEs (its
rounding is printed beside the exact sum); `TRY_CAST(<the number's text> AS DECIMAL(38, 9))`
decides which sizes count, the same rule as tfwire's column (a user who casts every number's
text to DECIMAL gets exact sums from DuckDB too, knowing the column is a number). Sensitive
values: DuckDB reads the raw state, secrets included; `withheld_secrets` shows that the cells
it returns are not null.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import fleetquery  # noqa: E402
import reference  # noqa: E402

FLEET = os.path.join(ROOT, "target", "fleet", "big")
GEN = ["--seed", "32", "--states", "2000", "--plans", "20"]

def inst(states, attributes, resource=("mode", "type"), instance=()):
    """Every resource instance object of the raw states, parsed by DuckDB's `from_json` into
    exactly the members the query names (`attributes`: a from_json structure), with
    `workspace` from the file name and, when `name` is asked for, the `address`."""
    r = {k: "VARCHAR" for k in resource}
    i = {"attributes": attributes}
    i.update({k: ("JSON" if k in ("index_key", "sensitive_attributes") else "UBIGINT" if k == "schema_version"
                  else "VARCHAR") for k in instance})
    r["instances"] = [i]
    spec = json.dumps({"resources": [r]}, separators=(",", ":"))
    cols = ["workspace"] + ["r.%s AS %s" % (k, k) for k in resource] + ["i.%s AS %s" % (k, k) for k in instance]
    cols.append("i.attributes AS a")
    if "name" in resource:
        cols.append("""concat(CASE WHEN r.module IS NULL THEN '' ELSE r.module || '.' END,
               CASE WHEN r.mode = 'data' THEN 'data.' ELSE '' END, r.type, '.', r.name,
               CASE WHEN i.index_key IS NULL THEN '' ELSE '[' || i.index_key::VARCHAR || ']' END) AS address""")
    return f"""(SELECT {", ".join(cols)}
      FROM (SELECT regexp_extract(filename, 'states/(.+)/terraform[.]tfstate$', 1) AS workspace,
                   unnest(from_json(json, '{spec}').resources) AS r
            FROM read_json_objects('{states}/**/terraform.tfstate', filename = true, format = 'auto')),
           unnest(r.instances) AS t(i))"""


ADDRESS = ("module", "mode", "type", "name")


def duck_queries(fleet):
    states = os.path.join(fleet, "states")
    plans = os.path.join(fleet, "plans")
    team = "split_part(workspace, '/', 1)"
    fits = "TRY_CAST(a.size::VARCHAR AS DECIMAL(38, 9)) IS NOT NULL"
    sse = {"server_side_encryption_configuration": [{"rule": [{"apply_server_side_encryption_by_default": [
        {"sse_algorithm": "VARCHAR"}]}]}]}
    rule = {"from_port": "DOUBLE", "to_port": "DOUBLE", "cidr_blocks": ["VARCHAR"]}
    return {
        "public_buckets": f"""SELECT workspace, count(*) FROM {inst(states, {"acl": "VARCHAR"})}
            WHERE type = 'aws_s3_bucket' AND mode = 'managed' AND a.acl = 'public-read'
            GROUP BY workspace ORDER BY workspace""",
        "record_sizes": f"""SELECT {team} AS team, sum(a.size::DOUBLE) FILTER (WHERE {fits}),
            count(*) FILTER (WHERE {fits}), count(a.size) FILTER (WHERE NOT {fits})
            FROM {inst(states, {"size": "JSON"})} WHERE type = 'tfwire_record' AND mode = 'managed'
            GROUP BY team ORDER BY team""",
        "sse_algorithms": f"""SELECT a.server_side_encryption_configuration[1].rule[1].apply_server_side_encryption_by_default[1].sse_algorithm AS algorithm,
            count(*) FROM {inst(states, sse)} WHERE type = 'aws_s3_bucket' AND mode = 'managed'
            GROUP BY algorithm ORDER BY algorithm NULLS LAST""",
        "environment_tags": f"""SELECT a.tags.Environment AS environment, count(*), count(a.tags.CostCenter)
            FROM {inst(states, {"tags": {"Environment": "VARCHAR", "CostCenter": "VARCHAR"}})}
            WHERE type = 'aws_s3_bucket' AND mode = 'managed' GROUP BY environment ORDER BY environment NULLS LAST""",
        "world_ssh": f"""SELECT DISTINCT workspace, address FROM (
            SELECT workspace, address, unnest(a.ingress) AS rule
            FROM {inst(states, {"ingress": [rule]}, ADDRESS, ("index_key",))}
            WHERE type = 'aws_security_group' AND mode = 'managed')
            WHERE rule.from_port <= 22 AND rule.to_port >= 22 AND list_contains(rule.cidr_blocks, '0.0.0.0/0')
            ORDER BY workspace, address""",
        "provider_types": f"""SELECT provider, mode, type, schema_version, count(*)
            FROM {inst(states, "JSON", ("provider", "mode", "type"), ("schema_version",))}
            GROUP BY provider, mode, type, schema_version ORDER BY provider, mode, type, schema_version""",
        "cdn_certificates": f"""WITH o AS MATERIALIZED (SELECT * FROM {inst(states, {
                "viewer_certificate": [{"acm_certificate_arn": "VARCHAR"}], "arn": "VARCHAR",
                "domain_name": "VARCHAR", "validation_method": "VARCHAR"}, ADDRESS, ("index_key",))}
              WHERE type IN ('aws_cloudfront_distribution', 'aws_acm_certificate') AND mode = 'managed')
            SELECT d.workspace, d.address, c.a.domain_name, c.a.validation_method
            FROM o AS d JOIN o AS c ON d.workspace = c.workspace
              AND d.a.viewer_certificate[1].acm_certificate_arn = c.a.arn
            WHERE d.type = 'aws_cloudfront_distribution' AND c.type = 'aws_acm_certificate'
            ORDER BY d.workspace, d.address""",
        "outputs_by_team": f"""SELECT {team} AS team, count(*), sum(CASE WHEN o.value.sensitive THEN 1 ELSE 0 END),
            count(CASE WHEN NOT coalesce(o.value.sensitive, false) THEN o.value.value END)
            FROM (SELECT regexp_extract(filename, 'states/(.+)/terraform[.]tfstate$', 1) AS workspace,
                         unnest(map_entries(from_json(json, '{{"outputs":"MAP(VARCHAR, STRUCT(sensitive BOOLEAN, value JSON))"}}').outputs)) AS o
                  FROM read_json_objects('{states}/**/terraform.tfstate', filename = true, format = 'auto'))
            GROUP BY team ORDER BY team""",
        "withheld_secrets": f"""WITH o AS MATERIALIZED (SELECT * FROM {inst(states, {
                "certificate_body": "VARCHAR", "private_key": "VARCHAR", "policy": "VARCHAR"}, ADDRESS,
                ("index_key", "sensitive_attributes"))} WHERE type IN ('aws_acm_certificate', 'aws_s3_bucket') AND mode = 'managed')
            SELECT workspace, address, 'private_key' AS attribute, a.private_key IS NULL,
              json_contains(sensitive_attributes, '{{"value":"private_key"}}') FROM o
            WHERE type = 'aws_acm_certificate' AND a.certificate_body IS NOT NULL
            UNION ALL SELECT workspace, address, 'policy', a.policy IS NULL, true FROM o
            WHERE type = 'aws_s3_bucket' AND json_contains(sensitive_attributes, '{{"value":"policy"}}')
              AND a.policy IS NOT NULL
            ORDER BY workspace, address, attribute""",
        "plan_actions": f"""SELECT array_to_string(c.change.actions, ',') AS change_actions, c.type,
            count(DISTINCT filename || ' ' || c.address)
            FROM (SELECT filename, unnest(from_json(json, '{{"resource_changes":[{{"address":"VARCHAR","type":"VARCHAR","change":{{"actions":["VARCHAR"]}}}}]}}').resource_changes) AS c
                  FROM read_json_objects('{plans}/**/plan.json', filename = true, format = 'auto'))
            GROUP BY change_actions, c.type ORDER BY change_actions, c.type""",
    }


DUCK_RUNNER = r"""
import json, sys, time, duckdb
sql = sys.stdin.read()
t0 = time.monotonic()
rows = duckdb.connect().sql(sql).fetchall()
print("query-seconds %f" % (time.monotonic() - t0), file=sys.stderr)
def cell(v):
    if isinstance(v, float):
        return {"float": repr(v)}
    return v
json.dump([[cell(v) for v in row] for row in rows], sys.stdout, default=str)
"""


def duck_cell(v):
    if isinstance(v, dict) and "float" in v:
        return reference.canonical(Decimal(v["float"]))
    return reference.canonical(v)


def state_bytes(fleet):
    total = 0
    for d, _, files in os.walk(os.path.join(fleet, "states")):
        for f in files:
            total += os.path.getsize(os.path.join(d, f))
    return total


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", help="the tfwire-fleet binary (omit: DuckDB and the reference only)")
    p.add_argument("--fleet", default=FLEET)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", help="comma-separated query ids")
    a = p.parse_args()
    if not os.path.isdir(os.path.join(a.fleet, "states")):
        t0 = time.monotonic()
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), *GEN, "--out", a.fleet], check=True)
        print("bench: generated %s in %.0f s" % (a.fleet, time.monotonic() - t0), file=sys.stderr)
    size = state_bytes(a.fleet)
    nstates = sum(1 for d, _, fs in os.walk(os.path.join(a.fleet, "states")) for f in fs if f == "terraform.tfstate")
    print("bench: %d state files, %.0f MB" % (nstates, size / 1e6), file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="fleet-bench-") as tmp:
        bench(a, queries_of(a), nstates, size, tmp)


def queries_of(a):
    with open(os.path.join(HERE, "queries.json"), encoding="utf-8") as f:
        queries = json.load(f)
    if a.only:
        keep = set(a.only.split(","))
        queries = [q for q in queries if q["id"] in keep]
    return queries


def bench(a, queries, nstates, size, FLEET_TMP):
    # The big fleet's reference answers and cost are kept beside it (target/fleet/big.reference.json)
    # and reused while the fleet, queries.json and reference.py are older than that file.
    cache = FLEET + ".reference.json" if os.path.abspath(a.fleet) == FLEET else os.path.join(FLEET_TMP, "ref.json")
    inputs = [os.path.join(a.fleet, "states"), os.path.join(HERE, "queries.json"), os.path.join(HERE, "reference.py")]
    if os.path.exists(cache) and all(os.path.getmtime(p) < os.path.getmtime(cache) for p in inputs):
        with open(cache, encoding="utf-8") as f:
            ref = json.load(f)
    else:
        answers_path = os.path.join(FLEET_TMP, "answers.json")
        status, out, err, ref_wall, ref_rss = fleetquery.run(
            [sys.executable, os.path.join(HERE, "reference.py"), a.fleet, "--out", answers_path])
        if status:
            sys.exit("bench: reference.py failed: %s" % err.decode())
        with open(answers_path, encoding="utf-8") as f:
            ref = {"seconds": ref_wall, "rss": ref_rss, "answers": json.load(f)}
        with open(cache, "w", encoding="utf-8") as f:
            json.dump(ref, f)
    ref_wall, ref_rss, answers = ref["seconds"], ref["rss"], ref["answers"]
    print("bench: reference.py answered in %.1f s, peak RSS %.0f MB" % (ref_wall, ref_rss / 2**20), file=sys.stderr)

    duck_sql = duck_queries(a.fleet)
    runner = os.path.join(FLEET_TMP, "duck.py")
    with open(runner, "w", encoding="utf-8") as f:
        f.write(DUCK_RUNNER.replace("sql = sys.stdin.read()", "sql = open(sys.argv[1]).read()"))
    times = {q["id"]: {"tfwire": [], "duckdb": []} for q in queries}
    results = {q["id"]: {} for q in queries}
    for rnd in range(a.rounds):
        for q in queries:
            if a.bin:
                status, out, err, wall, rss = fleetquery.run(fleetquery.command(a.bin, a.fleet, q["sql"]))
                if status:
                    sys.exit("bench: tfwire-fleet failed on %s: %s" % (q["id"], err.decode()[:2000]))
                times[q["id"]]["tfwire"].append((wall, rss))
                results[q["id"]]["tfwire"] = fleetquery.parse_rows(out.decode())
            path = os.path.join(FLEET_TMP, q["id"] + ".sql")
            with open(path, "w", encoding="utf-8") as f:
                f.write(duck_sql[q["id"]])
            status, out, err, wall, rss = fleetquery.run([sys.executable, runner, path])
            if status:
                sys.exit("bench: DuckDB failed on %s: %s" % (q["id"], err.decode()[:2000]))
            inner = float(err.decode().rsplit("query-seconds ", 1)[1].split()[0])
            times[q["id"]]["duckdb"].append((wall, rss, inner))
            results[q["id"]]["duckdb"] = [[duck_cell(v) for v in row] for row in json.loads(out)]
            print("bench: round %d %-18s tfwire %s duckdb %.2f s" % (
                rnd + 1, q["id"], "%.2f s" % times[q["id"]]["tfwire"][-1][0] if a.bin else "-", wall),
                file=sys.stderr)

    def med(xs, k):
        return statistics.median(x[k] for x in xs) if xs else None

    def verdict(engine, qid):
        got = results[qid].get(engine)
        if got is None:
            return "-"
        if got == answers[qid]:
            return "equal"
        diff = sum(1 for g, w in zip(got, answers[qid]) if g != w) + abs(len(got) - len(answers[qid]))
        return "%d of %d rows differ" % (diff, len(answers[qid]))

    print()
    print("%d state files, %.0f MB (`generate.py %s`); reference.py (Python over the `show -json` "
          "documents): %.1f s, %.0f MB for all ten. Medians of %d interleaved rounds, each run a "
          "fresh process." % (nstates, size / 1e6, " ".join(GEN), ref_wall, ref_rss / 2**20, a.rounds))
    print()
    print("| query | tfwire-fleet | DuckDB `read_json_objects` (its query alone) | DuckDB / tfwire (time) | tfwire RSS | DuckDB RSS | tfwire answer | DuckDB answer |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for q in queries:
        t = times[q["id"]]
        tw, dw = med(t["tfwire"], 0), med(t["duckdb"], 0)
        tr, dr = med(t["tfwire"], 1), med(t["duckdb"], 1)
        print("| `%s` | %s | %.2f s (%.2f s) | %s | %s | %.0f MB | %s | %s |" % (
            q["id"], "%.2f s" % tw if tw else "-", dw, med(t["duckdb"], 2), "%.1f×" % (dw / tw) if tw else "-",
            "%.0f MB" % (tr / 2**20) if tr else "-", dr / 2**20, verdict("tfwire", q["id"]),
            verdict("duckdb", q["id"])))
    for qid in ("record_sizes", "withheld_secrets"):
        if qid in results and results[qid].get("duckdb") != answers.get(qid):
            print()
            print("`%s`, first differing row: reference `%s`, DuckDB `%s`." % (
                qid, *next(([json.dumps(w), json.dumps(g)] for g, w in zip(results[qid]["duckdb"], answers[qid])
                            if g != w), ["-", "-"])))


if __name__ == "__main__":
    main()
