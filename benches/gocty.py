#!/usr/bin/env python3
"""tfwire against go-cty (and the Rust peers) on the same payload, interleaved.

usage:
  python3 benches/gocty.py [--runs N] --type TYPE.json --input msgpack|json PAYLOAD
  python3 benches/gocty.py --table [--runs N] [--repeat N]

For one payload: N times (default 3) in turn, `compare` (tfwire and the Rust peers, 15
interleaved rounds) and go-cty's decoder (`ctyref bench`, go-cty's `ctymsgpack.Unmarshal` or
`ctyjson.Unmarshal`, about 1 s of decodes after a checked warm-up). Prints one JSON line like
compare's, whose figures are the medians over the N runs, with "go-cty" among the results
and the ratios: {"payload": ..., "results": {"tfwire": {"gbps": x}, ..., "go-cty": {"gbps": y}},
"ratios": {..., "go-cty": x / y}}.

--table does that for the four payloads of corpus/payloads in both formats (or a list of
--repeat N copies of each: `--repeat 32` gives the 32 MB inputs; go-cty then gets the same
bytes, written to a temporary file) and ends with a Markdown table for benches/README.md.

go-cty's harness: $CTYREF, else /work/tools/ctyref/bin/ctyref, else one built from the
shared tools (`shared/tools/ctyref/build.sh`, beside the repository or at /work/shared)
into a temporary folder, kept in target/tfwire-benches-data/ctyref (the build installs Go
and go-cty from Debian's packages and so needs root).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
PAYLOADS = os.path.join(ROOT, "corpus", "payloads")
KINDS = ["resource", "state-list", "strings", "numbers"]
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
DATA = os.path.join(TARGET, "tfwire-benches-data")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def ctyref():
    """The path of a ctyref binary, built if needed."""
    for p in (os.environ.get("CTYREF"), "/work/tools/ctyref/bin/ctyref",
              os.path.join(DATA, "ctyref")):
        if p and os.access(p, os.X_OK):
            return p
    for src in (os.path.join(ROOT, "..", "shared", "tools", "ctyref"),
                "/work/shared/tools/ctyref"):
        if os.path.exists(os.path.join(src, "build.sh")):
            break
    else:
        sys.exit("gocty.py: no ctyref binary and no shared/tools/ctyref to build one from")
    tmp = tempfile.mkdtemp(prefix="ctyref-")
    build = os.path.join(tmp, "ctyref")
    shutil.copytree(src, build, ignore=shutil.ignore_patterns("bin", "out"))
    log(f"gocty.py: building ctyref in {build}")
    subprocess.run(["sh", os.path.join(build, "build.sh")], check=True, stdout=sys.stderr)
    os.makedirs(DATA, exist_ok=True)
    dest = os.path.join(DATA, "ctyref")
    shutil.copy2(os.path.join(build, "bin", "ctyref"), dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


def compare_bin():
    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "tfwire-benches",
                    "--bin", "compare"], cwd=ROOT, check=True)
    return os.path.join(TARGET, "release", "compare")


def run_compare(exe, type_path, fmt, payload, repeat):
    cmd = [exe, "--type", type_path, "--input", fmt, "--rounds", "15", payload]
    if repeat > 1:
        cmd[1:1] = ["--repeat", str(repeat)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_gocty(exe, type_path, fmt, payload):
    out = subprocess.run([exe, "bench", "-type", type_path, "-in", payload, "-format", fmt,
                          "-n", "0"], check=True, capture_output=True, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    mbps = next(r[k] for k in ("mb_per_s", "MB/s", "mbps", "MBps") if k in r)
    return mbps / 1000.0, r


def one(cty, exe, type_path, fmt, payload, runs, repeat=1):
    """compare and go-cty in turn, `runs` times; medians."""
    go_input, go_type, tmp = payload, type_path, None
    if repeat > 1:
        # go-cty gets the same bytes: the list of copies, and its type.
        tmp = tempfile.mkdtemp(prefix="gocty-")
        data = open(payload, "rb").read()
        if fmt == "msgpack":
            head = bytes([0x90 | repeat]) if repeat < 16 else (
                b"\xdc" + repeat.to_bytes(2, "big") if repeat < 65536 else
                b"\xdd" + repeat.to_bytes(4, "big"))
            big = head + data * repeat
        else:
            big = b"[" + b",".join([data] * repeat) + b"]"
        go_input = os.path.join(tmp, "payload")
        open(go_input, "wb").write(big)
        go_type = os.path.join(tmp, "type.json")
        open(go_type, "w").write('["list",%s]' % open(type_path).read().strip())
    lines, go = [], []
    try:
        for _ in range(runs):
            lines.append(run_compare(exe, type_path, fmt, payload, repeat))
            gbps, _ = run_gocty(cty, go_type, fmt, go_input)
            go.append(gbps)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    results = {}
    for name in lines[0]["results"]:
        results[name] = {"gbps": round(statistics.median(l["results"][name]["gbps"] for l in lines), 4)}
    results["go-cty"] = {"gbps": round(statistics.median(go), 4)}
    tf = results["tfwire"]["gbps"]
    ratios = {n: round(tf / r["gbps"], 3) for n, r in results.items() if n != "tfwire"}
    return {"payload": lines[0]["payload"], "input": fmt, "bytes": lines[0]["bytes"],
            "results": results, "ratios": ratios, "runs": runs}


def table(rows):
    out = ["| payload | input | tfwire GB/s | peers: GB/s (tfwire ×) | go-cty GB/s (tfwire ×) |",
           "|---|---|---:|---|---:|"]
    for r in rows:
        res, rat = r["results"], r["ratios"]
        peers = ", ".join(f"{n} {res[n]['gbps']:.3f} ({rat[n]:.2f}×)"
                          for n in res if n not in ("tfwire", "go-cty"))
        out.append(f"| {r['payload']} | {r['input']} | {res['tfwire']['gbps']:.3f} | {peers} | "
                   f"{res['go-cty']['gbps']:.4f} ({rat['go-cty']:.0f}×) |")
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    runs, repeat = 3, 1
    opts = {}
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--runs", "--type", "--input", "--repeat"):
            opts[a] = args[i + 1]
            i += 2
        elif a in ("--table", "-h", "--help"):
            opts[a] = True
            i += 1
        else:
            rest.append(a)
            i += 1
    if "-h" in opts or "--help" in opts:
        print(__doc__)
        return
    runs = int(opts.get("--runs", 3))
    repeat = int(opts.get("--repeat", 1))
    cty = ctyref()
    exe = compare_bin()
    if "--table" in opts:
        rows = []
        for kind in KINDS:
            for fmt in ("msgpack", "json"):
                r = one(cty, exe, os.path.join(PAYLOADS, f"{kind}.type.json"), fmt,
                        os.path.join(PAYLOADS, f"{kind}-1m.{fmt}"), runs, repeat)
                print(json.dumps(r), flush=True)
                rows.append(r)
        print(table(rows))
        return
    if "--type" not in opts or len(rest) != 1:
        sys.exit(__doc__)
    fmt = opts.get("--input", "msgpack")
    print(json.dumps(one(cty, exe, opts["--type"], fmt, rest[0], runs, repeat)))


if __name__ == "__main__":
    main()
