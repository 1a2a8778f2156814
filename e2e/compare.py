#!/usr/bin/env python3
"""compare.py FRESH REFERENCE [FRESH REFERENCE]...: compares fresh e2e/run.sh outputs with the committed ones.

Each pair is one client's output directory and its committed corpus: corpus/real-client (OpenTofu),
corpus/real-client-terraform (Terraform).

Every scenario of either side must have the same files with the same contents, except the volatile fields listed
in REFERENCE/MANIFEST.json ("volatile": file name, JSON pointer, reason; an empty pointer means the file is only
compared by its zip member names). JSON files are compared as parsed values with the volatile pointers removed;
every other file byte for byte. Prints each difference (at most 40 a pair) and exits 1 if there is any, else 0.
"""
import fnmatch
import json
import os
import re
import sys
import zipfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import MsgpackError, msgpack_canonical  # noqa: E402


def at_pointer(node, parts, fn):
    """Calls fn(container, key) for every place the JSON pointer parts (a "*" matches any key) name."""
    if not parts:
        return
    head, rest = parts[0], parts[1:]
    if isinstance(node, dict):
        keys = list(node) if head == "*" else [head] if head in node else []
    elif isinstance(node, list):
        keys = range(len(node)) if head == "*" else [int(head)] if head.isdigit() and int(head) < len(node) else []
    else:
        return
    for k in keys:
        if rest:
            at_pointer(node[k], rest, fn)
        else:
            fn(node, k)


def normalise(doc, entries):
    for e in entries:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in e["path"].split("/")[1:]]
        if e.get("unordered"):
            def sort(c, k):
                if isinstance(c[k], list):
                    c[k] = sorted(c[k], key=lambda v: json.dumps(v, sort_keys=True))
            at_pointer(doc, parts, sort)
        else:
            def drop(c, k):
                if isinstance(c, dict):
                    del c[k]
                else:
                    c[k] = None
            at_pointer(doc, parts, drop)


def first_difference(a, b, where=""):
    if type(a) is not type(b):
        return f"{where or '/'}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}/{k}: only in {'reference' if k not in a else 'fresh run'}"
            d = first_difference(a[k], b[k], f"{where}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where or '/'}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}/{i}")
            if d:
                return d
        return None
    if a != b:
        return f"{where or '/'}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}"
    return None


def files_under(d):
    return {os.path.relpath(os.path.join(dp, f), d) for dp, _, fs in os.walk(d) for f in fs}


def main(fresh, ref):
    with open(os.path.join(ref, "MANIFEST.json")) as f:
        manifest = json.load(f)
    volatile = manifest.get("volatile", [])
    diffs = []
    # The reference's README.md describes the corpus; run.sh does not write it.
    left, right = files_under(fresh), files_under(ref) - {"README.md"}
    for p in sorted(left - right):
        diffs.append(f"{p}: only in the fresh run")
    for p in sorted(right - left):
        diffs.append(f"{p}: only in the reference")
    compared = 0
    for p in sorted(left & right):
        a_path, b_path = os.path.join(fresh, p), os.path.join(ref, p)
        base = os.path.basename(p)
        rel = p.split(os.sep, 1)[1] if os.sep in p else p  # the path inside the scenario
        entries = [e for e in volatile if fnmatch.fnmatch(rel, e["file"])]
        compared += 1
        if any(e.get("path") == "" for e in entries):
            if zipfile.is_zipfile(a_path) and zipfile.is_zipfile(b_path):
                na = sorted(zipfile.ZipFile(a_path).namelist())
                nb = sorted(zipfile.ZipFile(b_path).namelist())
                if na != nb:
                    diffs.append(f"{p}: zip members {na} vs {nb}")
            continue
        with open(a_path, "rb") as f:
            a = f.read()
        with open(b_path, "rb") as f:
            b = f.read()
        if a == b:
            continue
        if any(e.get("encoding") == "map entry order" for e in entries):
            try:
                if msgpack_canonical(a) == msgpack_canonical(b):
                    continue
            except MsgpackError as e:
                diffs.append(f"{p}: not MessagePack ({e})")
                continue
            diffs.append(f"{p}: a different value")
            continue
        patterns = [e["pattern"] for e in entries if "pattern" in e]
        if patterns:
            ta, tb = a.decode("utf-8", "replace"), b.decode("utf-8", "replace")
            for pat in patterns:
                ta, tb = re.sub(pat, "<volatile>", ta), re.sub(pat, "<volatile>", tb)
            if ta == tb:
                continue
            a, b = ta.encode(), tb.encode()
        if p.endswith(".json") or base == "terraform.tfstate":
            try:
                ja, jb = json.loads(a), json.loads(b)
            except ValueError as e:
                diffs.append(f"{p}: not JSON ({e})")
                continue
            json_entries = [e for e in entries if "path" in e]
            normalise(ja, json_entries)
            normalise(jb, json_entries)
            d = first_difference(ja, jb)
            if d:
                diffs.append(f"{p}: fresh run differs at {d}")
            continue
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        diffs.append(f"{p}: bytes differ from offset {at} (sizes {len(a)} and {len(b)})")
    for d in diffs[:40]:
        print("DIFF", d)
    if len(diffs) > 40:
        print(f"... and {len(diffs) - 40} more")
    print(f"compare: {ref}: {compared} files in both, {len(diffs)} differences beyond the manifest's volatile "
          "fields")
    return 1 if diffs else 0


if __name__ == "__main__":
    pairs = sys.argv[1:]
    if not pairs or len(pairs) % 2:
        raise SystemExit(__doc__)
    results = [main(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
    sys.exit(max(results))
