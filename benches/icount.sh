#!/usr/bin/env bash
# The instruction-count gate: one call of each hot path (benches/src/icount.rs: MessagePack and
# JSON decode and encode of the four 1 MB payloads, the summary of the 4 MiB synthetic plan, the
# tap's decode thread on one PlanResourceChange request and response) counted by callgrind and
# compared with benches/icount-baseline.txt. A count more than 3 % above its baseline fails;
# any other change is printed (an improvement of more than 3 % asks for a baseline update).
# A measurement missing from the baseline, or a baseline line no measurement has, fails too.
#
#   bash benches/icount.sh                     # the gate, as CI runs it
#   bash benches/icount.sh --update "REASON"   # measure, then rewrite the baseline: every
#                                              # count that changed gets REASON
#   bash benches/icount.sh --only TEXT         # the measurements whose name contains TEXT
#                                              # (no baseline update, no missing-line check)
#
# Needs valgrind (installed with apt-get when missing and the script runs as root). Counts are
# exact and the same run to run: each measurement is its own process, started with a fixed
# environment (env -i) and, where setarch exists, without address randomisation; the measured
# call reads no clock into its output, touches no randomly seeded hash map and runs on one
# thread. They depend on the compiler, the dependencies' versions, glibc and what valgrind's
# CPU offers (AVX2 here, never AVX-512): a change of any of those is a baseline update.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=benches/icount-baseline.txt
threshold=3
update=
only=
while (($#)); do
    case $1 in
        --update) update=${2:?--update needs a reason}; shift 2 ;;
        --only) only=${2:?--only needs a text}; shift 2 ;;
        *) echo "usage: bash benches/icount.sh [--update REASON | --only TEXT]" >&2; exit 2 ;;
    esac
done
if [[ -n $update && -n $only ]]; then
    echo "icount.sh: --update measures everything; drop --only" >&2
    exit 2
fi
if [[ $update == *$'\t'* || $update == *$'\n'* ]]; then
    echo "icount.sh: the reason must be one line without tabs" >&2
    exit 2
fi

if ! command -v valgrind > /dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get > /dev/null; then
        echo "icount.sh: installing valgrind"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind > /dev/null
    else
        echo "icount.sh: valgrind is missing (apt-get install valgrind)" >&2
        exit 1
    fi
fi

cargo build --release --quiet -p tfwire-benches --bin icount
bin=${CARGO_TARGET_DIR:-target}/release/icount
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
# The 4 MiB plan is generated once (python3 corpus/tools/mkbigplan.py) into the build
# folder; make it here, outside valgrind.
"$bin" run plan_summary/bigplan-4mb

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t names < <("$bin" list)
norand=()
command -v setarch > /dev/null && setarch "$(uname -m)" -R true 2> /dev/null && norand=(setarch "$(uname -m)" -R)

measure() { # NAME -> prints the instruction count
    local out=$tmp/${1//\//_}
    if ! env -i PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C "${norand[@]}" \
        valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*icount_measured_call*' \
        --callgrind-out-file="$out.cg" "$bin" run "$1" > "$out.log" 2>&1; then
        echo "icount.sh: $1 failed under valgrind:" >&2
        cat "$out.log" >&2
        return 1
    fi
    awk '/^totals:/ { print $2; found = 1 } END { if (!found) exit 1 }' "$out.cg"
}

declare -A count
t0=$SECONDS
for name in "${names[@]}"; do
    [[ -n $only && $name != *"$only"* ]] && continue
    count[$name]=$(measure "$name")
done
echo "icount.sh: ${#count[@]} measurements under callgrind in $((SECONDS - t0)) s ($(valgrind --version), $(rustc --version))"

declare -A base reason
if [[ -f $baseline ]]; then
    while IFS=$'\t' read -r name n why; do
        [[ -z $name || $name == \#* ]] && continue
        base[$name]=$n
        reason[$name]=$why
    done < "$baseline"
fi

if [[ -n $update ]]; then
    {
        echo "# Instructions of one call of each hot path (callgrind; benches/src/icount.rs says what each is),"
        echo "# checked by \`bash benches/icount.sh\` in CI: a count more than ${threshold} % above its line fails."
        echo "# Regenerate: bash benches/icount.sh --update \"REASON\" (the lines whose count changed get REASON)."
        echo "# Measured with $(valgrind --version), $(rustc --version)."
        echo "# name<TAB>instructions<TAB>reason of the last change"
        for name in "${names[@]}"; do
            why=${reason[$name]:-}
            [[ ${base[$name]:-} != "${count[$name]}" ]] && why=$update
            printf '%s\t%s\t%s\n' "$name" "${count[$name]}" "$why"
        done
    } > "$baseline.new"
    mv "$baseline.new" "$baseline"
    echo "icount.sh: $baseline rewritten"
fi

# The table, and the verdict.
fail=0
printf '\n| measurement | baseline | now | change | |\n|---|---:|---:|---:|---|\n'
for name in "${names[@]}"; do
    [[ -z ${count[$name]:-} ]] && continue
    now=${count[$name]}
    old=${base[$name]:-}
    if [[ -z $old ]]; then
        printf '| %s | (none) | %s | | FAIL: not in %s |\n' "$name" "$now" "$baseline"
        fail=1
        continue
    fi
    verdict=$(awk -v now="$now" -v old="$old" -v t="$threshold" 'BEGIN {
        c = (now - old) * 100 / old
        if (c > t) v = "FAIL: more than +" t " %"
        else if (c < -t) v = "improved: update the baseline"
        else if (now != old) v = "ok"
        else v = "same"
        printf "%+.2f %% | %s", c, v
    }')
    printf '| %s | %s | %s | %s |\n' "$name" "$old" "$now" "$verdict"
    [[ $verdict == *FAIL* ]] && fail=1
done
if [[ -z $only ]]; then
    for name in "${!base[@]}"; do
        if [[ -z ${count[$name]:-} ]]; then
            printf '| %s | %s | (gone) | | FAIL: no such measurement; update the baseline |\n' "$name" "${base[$name]}"
            fail=1
        fi
    done
fi
echo
if [[ -n $update ]]; then
    echo "icount.sh: the changes above are now the baseline ($baseline, reason: $update)"
    exit 0
fi
if ((fail)); then
    echo "icount.sh: FAILED. If the rise is intended, update the baseline in the same commit:"
    echo "  bash benches/icount.sh --update \"why the count changed\""
    exit 1
fi
echo "icount.sh: every count within ${threshold} % of $baseline"
