#!/usr/bin/env python3
"""Build a large synthetic plan from the real ones in corpus/plans.

usage: mkbigplan.py OUT.json [--mb 100]

Every resource change of every plan in corpus/plans (the UTF-16 ones too) is taken in
turn and put into a module of its own (`module.m<k>.<address>`), until the output reaches
the requested size. The planned values of the same resources go into `planned_values`,
under child modules with the same addresses. The result is one valid `show -json` plan
(format 1.2) whose changes are all real ones, only renamed.

The expected summary counts (computed here, independently of tfwire) are printed on
standard error as JSON, so a run of `tfwire plan summary --format json` can be checked.
The output is deterministic. Do not commit it.
"""
import json, os, sys

def load(path):
    raw = open(path, "rb").read()
    for enc in ("utf-8-sig", "utf-16"):
        try:
            return json.loads(raw.decode(enc))
        except Exception:
            pass
    return None

def category(actions):
    a = list(actions or [])
    if a in (["delete", "create"], ["create", "delete"]):
        return "replace"
    if a == ["no-op"]:
        return "no_op"
    return a[0] if len(a) == 1 else "+".join(a)

def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if args else 2)
    if args[0].startswith("-"):
        sys.exit(f"mkbigplan.py: the first argument is the output file, not {args[0]!r}\n{__doc__}")
    out_path, mb = args[0], 100
    if "--mb" in args:
        mb = float(args[args.index("--mb") + 1])
    target = int(mb * 1024 * 1024)
    here = os.path.dirname(os.path.abspath(__file__))
    plans_dir = os.path.join(here, "..", "plans")
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(plans_dir) for f in fs)
    pool = []  # (resource change, planned resource or None)
    for f in files:
        doc = load(f)
        if not isinstance(doc, dict):
            continue
        planned = {}
        def walk(m):
            for r in (m or {}).get("resources") or []:
                if "address" in r:
                    planned[r["address"]] = r
            for c in (m or {}).get("child_modules") or []:
                walk(c)
        walk(((doc.get("planned_values") or {}).get("root_module")))
        for rc in doc.get("resource_changes") or []:
            if isinstance(rc, dict) and "address" in rc and "change" in rc:
                pool.append((rc, planned.get(rc["address"])))
    if not pool:
        sys.exit("no resource changes found under corpus/plans")

    counts = {}
    changes, modules = [], []
    size, k = 0, 0
    while size < target:
        rc, planned = pool[k % len(pool)]
        mod = f"module.m{k}"
        rc = dict(rc)
        rc["address"] = f"{mod}.{rc['address']}"
        if rc.get("module_address"):
            rc["module_address"] = f"{mod}.{rc['module_address']}"
        else:
            rc["module_address"] = mod
        if rc.get("previous_address"):
            rc["previous_address"] = f"{mod}.{rc['previous_address']}"
        text = json.dumps(rc, separators=(",", ":"))
        changes.append(text)
        size += len(text) + 1
        c = category((rc.get("change") or {}).get("actions"))
        counts[c] = counts.get(c, 0) + 1
        if planned is not None:
            pr = dict(planned)
            pr["address"] = rc["address"]
            mtext = json.dumps({"address": mod, "resources": [pr]}, separators=(",", ":"))
            modules.append(mtext)
            size += len(mtext) + 1
        k += 1

    with open(out_path, "w", encoding="utf-8") as out:
        out.write('{"format_version":"1.2","terraform_version":"1.9.8",')
        out.write('"planned_values":{"root_module":{"resources":[],"child_modules":[')
        out.write(",".join(modules))
        out.write(']}},"resource_changes":[')
        out.write(",\n".join(changes))
        out.write('],"errored":false,"complete":true,"applyable":true}\n')
    print(json.dumps({"changes": len(changes), "bytes": os.path.getsize(out_path), "counts": counts}),
          file=sys.stderr)

if __name__ == "__main__":
    main()
