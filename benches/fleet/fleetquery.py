#!/usr/bin/env python3
"""Runs `tfwire-fleet query` for each query of queries.json over a fleet, canonicalises its
`--format json` output as reference.py canonicalises its answers, and compares.

    python3 benches/fleet/fleetquery.py --bin target/debug/tfwire-fleet --fleet corpus/fleet \
        --answers corpus/fleet/answers.json

The command run for each query is

    tfwire-fleet query --schemas FLEET/schemas --format json SQL FLEET/states FLEET/plans

(the workspace of a file is its directory relative to `states/` or `plans/`, as the
reference has it). Standard library only. Prints each query's wall time and peak RSS.
"""

import argparse
import json
import os
import sys
import time
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402


def command(binary, fleet, sql):
    inputs = [os.path.join(fleet, "states")]
    if os.path.isdir(os.path.join(fleet, "plans")):
        inputs.append(os.path.join(fleet, "plans"))
    return [binary, "query", "--schemas", os.path.join(fleet, "schemas"), "--format", "json", sql, *inputs]


def run(argv):
    """(exit status, stdout, stderr, wall seconds, peak RSS in bytes) of one child process."""
    r, w = os.pipe()
    er, ew = os.pipe()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.dup2(w, 1)
        os.dup2(ew, 2)
        os.close(r)
        os.close(er)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    os.close(w)
    os.close(ew)
    import selectors
    out, err = [], []
    sel = selectors.DefaultSelector()
    sel.register(r, selectors.EVENT_READ, out)
    sel.register(er, selectors.EVENT_READ, err)
    open_fds = 2
    while open_fds:
        for key, _ in sel.select():
            chunk = os.read(key.fd, 1 << 16)
            if chunk:
                key.data.append(chunk)
            else:
                sel.unregister(key.fd)
                os.close(key.fd)
                open_fds -= 1
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    return os.waitstatus_to_exitcode(status), b"".join(out), b"".join(err), wall, usage.ru_maxrss * 1024


class Obj(list):
    """A JSON object as its (member, value) pairs, in order."""


def parse_rows(text):
    """Rows of tfwire-fleet's JSON output: an array of rows or one row a line, a row an object
    (member order = column order) or an array; numbers read as Decimal."""
    kw = {"parse_float": Decimal, "parse_int": Decimal, "object_pairs_hook": Obj}
    text = text.strip()
    if not text:
        return []
    try:
        doc = json.loads(text, **kw)
        rows = doc if isinstance(doc, list) and not isinstance(doc, Obj) else [doc]
    except json.JSONDecodeError:
        rows = [json.loads(line, **kw) for line in text.splitlines() if line.strip()]
    return [[cell(v) for v in ([x for _, x in row] if isinstance(row, Obj) else row)] for row in rows]


def plain(v):
    if isinstance(v, Obj):
        return {k: plain(x) for k, x in v}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def cell(v):
    return reference.canonical(plain(v))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", required=True)
    p.add_argument("--fleet", required=True)
    p.add_argument("--answers", required=True)
    p.add_argument("--queries", default=os.path.join(HERE, "queries.json"))
    a = p.parse_args()
    with open(a.queries, encoding="utf-8") as f:
        queries = json.load(f)
    with open(a.answers, encoding="utf-8") as f:
        answers = json.load(f)
    bad = 0
    for q in queries:
        status, out, err, wall, rss = run(command(a.bin, a.fleet, q["sql"]))
        if status != 0:
            bad += 1
            print("fleetquery: %s: tfwire-fleet exited %d: %s" % (q["id"], status, err.decode(errors="replace")[:2000]))
            continue
        got = parse_rows(out.decode())
        want = answers[q["id"]]
        verdict = "equal" if got == want else "DIFFERENT"
        print("fleetquery: %-18s %6.2f s  %7.1f MB  %5d rows  %s" % (q["id"], wall, rss / 2**20, len(got), verdict))
        if got != want:
            bad += 1
            for n, (g, w) in enumerate(zip(got + [None] * len(want), want + [None] * len(got))):
                if g != w:
                    print("  row %d: tfwire-fleet %s\n         reference    %s" % (n, json.dumps(g), json.dumps(w)))
                    break
    if bad:
        print("fleetquery: %d of %d queries differ from the reference" % (bad, len(queries)))
        sys.exit(1)
    print("fleetquery: all %d queries equal the reference" % len(queries))


if __name__ == "__main__":
    main()
