#!/usr/bin/env python3
"""Checks the generator's `show -json` documents against `tfwire show -json` of its raw states.

    python3 benches/fleet/showcheck.py FLEETDIR [--tfwire target/debug/tfwire] [--limit N]

For each state (the first N by path), the kubernetes objects are left out (their provider
has no schema, and `show -json` needs every schema, as the clients do), `tfwire show -json
--schemas FLEETDIR/schemas --lock-file L` runs with a lock file naming each AWS version in
turn, and the result must equal the generator's document (less the same objects) member for
member, numbers compared as decimals. Not a CI step: the reference is meant to be independent
of tfwire; this is how the generator's model was checked against the clients' rules that
tfwire follows. Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402

NO_SCHEMA = "kubernetes_namespace"


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal)


def without(module):
    """A `show -json` module without the objects of NO_SCHEMA (and modules left empty)."""
    m = dict(module)
    if "resources" in m:
        m["resources"] = [r for r in m["resources"] if r["type"] != NO_SCHEMA]
        if not m["resources"]:
            del m["resources"]
    if "child_modules" in m:
        m["child_modules"] = [c for c in (without(c) for c in m["child_modules"]) if set(c) - {"address"}]
        if not m["child_modules"]:
            del m["child_modules"]
    return m


def diff(x, y, path, out):
    if type(x) is not type(y):
        out.append("%s: %r vs %r" % (path, x, y))
    elif isinstance(x, dict):
        if list(x) != list(y):
            out.append("%s: members %s vs %s" % (path, list(x), list(y)))
        for k in x:
            if k in y:
                diff(x[k], y[k], path + "." + k, out)
    elif isinstance(x, list):
        if len(x) != len(y):
            out.append("%s: %d elements vs %d" % (path, len(x), len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            diff(u, v, "%s[%d]" % (path, i), out)
    elif x != y:
        out.append("%s: %r vs %r" % (path, x, y))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fleet")
    p.add_argument("--tfwire", default=os.path.join(generate.ROOT, "target", "debug", "tfwire"))
    p.add_argument("--limit", type=int, default=None)
    a = p.parse_args()
    root = os.path.join(a.fleet, "states")
    states = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f == "terraform.tfstate")
    states = states[:a.limit] if a.limit else states
    bad = 0
    with tempfile.TemporaryDirectory(prefix="fleet-showcheck-") as tmp:
        locks = []
        for version in (generate.AWS_NEW, generate.AWS_OLD):
            lock = os.path.join(tmp, "lock-%s.hcl" % version)
            with open(lock, "w", encoding="utf-8") as f:
                f.write('provider "%s" {\n  version = "%s"\n}\n' % (generate.AWS, version))
                for addr, v in generate.VERSIONS.items():
                    if addr != generate.BUILTIN:
                        f.write('provider "%s" {\n  version = "%s"\n}\n' % (addr, v))
            locks.append(lock)
        state_path = os.path.join(tmp, "terraform.tfstate")
        for s in states:
            ws = os.path.relpath(os.path.dirname(s), root)
            with open(s, encoding="utf-8") as f:
                state = json.load(f)
            state["resources"] = [r for r in state["resources"] if r["type"] != NO_SCHEMA]
            with open(state_path, "w", encoding="utf-8") as f:
                json.dump(state, f)
            mine = load(os.path.join(a.fleet, "show-json", ws, "terraform.tfstate.json"))
            mine["values"]["root_module"] = without(mine["values"]["root_module"])
            problems = None
            for lock in locks:
                r = subprocess.run([a.tfwire, "show", "-json", "--schemas", os.path.join(a.fleet, "schemas"),
                                    "--lock-file", lock, state_path], capture_output=True)
                if r.returncode:
                    problems = problems or [r.stderr.decode(errors="replace").strip()]
                    continue
                got = json.loads(r.stdout, parse_float=Decimal, parse_int=Decimal)
                problems = diff(got, mine, "", [])
                if not problems:
                    break
            if problems:
                bad += 1
                print("showcheck: %s: %s" % (ws, "; ".join(problems[:5])))
    print("showcheck: %d of %d documents equal tfwire show -json" % (len(states) - bad, len(states)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
