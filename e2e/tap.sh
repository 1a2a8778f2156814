#!/usr/bin/env bash
# e2e/tap.sh [--client tofu|terraform|both]: each client's `plan` directly and through `tfwire tap` (shim mode),
# compared.
#
# Needs e2e/bin/ from e2e/run.sh (the clients and the providers) and builds the release tfwire. For each client
# (default both: OpenTofu, then Terraform; a client missing from bin/ is an error), each scenario (the tfwire framework provider: sensitive, many-resources,
# e2e/tap/secrets; HashiCorp's providers: time, local) is planned twice: with the providers installed as they are,
# and with each replaced by a wrapper that runs `tfwire tap --log … -- <provider>`. Through Terraform also a
# `terraform query` (scenario query, after its apply) and an action invoked by `apply -invoke` (actions-invoke),
# each run both ways too. Prints one JSON line per client:
#   {"client": "tofu", "rpcs": N, "values": M, "decode_errors": 0, "leaked_secrets": 0, "plan_identical": true,
#    "wall_ratio": x, "p99_added_us": y}
# (Terraform's line adds "query_identical" and "invoke_identical") and exits 1 when a value did not decode, a
# secret is in a log, or a plan, query or action result differs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=$here/bin
runs=${TAP_RUNS:-5}
clients=(tofu terraform)
while [ $# -gt 0 ]; do
  case $1 in
    --client)
      case ${2:-} in
        tofu | terraform) clients=("$2") ;;
        both) clients=(tofu terraform) ;;
        *) echo "tap.sh: --client takes tofu, terraform or both" >&2; exit 2 ;;
      esac
      shift 2 ;;
    *) echo "usage: tap.sh [--client tofu|terraform|both]" >&2; exit 2 ;;
  esac
done
for b in "${clients[@]}" terraform-provider-tfwire terraform-provider-time terraform-provider-local; do
  [ -x "$bin/$b" ] || { echo "tap.sh: $bin/$b is missing: run e2e/run.sh first" >&2; exit 2; }
done
# TFWIRE: a tfwire binary to use instead of building the release one.
tfwire=${TFWIRE:-$root/target/release/tfwire}
if [ -z "${TFWIRE:-}" ]; then (cd "$root" && cargo build --release -p tfwire-cli --quiet); fi

top=${TFWIRE_E2E_WORK:-/tmp/tfwire-e2e}/tap
rm -rf "$top"
platform=$(uname -s | tr '[:upper:]' '[:lower:]')_$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0 TZ=UTC
unset TF_LOG TF_LOG_PATH TF_LOG_PROVIDER TF_LOG_CORE TF_LOG_SDK_PROTO_DATA_DIR TF_DATA_DIR TF_WORKSPACE TFWIRE_PROTO_DATA_DIR

# mirrors: the filesystem mirrors of the current client, the providers as they are (direct) or wrapped (tap).
mirrors() {
  local mode p d
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
}

# run MODE NAME ARGS...: the client in $work/MODE/NAME with that mode's mirror; output appended to run.log.
run() {
  local mode=$1 name=$2
  shift 2
  (
    cd "$work/$mode/$name"
    TF_CLI_CONFIG_FILE=$work/$mode/cli.rc "$cbin" "$@" >>run.log 2>&1 || { tail -20 run.log >&2; exit 1; }
  )
}

# setup MODE SCENARIO_DIR: a working directory with the scenario's configuration, initialised once.
setup() {
  local wd=$work/$1/$(basename "$2")
  mkdir -p "$wd"
  cp "$2"/*.tf "$wd/"
  if compgen -G "$2/*.tfquery.hcl" >/dev/null; then cp "$2"/*.tfquery.hcl "$wd/"; fi
  if [ ! -d "$wd/.terraform" ]; then run "$1" "$(basename "$2")" init -input=false -no-color -lock=false; fi
}

# plan MODE SCENARIO_DIR: init and plan in $work/MODE/<name>, then plan.txt; prints the plan's wall time (s).
plan() {
  local mode=$1 src=$2 name t0 t1
  name=$(basename "$src")
  setup "$mode" "$src"
  t0=$(date +%s.%N)
  run "$mode" "$name" plan -input=false -no-color -lock=false -out=plan.tfplan
  t1=$(date +%s.%N)
  (cd "$work/$mode/$name" && TF_CLI_CONFIG_FILE=$work/$mode/cli.rc "$cbin" show -no-color plan.tfplan >plan.txt)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# same NAME FILE: whether FILE of scenario NAME is the same in both modes (blank-line-separated blocks in any
# order when a third argument says "blocks": a query prints each list block as it completes).
same() {
  python3 - "$work/direct/$1/$2" "$work/tap/$1/$2" "${3:-}" <<'PY'
import sys
a, b = (open(p, encoding="utf-8").read() for p in sys.argv[1:3])
if sys.argv[3] == "blocks":
    a, b = sorted(a.split("\n\n")), sorted(b.split("\n\n"))
sys.exit(0 if a == b else 1)
PY
}

# wait_for FILE MESSAGE: waits up to 30 s for FILE to be non-empty, else fails with MESSAGE.
wait_for() {
  local i
  for i in $(seq 300); do
    if [ -s "$1" ]; then return 0; fi
    sleep 0.1
  done
  echo "tap.sh: $cname: $2" >&2
  exit 1
}

# The reattach check's processes, ended whatever way the script ends.
tpid= ppid=
trap 'for p in $tpid $ppid; do kill -TERM "$p" 2>/dev/null || true; done' EXIT

for cname in "${clients[@]}"; do
  cbin=$bin/$cname
  work=$top/$cname
  case $cname in tofu) host=registry.opentofu.org ;; terraform) host=registry.terraform.io ;; esac
  mkdir -p "$work/logs"
  mirrors

  identical=true
  for s in "$here/scenarios/sensitive" "$here/scenarios/time" "$here/scenarios/local" "$here/tap/secrets"; do
    plan direct "$s" >/dev/null
    plan tap "$s" >/dev/null
    name=$(basename "$s")
    if ! cmp -s "$work/direct/$name/plan.txt" "$work/tap/$name/plan.txt"; then
      echo "tap.sh: $cname: $name: the plans differ" >&2
      diff "$work/direct/$name/plan.txt" "$work/tap/$name/plan.txt" | head -20 >&2 || true
      identical=false
    fi
  done

  extra=
  if [ "$cname" = terraform ]; then
    # ListResource (a server stream) through the tap: the things made by the apply, listed by terraform query.
    query=true
    for mode in direct tap; do
      setup $mode "$here/scenarios/query"
      run $mode query apply -input=false -no-color -lock=false -auto-approve
      (cd "$work/$mode/query" && TF_CLI_CONFIG_FILE=$work/$mode/cli.rc "$cbin" query -no-color >query.txt)
    done
    same query query.txt blocks || { echo "tap.sh: terraform: the query results differ" >&2; query=false; }
    # InvokeAction (a server stream) through the tap: apply -invoke, and the file the action wrote.
    invoke=true
    for mode in direct tap; do
      setup $mode "$here/scenarios/actions-invoke"
      run $mode actions-invoke apply -input=false -no-color -lock=false -auto-approve
      run $mode actions-invoke apply -input=false -no-color -lock=false -auto-approve \
        -invoke=action.tfwire_write.early
    done
    same actions-invoke out/early.txt || { echo "tap.sh: terraform: the action wrote different files" >&2; invoke=false; }
    extra=", \"query_identical\": $query, \"invoke_identical\": $invoke"
  fi

  # Reattach mode: the tfwire provider in debug mode (-debug: it serves until SIGTERM and writes its
  # TF_REATTACH_PROVIDERS value), `tfwire tap --reattach` in front of it, the client given the value the tap prints;
  # the plan of tap/secrets (other providers from the direct mirror) must be the direct one.
  mkdir -p "$work/reattach"
  cp "$work/direct/cli.rc" "$work/reattach/cli.rc"
  "$bin/terraform-provider-tfwire" -debug "$host/tfwire/tfwire" -debug-env "$work/reattach/provider.env" \
    >"$work/reattach/provider.out" 2>&1 &
  ppid=$!
  wait_for "$work/reattach/provider.env" "the provider in debug mode wrote no reattach value"
  upstream=$(sed -e "s/^TF_REATTACH_PROVIDERS='//" -e "s/'\$//" "$work/reattach/provider.env")
  "$tfwire" tap --log "$work/logs/tfwire-reattach.jsonl" --reattach "$upstream" \
    >"$work/reattach/tap.out" 2>"$work/reattach/tap.err" &
  tpid=$!
  wait_for "$work/reattach/tap.out" "the tap in reattach mode printed no reattach value"
  TF_REATTACH_PROVIDERS=$(head -n 1 "$work/reattach/tap.out") plan reattach "$here/tap/secrets" >/dev/null
  kill -TERM "$tpid"
  wait "$tpid" || { echo "tap.sh: $cname: the tap in reattach mode failed: $(cat "$work/reattach/tap.err")" >&2; exit 1; }
  kill -TERM "$ppid"
  wait "$ppid" || true
  tpid= ppid=
  reattach=true
  cmp -s "$work/direct/secrets/plan.txt" "$work/reattach/secrets/plan.txt" \
    || { echo "tap.sh: $cname: the plan through the tap in reattach mode differs" >&2; reattach=false; }
  extra="$extra, \"reattach_identical\": $reattach"

  # The timed scenario: direct and tap alternately, $runs each (the first plan of each mode, with init, untimed).
  many=$here/scenarios/many-resources
  plan direct "$many" >/dev/null
  plan tap "$many" >/dev/null
  : >"$work/times"
  for _ in $(seq "$runs"); do
    echo "direct $(plan direct "$many")" >>"$work/times"
    echo "tap $(plan tap "$many")" >>"$work/times"
  done
  if ! cmp -s "$work/direct/many-resources/plan.txt" "$work/tap/many-resources/plan.txt"; then
    echo "tap.sh: $cname: many-resources: the plans differ" >&2
    identical=false
  fi

  python3 - "$work" "$cname" "$identical" "{${extra#, }}" "$here/tap" <<'PY' || status=1
import glob, json, os, statistics, sys
work, client, identical, extra = sys.argv[1], sys.argv[2], sys.argv[3] == "true", json.loads(sys.argv[4])
sys.path.insert(0, sys.argv[5])
from leaks import SECRETS as secrets
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
          "p99_added_us": statistics.median(p99s) if p99s else None, **extra}
print(json.dumps(result))
print(f"tap.sh: {client}: plan wall times (s): direct {times['direct']}, tap {times['tap']}; "
      f"p99 of the time a frame was held, per timed tap run (us): {p99s}", file=sys.stderr)
ok = errors == 0 and leaked == 0 and identical and all(extra.values())
sys.exit(0 if ok else 1)
PY
done
exit "${status:-0}"
