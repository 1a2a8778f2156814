#!/usr/bin/env bash
# The fleet in CI: the committed small fleet (corpus/fleet) is what generate.py makes, its
# answers are what reference.py computes, and tfwire-fleet's answers to the ten queries
# equal them.
#
#   bash benches/fleet/ci.sh [TFWIRE_FLEET]
#
# TFWIRE_FLEET: the tfwire-fleet binary, release or debug (default: `cargo build -p
# tfwire-fleet`, then target/debug/tfwire-fleet). Python 3.11, standard library only. Prints
# each part's time.
set -euo pipefail
cd "$(dirname "$0")/../.."

SEED=32 STATES=40 PLANS=4 SCALE=0.15
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t() { date +%s%N; }
took() { local ms=$((($(t) - $2) / 1000000)); printf '%s took %d.%03d s\n' "$1" $((ms / 1000)) $((ms % 1000)); }

t0=$(t)
python3 benches/fleet/generate.py --seed "$SEED" --states "$STATES" --plans "$PLANS" --scale "$SCALE" \
  --out "$tmp/fleet" --jobs 1
diff -r --brief "$tmp/fleet" corpus/fleet --exclude answers.json --exclude README.md \
  || { echo "ci.sh: corpus/fleet is not what generate.py makes (regenerate it: see corpus/fleet/README.md)"; exit 1; }
took "generate.py (the small fleet, compared with corpus/fleet)" "$t0"

t0=$(t)
python3 benches/fleet/reference.py corpus/fleet --out "$tmp/answers.json"
diff -u corpus/fleet/answers.json "$tmp/answers.json" \
  || { echo "ci.sh: corpus/fleet/answers.json is not what reference.py answers"; exit 1; }
took "reference.py (the ten answers, compared with corpus/fleet/answers.json)" "$t0"

bin=${1:-}
if [ -z "$bin" ]; then
  t0=$(t)
  cargo build -p tfwire-fleet --bin tfwire-fleet --quiet
  bin=target/debug/tfwire-fleet
  took "cargo build -p tfwire-fleet (debug)" "$t0"
fi
t0=$(t)
python3 benches/fleet/fleetquery.py --bin "$bin" --fleet corpus/fleet --answers corpus/fleet/answers.json
took "tfwire-fleet query (the ten queries over corpus/fleet, $bin)" "$t0"
