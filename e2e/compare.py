#!/usr/bin/env python3
"""compare.py FRESH REFERENCE [FRESH REFERENCE]...: compares fresh e2e/run.sh outputs with the committed ones.

Each pair is one client's output directory and its committed corpus: corpus/real-client (OpenTofu),
corpus/real-client-terraform (Terraform).

Every scenario of either side must have the same files with the same contents, except the volatile fields listed
in REFERENCE/MANIFEST.json ("volatile": file name, JSON pointer, reason; an empty pointer means the file is only
compared by its zip member names). JSON files are compared as parsed values with the volatile pointers removed;
JSON-lines files ("jsonl": true) line by line, in any order with "unordered_lines"; text files with
"unordered_blocks" as their blank-line-separated blocks in any order; every other file byte for byte. Prints each difference (at most 40 a pair) and exits 1 if there is any, else 0.
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


def file_difference(p, a_path, b_path, entries):
    """The difference between two versions of the corpus file p beyond the volatile entries, or None."""
    base = os.path.basename(p)
    if any(e.get("path") == "" for e in entries):
        if zipfile.is_zipfile(a_path) and zipfile.is_zipfile(b_path):
            na = sorted(zipfile.ZipFile(a_path).namelist())
            nb = sorted(zipfile.ZipFile(b_path).namelist())
            if na != nb:
                return f"{p}: zip members {na} vs {nb}"
        return None
    with open(a_path, "rb") as f:
        a = f.read()
    with open(b_path, "rb") as f:
        b = f.read()
    if a == b:
        return None
    if any(e.get("encoding") == "map entry order" for e in entries):
        try:
            if msgpack_canonical(a) == msgpack_canonical(b):
                return None
        except MsgpackError as e:
            return f"{p}: not MessagePack ({e})"
        return f"{p}: a different value"
    patterns = [e["pattern"] for e in entries if "pattern" in e]
    if patterns:
        ta, tb = a.decode("utf-8", "replace"), b.decode("utf-8", "replace")
        for pat in patterns:
            ta, tb = re.sub(pat, "<volatile>", ta), re.sub(pat, "<volatile>", tb)
        if ta == tb:
            return None
        a, b = ta.encode(), tb.encode()
    if any(e.get("unordered_blocks") for e in entries):
        # Text whose blank-line-separated blocks come in no fixed order: compared as sorted blocks.
        ta, tb = (sorted(x.decode("utf-8", "replace").split("\n\n")) for x in (a, b))
        if ta != tb:
            return f"{p}: its blocks differ (compared in any order)"
        return None
    if any(e.get("jsonl") for e in entries):
        # A stream of JSON documents, one a line: each normalised, in any order when a line entry says so.
        json_entries = [e for e in entries if e.get("jsonl") and "path" in e]
        docs = []
        for x in (a, b):
            try:
                lines = [json.loads(l) for l in x.decode().splitlines() if l.strip()]
            except ValueError as e:
                return f"{p}: not JSON lines ({e})"
            for doc in lines:
                normalise(doc, json_entries)
            if any(e.get("unordered_lines") for e in entries):
                lines.sort(key=lambda v: json.dumps(v, sort_keys=True))
            docs.append(lines)
        d = first_difference(docs[0], docs[1])
        return f"{p}: fresh run differs at line {d}" if d else None
    if p.endswith(".json") or base == "terraform.tfstate":
        try:
            ja, jb = json.loads(a), json.loads(b)
        except ValueError as e:
            return f"{p}: not JSON ({e})"
        json_entries = [e for e in entries if "path" in e]
        normalise(ja, json_entries)
        normalise(jb, json_entries)
        d = first_difference(ja, jb)
        return f"{p}: fresh run differs at {d}" if d else None
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"{p}: bytes differ from offset {at} (sizes {len(a)} and {len(b)})"


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
        rel = p.split(os.sep, 1)[1] if os.sep in p else p  # the path inside the scenario
        entries = [e for e in volatile if fnmatch.fnmatch(rel, e["file"])]
        compared += 1
        d = file_difference(p, a_path, b_path, entries)
        if d:
            diffs.append(d)
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
