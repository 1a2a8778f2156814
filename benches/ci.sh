#!/usr/bin/env bash
# The benchmarks in CI: they must build, find their answers and run, so that they cannot
# rot. No timing is asserted (CI machines are noisy); compare's JSON lines are printed for
# the record. About 3 minutes on a loaded 2-core machine from a cold build (compiling is
# most of it; the runs take about 30 s).
set -euo pipefail
cd "$(dirname "$0")/.."

# The committed answers still describe the committed payloads (needs Python's msgpack).
if python3 -c 'import msgpack' 2>/dev/null; then
    python3 benches/answers.py --check
else
    echo "benches/ci.sh: python3 msgpack module missing; answers.json not re-derived"
fi

# Every criterion bench once in test mode: each checks its answer on every input (1 MB and
# 32 MB payloads, a 4 MiB synthetic plan) and runs one iteration.
TFWIRE_BENCH_PLAN_MB=4 cargo bench -p tfwire-benches -- --test

# The peer comparison on the 1 MB resource payload, both formats (answers checked first).
cargo build --release -p tfwire-benches --bin compare --bin small --bin tap
for fmt in msgpack json; do
    "${CARGO_TARGET_DIR:-target}/release/compare" --type corpus/payloads/resource.type.json --input "$fmt" \
        --rounds 15 "corpus/payloads/resource-1m.$fmt"
    "${CARGO_TARGET_DIR:-target}/release/compare" --encode --type corpus/payloads/resource.type.json \
        --input "$fmt" --rounds 15 "corpus/payloads/resource-1m.$fmt"
done
"${CARGO_TARGET_DIR:-target}/release/small" --rounds 15
# The tap against direct calls, a few calls of each size through each path: every planned
# state must be the value sent, every value decoded, one log line a value (no timing asserted).
"${CARGO_TARGET_DIR:-target}/release/tap" --quick
