#!/usr/bin/env bash
# Fuzzing in CI: replays the regression and seed corpora on stable (a plain `cargo test`,
# no fuzzer), then runs every fuzz target for a bounded time when cargo-fuzz is available
# (installing it if missing).
#
#   fuzz/ci.sh [SECONDS]    seconds per target (default 40; 0: replay only)
#
# About 3-4 minutes to build the targets from scratch and 8 x SECONDS to fuzz: under 10
# minutes on 2 cores with the default. A crash fails the script; libFuzzer saves the input
# under fuzz/artifacts/<target>/ (keep it under corpus/regressions/<target>/, see
# fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-40}
step() { printf '\n== %s (%ss, %s free)\n' "$1" "$SECONDS" "$(df -h . | awk 'NR==2 {print $4}')"; }

step "fuzz: replay corpus/regressions and the seeds built from corpus/ (stable)"
cargo test -p tfwire-fuzzing --quiet

if [ "$seconds" = 0 ]; then
    exit 0
fi

step "fuzz: cargo-fuzz"
if ! cargo fuzz --version >/dev/null 2>&1; then
    if ! cargo install cargo-fuzz --locked --quiet; then
        echo "cargo-fuzz cannot be installed: fuzzing skipped (the replay above ran)"
        exit 0
    fi
fi

step "fuzz: seed corpora (fuzz/seeds)"
cargo run --quiet -p tfwire-fuzzing --bin tfwire-fuzz-seeds -- fuzz/seeds

cd fuzz
# The sanitizer flags are nightly-only; RUSTC_BOOTSTRAP lets the stable compiler take them.
export RUSTC_BOOTSTRAP=1

step "fuzz: build the targets (AddressSanitizer, debug assertions)"
cargo fuzz build --debug-assertions

# The dictionary and the longest input of each target.
dict_of() {
    case $1 in
        plan | skeleton | fleet_rows) echo dict/plan.dict ;;
        decode_json) echo dict/json.dict ;;
        dump) echo dict/dump.dict ;;
        tap_handshake | tap_frames) echo dict/tap.dict ;;
        cassette) echo dict/json.dict ;;
        *) echo dict/msgpack.dict ;;
    esac
}
max_len_of() {
    case $1 in
        plan | skeleton | planfile | dump | cassette | fleet_rows) echo 32768 ;;
        # Past the handshake line's 64 KiB bound.
        tap_handshake) echo 69632 ;;
        *) echo 4096 ;;
    esac
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for target in tokenize tokenize_chunked decode_msgpack decode_json msgpack_vs_json stream plan skeleton planfile dump tap_handshake tap_frames cassette fleet_rows; do
    step "fuzz: $target for ${seconds}s"
    mkdir -p "corpus/$target"
    if ! cargo fuzz run --debug-assertions "$target" "corpus/$target" "seeds/$target" -- \
        -dict="$(dict_of "$target")" -max_len="$(max_len_of "$target")" \
        -max_total_time="$seconds" -timeout=10 -print_final_stats=1 >"$log" 2>&1; then
        tail -n 80 "$log"
        echo "fuzz: $target failed; the input is under fuzz/artifacts/$target/"
        exit 1
    fi
    grep -E '^(#[0-9]+ +(INITED|DONE)|stat::(number_of_executed_units|peak_rss_mb))' "$log" || true
done

step "fuzz: done"
