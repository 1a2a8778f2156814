#!/usr/bin/env bash
# `tfwire plan summary --format json` of one plan by two CLI binaries, interleaved in the
# same run: median wall time, median user+system CPU time and peak RSS of each, and the
# ratios new ÷ old (the target: the 100 MB plan's summary at ≤ 1.5× the file in peak RSS and
# ≤ 0.6× the previous commit's time). Both binaries must print the same summary.
#
#   OLD=path/to/previous/tfwire NEW=target/release/tfwire bash benches/plan-summary.sh PLAN.json [ROUNDS]
#
# Make the plan with `python3 corpus/tools/mkbigplan.py /tmp/big100.json --mb 100`. Needs
# GNU time (/usr/bin/time).
set -euo pipefail
plan=${1:?usage: OLD=... NEW=... plan-summary.sh PLAN.json [ROUNDS]}
rounds=${2:-7}
: "${OLD:?OLD=path of the previous binary}" "${NEW:?NEW=path of the new binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$OLD" plan summary --format json "$plan" > "$tmp/old.json"
"$NEW" plan summary --format json "$plan" > "$tmp/new.json"
cmp -s "$tmp/old.json" "$tmp/new.json" || { echo "the summaries differ" >&2; exit 1; }
for ((r = 0; r < rounds; r++)); do
    for which in old new; do
        bin=$OLD
        [[ $which == new ]] && bin=$NEW
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$bin" plan summary --format json "$plan" > /dev/null
        echo "$(cat "$tmp/t")" >> "$tmp/$which.times"
    done
done
bytes=$(stat -c %s "$plan")
python3 - "$tmp/old.times" "$tmp/new.times" "$bytes" <<'PY'
import statistics, sys
def load(p):
    rows = [list(map(float, l.split())) for l in open(p) if l.strip()]
    wall = statistics.median(r[0] for r in rows)
    cpu = statistics.median(r[1] + r[2] for r in rows)
    rss = max(r[3] for r in rows) * 1024
    return wall, cpu, rss
old, new, size = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
for name, (wall, cpu, rss) in (("old", old), ("new", new)):
    print(f"{name}: wall {wall:.3f} s, cpu {cpu:.3f} s, peak RSS {rss / 1e6:.0f} MB = {rss / size:.2f}x the file")
print(f"ratio new/old: wall {new[0] / old[0]:.2f}, cpu {new[1] / old[1]:.2f}, peak RSS {new[2] / old[2]:.2f}")
PY
