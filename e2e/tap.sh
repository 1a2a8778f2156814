#!/usr/bin/env bash
# e2e/tap.sh [--client tofu|terraform|both]: each real client's `plan` directly and through `tfwire tap` (shim
# mode), compared.
#
# Needs e2e/bin/ from e2e/run.sh (OpenTofu, Terraform and the providers) and builds the release tfwire. For each
# client (default both), each scenario (the tfwire framework provider: sensitive, many-resources, e2e/tap/secrets;
# HashiCorp's providers: time, local) is planned twice: with the providers installed as they are, and with each
# replaced by a wrapper that runs `tfwire tap --log … -- <provider>`. Prints one JSON line per client:
#   {"client": "tofu", "rpcs": N, "values": M, "decode_errors": 0, "leaked_secrets": 0, "plan_identical": true,
#    "wall_ratio": x, "p99_added_us": y}
# and exits 1 when a value did not decode, a secret is in a log or a plan differs, for either client.
set -euo pipefail

clients="tofu terraform"
while [ $# -gt 0 ]; do
  case $1 in
    --client)
      case ${2:-} in
        tofu | terraform) clients=$2 ;;
        both) clients="tofu terraform" ;;
        *) echo "tap.sh: --client takes tofu, terraform or both" >&2; exit 2 ;;
      esac
      shift 2 ;;
    *) echo "usage: tap.sh [--client tofu|terraform|both]" >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=$here/bin
runs=${TAP_RUNS:-5}
for b in $clients terraform-provider-tfwire terraform-provider-time terraform-provider-local; do
  [ -x "$bin/$b" ] || { echo "tap.sh: $bin/$b is missing: run e2e/run.sh first" >&2; exit 2; }
done
# TFWIRE: a tfwire binary to use instead of building the release one.
tfwire=${TFWIRE:-$root/target/release/tfwire}
if [ -z "${TFWIRE:-}" ]; then (cd "$root" && cargo build --release -p tfwire-cli --quiet); fi

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0 TZ=UTC
unset TF_LOG TF_LOG_PATH TF_LOG_PROVIDER TF_LOG_CORE TF_LOG_SDK_PROTO_DATA_DIR TF_DATA_DIR TF_WORKSPACE TFWIRE_PROTO_DATA_DIR
platform=$(uname -s | tr '[:upper:]' '[:lower:]')_$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')
status=0

# tap CLIENT: both modes of every scenario with CLIENT (tofu or terraform) in $work/CLIENT; prints its JSON line.
tap() {
  local client=$1 host
  # A source address without a host means this host to this client.
  case $client in
    tofu) host=registry.opentofu.org ;;
    terraform) host=registry.terraform.io ;;
  esac
  local work=${TFWIRE_E2E_WORK:-/tmp/tfwire-e2e}/tap/$client
  rm -rf "$work"
  mkdir -p "$work/logs"
  # The filesystem mirror of each mode: the providers as they are (direct) or wrapped (tap).
  for mode in direct tap; do
    for p in "tfwire tfwire 1.0.0" "hashicorp time 0.14.2" "hashicorp local 1.4.0"; do
      set -- $p
      d=$work/$mode/mirror/$host/$1/$2/$3/$platform
      mkdir -p "$d"
      if [ $mode = direct ]; then
        cp "$bin/terraform-provider-$2" "$d/terraform-provider-$2_v$3"
      else
        # One log per provider process ($$: the shell's pid, which exec hands to the tap).
        printf '#!/bin/sh\nexec "%s" tap --log "%s/%s-$$.jsonl" -- "%s" "$@"\n' \
          "$tfwire" "$work/logs" "$2" "$bin/terraform-provider-$2" >"$d/terraform-provider-$2_v$3"
        chmod +x "$d/terraform-provider-$2_v$3"
      fi
    done
    printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\ndisable_checkpoint = true\n' \
      "$work/$mode/mirror" >"$work/$mode/cli.rc"
  done

  # plan MODE SCENARIO_DIR: init and plan in $work/MODE/<name>, then plan.txt; prints the plan's wall time (s).
  plan() {
    local mode=$1 src=$2 name
    name=$(basename "$src")
    local wd=$work/$mode/$name
    mkdir -p "$wd"
    cp "$src"/*.tf "$wd/"
    (
      cd "$wd"
      export TF_CLI_CONFIG_FILE=$work/$mode/cli.rc
      if [ ! -d .terraform ]; then
        "$bin/$client" init -input=false -no-color -lock=false >>run.log 2>&1 || { tail -20 run.log >&2; exit 1; }
      fi
      t0=$(date +%s.%N)
      "$bin/$client" plan -input=false -no-color -lock=false -out=plan.tfplan >>run.log 2>&1 || { tail -20 run.log >&2; exit 1; }
      t1=$(date +%s.%N)
      "$bin/$client" show -no-color plan.tfplan >plan.txt 2>>run.log || { tail -20 run.log >&2; exit 1; }
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
    )
  }

  local identical=true
  for s in "$here/scenarios/sensitive" "$here/scenarios/time" "$here/scenarios/local" "$here/tap/secrets"; do
    plan direct "$s" >/dev/null
    plan tap "$s" >/dev/null
    name=$(basename "$s")
    if ! cmp -s "$work/direct/$name/plan.txt" "$work/tap/$name/plan.txt"; then
      echo "tap.sh: $client: $name: the plans differ" >&2
      diff "$work/direct/$name/plan.txt" "$work/tap/$name/plan.txt" | head -20 >&2 || true
      identical=false
    fi
  done

  # The timed scenario: direct and tap alternately, $runs each (the first plan of each mode, with init, untimed).
  local many=$here/scenarios/many-resources
  plan direct "$many" >/dev/null
  plan tap "$many" >/dev/null
  : >"$work/times"
  for _ in $(seq "$runs"); do
    echo "direct $(plan direct "$many")" >>"$work/times"
    echo "tap $(plan tap "$many")" >>"$work/times"
  done
  if ! cmp -s "$work/direct/many-resources/plan.txt" "$work/tap/many-resources/plan.txt"; then
    echo "tap.sh: $client: many-resources: the plans differ" >&2
    identical=false
  fi

  python3 - "$client" "$work" "$identical" <<'PY'
import glob, json, os, statistics, sys
client, work, identical = sys.argv[1], sys.argv[2], sys.argv[3] == "true"
secrets = ["s3cret", "tap-leak-provider-secret", "tap-leak-resource-secret", "tap-leak-map-value",
           "tap-leak-write-only", "tap-leak-data-secret"]
rpcs = values = errors = leaked = 0
p99s = []
for f in sorted(glob.glob(os.path.join(work, "logs", "*.jsonl"))):
    text = open(f, encoding="utf-8").read()
    leaked += sum(text.count(s) for s in secrets)
    summary = None
    for line in text.splitlines():
        r = json.loads(line)
        if "summary" in r:
            summary = r["summary"]
            continue
        values += 1
        if "error" in r:
            errors += 1
            print(f"tap.sh: {client}: {os.path.basename(f)}: {line}", file=sys.stderr)
    if summary is None:
        print(f"tap.sh: {client}: {os.path.basename(f)}: no summary record (the tap did not end cleanly)",
              file=sys.stderr)
        errors += 1
        continue
    rpcs += summary["calls"]
    if summary["calls"] >= 500:
        p99s.append(summary["added_us"]["p99"])
times = {"direct": [], "tap": []}
for line in open(os.path.join(work, "times")):
    mode, t = line.split()
    times[mode].append(float(t))
ratio = statistics.median(times["tap"]) / statistics.median(times["direct"])
result = {"client": client, "rpcs": rpcs, "values": values, "decode_errors": errors, "leaked_secrets": leaked,
          "plan_identical": identical, "wall_ratio": round(ratio, 3),
          "p99_added_us": statistics.median(p99s) if p99s else None}
print(json.dumps(result))
print(f"tap.sh: {client}: plan wall times (s): direct {times['direct']}, tap {times['tap']}; "
      f"p99 of the time a frame was held, per timed tap run (us): {p99s}", file=sys.stderr)
sys.exit(0 if errors == 0 and leaked == 0 and identical and rpcs > 0 else 1)
PY
}

# Each client in a job of its own, so that `set -e` still stops that client at its first failure.
for c in $clients; do
  tap "$c" &
  wait $! || status=1
done
exit $status
