#!/usr/bin/env bash
# `tfwire plan summary --format json` of one plan by one or two CLI binaries, interleaved in the
# same run: median wall time, median user+system CPU time and peak RSS of each, and the
# ratios new ÷ old (the targets: a big plan's summary at ≤ 1.5× the file in peak RSS, and
# ≤ 0.6× the previous commit's time). Both binaries must print the same summary.
#
#   OLD=path/to/previous/tfwire NEW=target/release/tfwire bash benches/plan-summary.sh PLAN.json [ROUNDS]
#   NEW=target/release/tfwire bash benches/plan-summary.sh --mb 1024 [--check] [ROUNDS]
#
# Without OLD, NEW alone is measured. With `--mb N` the plan is generated first
# (`python3 corpus/tools/mkbigplan.py PLAN --mb N`, real changes renamed, deterministic) into
# a temporary folder (or $PLAN_DIR, where it is kept), its size and generation time
# printed, and the summary's counts are checked against the ones the script computed; the
# generated file is removed at the end unless PLAN_DIR is set. Above the CLI's default input limit
# (256 MiB) the command gets `--max-input-bytes` of twice the file's size. `--check` exits 1 when NEW's
# peak RSS is above 1.5× the file. Needs GNU time (/usr/bin/time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mb= check= plan= rounds=7
while (($#)); do
    case $1 in
        --mb) mb=${2:?--mb needs a size in MiB}; shift 2 ;;
        --check) check=1; shift ;;
        -*) echo "usage: [OLD=...] NEW=... plan-summary.sh (PLAN.json | --mb N) [--check] [ROUNDS]" >&2; exit 2 ;;
        *) if [[ -z $plan && -z $mb ]]; then plan=$1; else rounds=$1; fi; shift ;;
    esac
done
: "${NEW:?NEW=path of the binary to measure}"
[[ -n $plan || -n $mb ]] || { echo "plan-summary.sh: give PLAN.json or --mb N" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -n $mb ]]; then
    dir=${PLAN_DIR:-$tmp}
    mkdir -p "$dir"
    plan=$dir/bigplan-${mb}mb.json
    if [[ ! -f $plan || ! -f $plan.counts ]]; then
        t0=$SECONDS
        python3 "$root/corpus/tools/mkbigplan.py" "$plan" --mb "$mb" 2> "$plan.counts"
        echo "generated $plan ($(stat -c %s "$plan") bytes) in $((SECONDS - t0)) s"
    fi
fi
bins=(new)
[[ -n ${OLD:-} ]] && bins=(old new)
bytes=$(stat -c %s "$plan")
# Above the CLI's default input limit (256 MiB), the limit is raised to twice the file's size (it
# also bounds the JSON nodes, one per 8 bytes of it, and the plans of mkbigplan.py hold about one
# node per 6 bytes).
limit=()
((bytes > 268435456)) && limit=(--max-input-bytes $((2 * bytes)))
for which in "${bins[@]}"; do
    bin=$NEW
    [[ $which == old ]] && bin=$OLD
    "$bin" plan summary --format json "${limit[@]}" "$plan" > "$tmp/$which.json"
done
if [[ -n ${OLD:-} ]]; then
    cmp -s "$tmp/old.json" "$tmp/new.json" || { echo "the summaries differ" >&2; exit 1; }
fi
if [[ -n $mb ]]; then
    # The counts mkbigplan.py computed while writing the plan, against the summary's.
    python3 - "$plan.counts" "$tmp/new.json" <<'PY'
import json, re, sys
want = {k: v for k, v in json.load(open(sys.argv[1]))["counts"].items() if v}
# The summary's own counts open the document (the list of changes follows).
head = open(sys.argv[2], encoding="utf-8").read(1 << 16)
m = re.search(r'"counts":(\{[^{}]*\})', head)
found = {k: v for k, v in json.loads(m.group(1)).items() if v} if m else None
if found != want:
    sys.exit(f"plan-summary.sh: the summary counts {found} are not mkbigplan.py's {want}")
print(f"summary counts as mkbigplan.py computed them: {want}")
PY
fi
for ((r = 0; r < rounds; r++)); do
    for which in "${bins[@]}"; do
        bin=$NEW
        [[ $which == old ]] && bin=$OLD
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$bin" plan summary --format json "${limit[@]}" "$plan" \
            > /dev/null
        echo "$(cat "$tmp/t")" >> "$tmp/$which.times"
    done
done
python3 - "$tmp" "$bytes" "${check:-0}" "${bins[@]}" <<'PY'
import os, statistics, sys
tmp, size, check, names = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4:]
def load(name):
    rows = [list(map(float, l.split())) for l in open(os.path.join(tmp, name + ".times")) if l.strip()]
    wall = statistics.median(r[0] for r in rows)
    cpu = statistics.median(r[1] + r[2] for r in rows)
    rss = max(r[3] for r in rows) * 1024
    return wall, cpu, rss
m = {n: load(n) for n in names}
print(f"plan: {size} bytes, {len(open(os.path.join(tmp, names[0] + '.times')).readlines())} rounds")
for name in names:
    wall, cpu, rss = m[name]
    print(f"{name}: wall {wall:.3f} s, cpu {cpu:.3f} s, peak RSS {rss / 1e6:.0f} MB = {rss / size:.2f}x the file")
if "old" in m:
    old, new = m["old"], m["new"]
    print(f"ratio new/old: wall {new[0] / old[0]:.2f}, cpu {new[1] / old[1]:.2f}, peak RSS {new[2] / old[2]:.2f}")
ratio = m["new"][2] / size
print(f"peak RSS goal <= 1.5x the file: {'met' if ratio <= 1.5 else 'NOT met'} ({ratio:.2f}x)")
sys.exit(1 if check and ratio > 1.5 else 0)
PY
