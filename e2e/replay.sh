#!/usr/bin/env bash
# e2e/replay.sh [--client tofu|terraform|both] [--scenario DIR]... [--jobs N]: record and replay.
#
# Needs e2e/bin/ from e2e/run.sh (the clients and the providers) and builds the release tfwire (TFWIRE=path uses
# that binary instead). Every scenario (default: every directory of e2e/scenarios/ and e2e/tap/secrets) is run by
# e2e/run.sh --plan-only (its steps, then the plan and `show -no-color` of the planfile) through each client
# (default both; a scenario.json "clients" list restricts a scenario), four times:
#   record    every provider wrapped by `tfwire tap --record CASSETTE` (one cassette per client, scenario and
#             provider type, every provider process of every command appending its session);
#   replay    the provider binaries gone (run.sh --bin gets a directory holding only the clients), each provider a
#             wrapper running `tfwire replay CASSETTE`;
#   redacted  the same from the redacted cassettes (`tfwire cassette redact`);
# and compares each replayed plan.txt with the recorded one. Then, for each client: the `create` scenario with
# one attribute edited is replayed and must fail with an error naming the RPC, the resource type and the path
# of that attribute; and a plan of 2,000 resources (many-resources with a larger count), recorded, then planned
# alternately with the real provider and replayed, TIMING_RUNS times each (default 2), median wall times
# compared. run.sh runs --jobs shards at once (default 3: a client mostly waits for its provider processes),
# each in its own fixed working directory, the same in every mode, so paths in requests do not change.
# Prints one JSON line:
#   {"scenarios": N, "identical": N, "identical_redacted": N, "leaked_secrets": 0, "mismatch_errors_clear": true,
#    "replay_p99_us": x, ...}
# and exits 1 on any shortfall.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=$here/bin
clients=(tofu terraform)
scenarios=()
jobs=3
runs=${TIMING_RUNS:-2}
while [ $# -gt 0 ]; do
  case $1 in
    --client)
      case ${2:-} in
        tofu | terraform) clients=("$2") ;;
        both) clients=(tofu terraform) ;;
        *) echo "replay.sh: --client takes tofu, terraform or both" >&2; exit 2 ;;
      esac
      shift 2 ;;
    --scenario) [ $# -ge 2 ] || { echo "replay.sh: --scenario needs a directory" >&2; exit 2; }
                scenarios+=("$(cd "$2" && pwd)"); shift 2 ;;
    --jobs)     [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "replay.sh: --jobs needs a positive number" >&2; exit 2; }
                jobs=$2; shift 2 ;;
    -h|--help)  sed -n 2,25p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: replay.sh [--client tofu|terraform|both] [--scenario DIR]... [--jobs N]" >&2; exit 2 ;;
  esac
done
if [ ${#scenarios[@]} -eq 0 ]; then
  for d in "$here"/scenarios/*/ "$here"/tap/secrets/; do scenarios+=("${d%/}"); done
fi
for b in "${clients[@]}" terraform-provider-tfwire terraform-provider-time terraform-provider-local; do
  [ -x "$bin/$b" ] || { echo "replay.sh: $bin/$b is missing: run e2e/run.sh first" >&2; exit 2; }
done
tfwire=${TFWIRE:-$root/target/release/tfwire}
if [ -z "${TFWIRE:-}" ]; then
  b0=$SECONDS
  (cd "$root" && cargo build --release -p tfwire-cli --quiet)
  echo "replay.sh: timing: tfwire built in $((SECONDS - b0)) s" >&2
fi

top=${TFWIRE_E2E_WORK:-/tmp/tfwire-e2e}/replay
rm -rf "$top"
mkdir -p "$top/logs" "$top/clients"
t0=$SECONDS
# The replay modes' --bin: the clients only, so that nothing can start a real provider.
for c in "${clients[@]}"; do ln -s "$bin/$c" "$top/clients/$c"; done

# The 2,000-resource plan: many-resources with 1,980 tfwire_item instead of 500 (and its 20 tfwire_shapes).
big=$top/scenarios/plan-2000
mkdir -p "$big"
sed 's/^  count = 500$/  count = 1980/' "$here/scenarios/many-resources/main.tf" >"$big/main.tf"
grep -q '^  count = 1980$' "$big/main.tf" || { echo "replay.sh: many-resources/main.tf has no 'count = 500'" >&2; exit 2; }
cp "$here/scenarios/many-resources/scenario.json" "$big/"

# The edited scenario: create with map_nested["first"].value changed.
edited=$top/scenarios/create
mkdir -p "$edited"
cp -r "$here/scenarios/create/." "$edited/"
sed -i 's/first  = { key = "m1", value = "x" }/first  = { key = "m1", value = "edited" }/' "$edited/main.tf"
! cmp -s "$here/scenarios/create/main.tf" "$edited/main.tf" \
  || { echo "replay.sh: the edit of create/main.tf (map_nested.first.value) did not apply" >&2; exit 2; }
edited_path='map_nested["first"].value'

# What tfwire offers (the tap's --record, the replay command, the cassette redactor).
has() { "$tfwire" "$@" --help >/dev/null 2>&1; }
record_ok=false replay_ok=false redact_cmd=false
if "$tfwire" tap --help 2>&1 | grep -q -- '--record'; then record_ok=true; fi
if has replay; then replay_ok=true; fi
if has cassette redact; then redact_cmd=true; fi
$record_ok || echo "replay.sh: this tfwire's tap has no --record: recording with --log only, nothing to replay" >&2
$replay_ok || echo "replay.sh: this tfwire has no replay command" >&2

# wrapper NAME COMMAND: the script run.sh --wrap installs, run as `NAME TYPE PROVIDER ENTRY ARGS...` with
# TFWIRE_E2E_CLIENT and TFWIRE_E2E_SCENARIO set; COMMAND is shell text using $c (the cassette directory of that
# client and scenario, created), $type, $provider and $entry. Standard error goes to logs/NAME/CLIENT/SCENARIO/.
wrapper() {
  cat >"$top/$1.sh" <<SH
#!/bin/sh
type=\$1 provider=\$2 entry=\$3
shift 3
c=$top/cassettes/\$TFWIRE_E2E_CLIENT/\$TFWIRE_E2E_SCENARIO
l=$top/logs/$1/\$TFWIRE_E2E_CLIENT/\$TFWIRE_E2E_SCENARIO
mkdir -p "\$c" "\$l"
# The provider's address and version from its entry, …/HOST/NS/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vV.
d=\${entry%/*}; d=\${d%/*}; version=\${d##*/}; d=\${d%/*}; addr=\${d##*/}; d=\${d%/*}; addr=\${d##*/}/\$addr
d=\${d%/*}; addr=\${d##*/}/\$addr
exec $2 2>>"\$l/\$type-\$\$.err"
SH
  chmod +x "$top/$1.sh"
}
if $record_ok; then
  wrapper record "\"$tfwire\" tap --record \"\$c/\$type.jsonl\" --provider \"\$addr\" --provider-version \"\$version\" \
  -- \"\$provider\" \"\$@\""
else
  wrapper record "\"$tfwire\" tap --log \"\$l/\$type-\$\$.jsonl\" -- \"\$provider\" \"\$@\""
fi
wrapper record-redacted "\"$tfwire\" tap --record \"\$c/\$type.redacted.jsonl\" --redact --provider \"\$addr\" \
  --provider-version \"\$version\" -- \"\$provider\" \"\$@\""
wrapper replay "\"$tfwire\" replay \"\$c/\$type.jsonl\" \"\$@\""
wrapper replay-redacted "\"$tfwire\" replay \"\$c/\$type.redacted.jsonl\" \"\$@\""

# runs_for CLIENT DIR...: the scenarios among DIR... that run through CLIENT (scenario.json "clients").
runs_for() {
  python3 - "$@" <<'PY'
import json, os, sys
for d in sys.argv[2:]:
    p = os.path.join(d, "scenario.json")
    if sys.argv[1] in (json.load(open(p)) if os.path.exists(p) else {}).get("clients", ["tofu", "terraform"]):
        print(d)
PY
}

# shard MODE CLIENT K BIN WRAP DIR...: run.sh --plan-only over DIR... in working directory work/CLIENT-K, output
# to out/MODE/CLIENT/<scenario>/plan.txt; a failing scenario is noted in failed/MODE-CLIENT and run.sh goes on
# with the next one.
shard() {
  local mode=$1 client=$2 k=$3 b=$4 w=$5 i args s
  shift 5
  local rest=("$@") out=$top/out/$mode/$client log=$top/logs/$mode-$client-$k.log
  mkdir -p "$out"
  while [ ${#rest[@]} -gt 0 ]; do
    args=()
    for s in "${rest[@]}"; do args+=(--scenario "$s"); done
    if [ -n "$w" ]; then args+=(--wrap "$w"); fi
    if TFWIRE_E2E_WORK=$top/work/$client-$k bash "$here/run.sh" --bin "$b" --client "$client" --plan-only \
      --out "$out" --out-terraform "$out" "${args[@]}" >>"$log" 2>&1; then
      return 0
    fi
    i=0
    while [ $i -lt ${#rest[@]} ] && [ -f "$out/$(basename "${rest[$i]}")/plan.txt" ]; do i=$((i + 1)); done
    [ $i -lt ${#rest[@]} ] || { echo "replay.sh: $mode: $client: run.sh failed after its last scenario" >&2; return 1; }
    echo "$(basename "${rest[$i]}")" >>"$top/failed/$mode-$client"
    rest=("${rest[@]:$((i + 1))}")
  done
}

# phase MODE BIN WRAP DIR...: every client, DIR... (those each client runs) dealt round-robin into --jobs shards
# run at once.
phase() {
  local mode=$1 b=$2 w=$3 c k i p0=$SECONDS pids=()
  shift 3
  mkdir -p "$top/failed"
  for c in "${clients[@]}"; do
    mapfile -t mine < <(runs_for "$c" "$@")
    for k in $(seq 0 $((jobs - 1))); do
      local part=()
      for i in "${!mine[@]}"; do
        if [ $((i % jobs)) -eq "$k" ]; then part+=("${mine[$i]}"); fi
      done
      if [ ${#part[@]} -gt 0 ]; then shard "$mode" "$c" "$k" "$b" "$w" "${part[@]}" & pids+=($!); fi
    done
    # Clients one after the other: the shards of one client already fill the machine.
    for p in "${pids[@]}"; do wait "$p" || true; done
    pids=()
  done
  echo "replay.sh: timing: $mode: $# scenarios in $((SECONDS - p0)) s" >&2
}

phase record "$bin" "$top/record.sh" "${scenarios[@]}" "$big"
if $record_ok && ! $redact_cmd; then
  phase record-redacted "$bin" "$top/record-redacted.sh" "${scenarios[@]}"
elif $record_ok; then
  r0=$SECONDS
  for f in "$top"/cassettes/*/*/*.jsonl; do
    "$tfwire" cassette redact "$f" "${f%.jsonl}.redacted.jsonl" 2>>"$top/logs/redact.log" \
      || echo "replay.sh: tfwire cassette redact $f failed: $(tail -1 "$top/logs/redact.log")" >&2
  done
  echo "replay.sh: timing: redact: $(find "$top/cassettes" -name '*.redacted.jsonl' | wc -l) cassettes in $((SECONDS - r0)) s" >&2
fi
if $record_ok && $replay_ok; then
  phase replay "$top/clients" "$top/replay.sh" "${scenarios[@]}"
  phase replay-redacted "$top/clients" "$top/replay-redacted.sh" "${scenarios[@]}"
fi

# The edited scenario, replayed from create's cassettes: must fail, with a clear error in the client's output.
for c in "${clients[@]}"; do
  if $record_ok && $replay_ok; then
    shard mismatch "$c" m "$top/clients" "$top/replay.sh" "$edited" || true
  fi
done

# The README's four commands, through dev_overrides instead of the mirror: tap/secrets recorded with
# `tap --record --redact`, then replayed from that cassette; readme/CLIENT/{recorded,replayed}.txt must be equal.
readme() {
  local c=$1 d=$top/readme/$1
  mkdir -p "$d/shim" "$d/w"
  cp "$here/tap/secrets/main.tf" "$d/w/"
  printf 'provider_installation {\n  dev_overrides {\n    "tfwire/tfwire" = "%s"\n  }\n  direct {}\n}\n' \
    "$d/shim" >"$d/bug.tfrc"
  (
    cd "$d/w"
    export TF_CLI_CONFIG_FILE=$d/bug.tfrc
    printf '#!/bin/sh\nexec %s tap --record %s/bug.jsonl --redact -- %s "$@"\n' "$tfwire" "$PWD" \
      "$bin/terraform-provider-tfwire" >"$d/shim/terraform-provider-tfwire"
    chmod +x "$d/shim/terraform-provider-tfwire" && "$bin/$c" plan -no-color -out=recorded.tfplan >>"$d/run.log" 2>&1
    "$bin/$c" show -no-color recorded.tfplan >"$d/recorded.txt" 2>>"$d/run.log"
    printf '#!/bin/sh\nexec %s replay %s/bug.jsonl "$@"\n' "$tfwire" "$PWD" >"$d/shim/terraform-provider-tfwire"
    chmod +x "$d/shim/terraform-provider-tfwire" && "$top/clients/$c" plan -no-color -out=replayed.tfplan >>"$d/run.log" 2>&1
    "$top/clients/$c" show -no-color replayed.tfplan >"$d/replayed.txt" 2>>"$d/run.log"
  ) || echo "replay.sh: $c: the README's commands failed: see $d/run.log" >&2
}
if $record_ok && $replay_ok; then
  for c in "${clients[@]}"; do readme "$c"; done
fi

# The timed plan: real providers and replay alternately (run.sh's "plan in" timing lines).
if $record_ok && $replay_ok; then
  for c in "${clients[@]}"; do
    for r in $(seq "$runs"); do
      shard "real-$r" "$c" t "$bin" "" "$big" || true
      shard "replay-$r" "$c" t "$top/clients" "$top/replay.sh" "$big" || true
    done
  done
fi

python3 - "$top" "$here" "$edited_path" "${#clients[@]}" "$record_ok" "$replay_ok" "${clients[@]}" <<'PY' || status=1
import base64, glob, json, os, re, statistics, sys
top, here, edited_path, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
record_ok, replay_ok = sys.argv[5] == "true", sys.argv[6] == "true"
clients = sys.argv[7:7 + n]
sys.path.insert(0, here)
import corpus  # noqa: E402  (the manifest's volatile fields: plan.txt's patterns)

sys.path.insert(0, os.path.join(here, "tap"))
from leaks import SECRETS  # noqa: E402
patterns = [re.compile(e["pattern"]) for e in corpus.VOLATILE if e["file"] == "plan.txt" and "pattern" in e]


def text(path):
    if not os.path.exists(path):
        return None
    t = open(path, encoding="utf-8").read()
    for p in patterns:
        t = p.sub(lambda m: "(volatile)", t)
    return t


def failed(mode, client):
    p = os.path.join(top, "failed", f"{mode}-{client}")
    return open(p).read().split() if os.path.exists(p) else []


scenarios = identical = identical_redacted = 0
problems = []
for c in clients:
    rec_dir = os.path.join(top, "out", "record", c)
    for name in sorted(failed("record", c)):
        problems.append(f"{c}: {name}: the recorded run failed (logs/record-{c}-*.log)")
    # Every provider process the record wrapper started must have appended its session.
    for mode, suffix in (("record", ".jsonl"), ("record-redacted", ".redacted.jsonl")):
        for d in sorted(glob.glob(os.path.join(top, "logs", mode, c, "*"))):
            name = os.path.basename(d)
            for t in sorted({os.path.basename(f).rsplit("-", 1)[0] for f in glob.glob(os.path.join(d, "*.err"))}):
                started = len(glob.glob(os.path.join(d, f"{t}-*.err")))
                f = os.path.join(top, "cassettes", c, name, t + suffix)
                sessions = sum('"tfwire_cassette"' in line for line in open(f)) if os.path.exists(f) else 0
                if sessions < started:
                    problems.append(f"{c}: {name}: {mode}: {started} {t} provider processes, {sessions} sessions "
                                    f"in {os.path.relpath(f, top)}")
    for d in sorted(glob.glob(os.path.join(rec_dir, "*", "plan.txt"))):
        name = os.path.basename(os.path.dirname(d))
        if name == "plan-2000":
            continue
        scenarios += 1
        want = text(d)
        for mode in ("replay", "replay-redacted") if replay_ok else ():
            got = text(os.path.join(top, "out", mode, c, name, "plan.txt"))
            if got == want:
                if mode == "replay":
                    identical += 1
                else:
                    identical_redacted += 1
            elif got is None:
                problems.append(f"{c}: {name}: {mode}: no plan (logs/{mode}-{c}-*.log, "
                                f"logs/{mode}/{c}/{name}/)")
            else:
                problems.append(f"{c}: {name}: {mode}: the plan differs from the recorded one")
    scenarios += len(failed("record", c))



def secrets_in(path):
    """How many times each secret occurs in a cassette: in its text, and in every string of it that is base64
    (the protobuf messages), decoded."""
    found = dict.fromkeys(SECRETS, 0)

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            blobs = [v.encode()]
            try:
                blobs.append(base64.b64decode(v + "=" * (-len(v) % 4), validate=True))
            except ValueError:
                pass
            for b in blobs:
                for s in SECRETS:
                    found[s] += b.count(s.encode())

    for line in open(path, encoding="utf-8"):
        walk(json.loads(line))
    return found


# Secrets: in no redacted cassette; and, so that the check is known to see them, each in the plain cassettes
# of tap/secrets and sensitive.
leaked = 0
for f in glob.glob(os.path.join(top, "cassettes", "*", "*", "*.redacted.jsonl")) + \
        glob.glob(os.path.join(top, "readme", "*", "w", "bug.jsonl")):
    for s, k in secrets_in(f).items():
        if k:
            leaked += k
            problems.append(f"{os.path.relpath(f, top)}: {k} x {s!r}")
for c in clients if record_ok else ():
    seen = dict.fromkeys(SECRETS, 0)
    for f in glob.glob(os.path.join(top, "cassettes", c, "secrets", "*.jsonl")) + \
            glob.glob(os.path.join(top, "cassettes", c, "sensitive", "*.jsonl")):
        if not f.endswith(".redacted.jsonl"):
            for s, k in secrets_in(f).items():
                seen[s] += k
    missing = [s for s, k in seen.items() if not k]
    if missing and os.path.isdir(os.path.join(top, "cassettes", c, "secrets")):
        problems.append(f"{c}: the plain cassettes of secrets and sensitive do not hold {missing}: "
                        "the leak check would not see them either")
if record_ok and not glob.glob(os.path.join(top, "cassettes", "*", "*", "*.redacted.jsonl")):
    problems.append("no redacted cassette was written")

# The edited scenario: the client's output must name the RPC, the resource type and the edited path.
clear = replay_ok
for c in clients if replay_ok else ():
    log = os.path.join(top, "work", f"{c}-m", c, "scenarios", "create", "run.log")
    out = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    flat = " ".join(out.split())  # the client wraps its diagnostics at spaces
    ok = "create" in failed("mismatch", c) and all(w in flat for w in (
        edited_path, '"tfwire_shapes"', 'expected "x"', 'found "edited"')) \
        and any(rpc in flat for rpc in ("ValidateResourceConfig", "PlanResourceChange"))
    print(f"replay.sh: {c}: the edited create replayed: "
          + ("failed as expected" if "create" in failed("mismatch", c) else "did NOT fail"), file=sys.stderr)
    m = re.search(r"tfwire replay: [^\n]*", "\n".join(" ".join(p.split()) for p in out.split("\n\n")))
    if m:
        print(f"  {m.group(0)}", file=sys.stderr)
    if not ok:
        problems.append(f"{c}: the edited create: no clear mismatch error naming {edited_path} in {log}")
        clear = False

# The timed plan: median "plan in" seconds, real and replayed; p99 of the replay's answer time when it reports it.
timing = {}
for c in clients:
    t = {"real": [], "replay": []}
    for kind in t:
        for log in glob.glob(os.path.join(top, "logs", f"{kind}-*-{c}-t.log")):
            for m in re.finditer(r"timing: \w+: plan-2000 plan in ([0-9.]+) s", open(log).read()):
                t[kind].append(float(m.group(1)))
    if t["real"] and t["replay"]:
        timing[c] = {k: round(statistics.median(v), 3) for k, v in t.items()}
        if timing[c]["replay"] > timing[c]["real"]:
            problems.append(f"{c}: the replayed 2,000-resource plan is slower than the real one: {t}")
    elif replay_ok:
        problems.append(f"{c}: the 2,000-resource plan was not timed both ways: {t}")
    else:
        continue
    for kind in ("real", "replay"):
        got = [text(p) for p in sorted(glob.glob(os.path.join(top, "out", f"{kind}-*", c, "plan-2000", "plan.txt")))]
        want = text(os.path.join(top, "out", "record", c, "plan-2000", "plan.txt"))
        if replay_ok and (not got or any(g != want for g in got)):
            problems.append(f"{c}: plan-2000: a {kind} plan is missing or differs from the recorded one")


# The README's commands: the plan replayed from the redacted cassette is the recorded one.
readme = replay_ok
for c in clients if replay_ok else ():
    a, b = (text(os.path.join(top, "readme", c, f)) for f in ("recorded.txt", "replayed.txt"))
    if a is None or a != b:
        problems.append(f"{c}: the README's commands: the replayed plan " + ("is missing" if b is None else "differs"))
        readme = False

# tfwire replay's summary line on standard error: {"summary": {"calls": N, ..., "answer_us": {"p99": x}}}. The
# median p99 of the processes that answered at least 500 calls (the 2,000-resource plans), as tap.sh does.
p99s = []
for f in glob.glob(os.path.join(top, "logs", "replay*", "*", "*", "*.err")):
    for line in open(f, encoding="utf-8", errors="replace"):
        if line.startswith('{"summary"'):
            try:
                summary = json.loads(line)["summary"]
                if summary["calls"] >= 500:
                    p99s.append(summary["answer_us"]["p99"])
            except (ValueError, KeyError, TypeError):
                problems.append(f"{os.path.relpath(f, top)}: a summary line that does not read: {line.strip()}")
result = {"scenarios": scenarios, "identical": identical, "identical_redacted": identical_redacted,
          "leaked_secrets": leaked, "mismatch_errors_clear": clear,
          "replay_p99_us": statistics.median(p99s) if p99s else None,
          "readme_identical": readme, "plan_2000_s": timing}
print(json.dumps(result))
if not (record_ok and replay_ok):
    problems.append("nothing replayed: this tfwire lacks tap --record or the replay command")
for p in problems:
    print(f"replay.sh: {p}", file=sys.stderr)
ok = (record_ok and replay_ok and scenarios > 0 and identical == scenarios and identical_redacted == scenarios
      and leaked == 0 and clear and readme and not problems)
sys.exit(0 if ok else 1)
PY
echo "replay.sh: timing: everything in $((SECONDS - t0)) s" >&2
exit "${status:-0}"
