#!/usr/bin/env bash
# e2e/run.sh [--client tofu|terraform|both] [--scenario DIR]... [--out DIR] [--out-terraform DIR]
#            [--bin DIR] [--wrap SCRIPT] [--plan-only]
#
# Builds the real clients (OpenTofu, and Terraform through e2e/terraform.sh) and the providers from source (Go's
# caches make repeated builds quick), installs the providers into a local filesystem mirror, runs each scenario
# (default: every directory of e2e/scenarios/) through each client (default both; a scenario.json "clients" list
# restricts a scenario) and writes what the client produced to OUT/<scenario>/: OpenTofu's to --out (default
# corpus/real-client), Terraform's to --out-terraform (default: the --out directory's path with "-terraform"
# appended, so corpus/real-client-terraform). Layouts: corpus/real-client/README.md and
# corpus/real-client-terraform/README.md; scenario conventions: e2e/README.md.
# --bin DIR: build nothing, take the clients (and the providers, unless --wrap ignores them) from DIR.
# --wrap SCRIPT: the mirror holds, for each provider, a script running `SCRIPT TYPE BINARY ENTRY ARGS...` instead
#   of the provider (ENTRY: that script's path in the mirror, which says the provider's address and version;
#   e2e/replay.sh: tfwire tap --record, tfwire replay); TFWIRE_E2E_CLIENT and TFWIRE_E2E_SCENARIO tell SCRIPT
#   where it runs. A step's after.sh that fails is then reported, not fatal (a replayed provider makes
#   no files for it to edit).
# --plan-only: the steps and the plan, then only OUT/<scenario>/plan.txt (show -no-color) and the plan's wall
#   time on standard error; no proto capture, no apply, no manifest.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$root/corpus/real-client
out_terraform=
client=both
scenarios=()
bin=
wrap=
plan_only=false
usage="usage: run.sh [--client tofu|terraform|both] [--scenario DIR]... [--out DIR] [--out-terraform DIR] [--bin DIR] [--wrap SCRIPT] [--plan-only]"
while [ $# -gt 0 ]; do
  case $1 in
    --client)   [ $# -ge 2 ] || { echo "run.sh: --client needs tofu, terraform or both" >&2; exit 2; }
                case $2 in tofu|terraform|both) client=$2 ;;
                  *) echo "run.sh: --client $2: expected tofu, terraform or both" >&2; exit 2 ;; esac
                shift 2 ;;
    --scenario) [ $# -ge 2 ] || { echo "run.sh: --scenario needs a directory" >&2; exit 2; }
                scenarios+=("$(cd "$2" && pwd)"); shift 2 ;;
    --out)      [ $# -ge 2 ] || { echo "run.sh: --out needs a directory" >&2; exit 2; }
                mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --out-terraform)
                [ $# -ge 2 ] || { echo "run.sh: --out-terraform needs a directory" >&2; exit 2; }
                mkdir -p "$2"; out_terraform=$(cd "$2" && pwd); shift 2 ;;
    --bin)      [ $# -ge 2 ] || { echo "run.sh: --bin needs a directory" >&2; exit 2; }
                bin=$(cd "$2" && pwd); shift 2 ;;
    --wrap)     [ $# -ge 2 ] && [ -x "$2" ] || { echo "run.sh: --wrap needs an executable script" >&2; exit 2; }
                wrap=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --plan-only) plan_only=true; shift ;;
    -h|--help)  sed -n 2,18p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *)          echo "run.sh: unknown argument $1 ($usage)" >&2; exit 2 ;;
  esac
done
out_terraform=${out_terraform:-$out-terraform}
case $client in
  both) clients=(tofu terraform) ;;
  *)    clients=("$client") ;;
esac
if [ ${#scenarios[@]} -eq 0 ]; then
  for d in "$here"/scenarios/*/; do scenarios+=("${d%/}"); done
fi

# runs_on SCENARIO_DIR CLIENT: whether the scenario runs through the client (scenario.json "clients", default
# both); when it does not, prints the recorded reason ("clients_why") and returns 3.
runs_on() {
  python3 - "$1/scenario.json" "$2" <<'PY'
import json, os, sys
path, client = sys.argv[1], sys.argv[2]
cfg = json.load(open(path)) if os.path.exists(path) else {}
clients = cfg.get("clients", ["tofu", "terraform"])
if not clients or any(c not in ("tofu", "terraform") for c in clients):
    sys.exit(f"run.sh: {path}: \"clients\" must list tofu and/or terraform, found {clients}")
if client not in clients:
    why = cfg.get("clients_why")
    if not why:
        sys.exit(f"run.sh: {path}: \"clients\" leaves out {client} without a \"clients_why\"")
    print(why)
    sys.exit(3)
PY
}

for d in "${scenarios[@]}"; do
  [ -f "$d/main.tf" ] || { echo "run.sh: $d has no main.tf" >&2; exit 2; }
  rc=0; runs_on "$d" tofu >/dev/null || rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 3 ] || exit 2
done

# Versions: the providers' versions are those of the modules in e2e/provider/go.mod and e2e/local/go.mod.
TOFU_LDFLAGS="-X github.com/opentofu/opentofu/version.dev=no"
TFWIRE_VERSION=1.0.0
TIME_VERSION=0.14.2
LOCAL_VERSION=1.4.0

# Go 1.26.8 or newer (e2e/provider/go.mod asks for it, as the time provider does). A machine may have an older Go
# first on a bare PATH (/usr/bin/go) and the current one in /usr/local/go/bin: take the first that is new enough.
go_new_enough() {
  "$1" env GOVERSION 2>/dev/null | awk -F'[go.]' '{ exit !($3 > 1 || ($3 == 1 && ($4 > 26 || ($4 == 26 && $5 >= 8)))) }'
}
if ! go_new_enough go; then
  if go_new_enough /usr/local/go/bin/go; then
    export PATH=/usr/local/go/bin:$PATH
  else
    echo "run.sh: needs Go 1.26.8 or newer; found: $(go version 2>&1)" >&2
    exit 1
  fi
fi

t0=$SECONDS
wants() { [[ " ${clients[*]} " == *" $1 "* ]]; }
if [ -n "$bin" ]; then
  for c in "${clients[@]}"; do
    [ -x "$bin/$c" ] || { echo "run.sh: --bin $bin has no $c" >&2; exit 2; }
  done
else
  bin=$here/bin
  mkdir -p "$bin"
  if wants tofu; then
    b0=$SECONDS
    echo "run.sh: building OpenTofu" >&2
    (cd "$here" && go build -ldflags "$TOFU_LDFLAGS" -o "$bin/tofu" github.com/opentofu/opentofu/cmd/tofu)
    echo "run.sh: timing: OpenTofu built in $((SECONDS - b0)) s" >&2
  fi
  if wants terraform; then
    b0=$SECONDS
    bash "$here/terraform.sh" "$bin"
    echo "run.sh: timing: Terraform built in $((SECONDS - b0)) s" >&2
  fi
  b0=$SECONDS
  echo "run.sh: building the providers" >&2
  (cd "$here/provider" && go build -o "$bin/terraform-provider-tfwire" . \
    && go build -o "$bin/terraform-provider-time" github.com/hashicorp/terraform-provider-time)
  (cd "$here/local" && go build -o "$bin/terraform-provider-local" github.com/terraform-providers/terraform-provider-local)
  echo "run.sh: timing: providers built in $((SECONDS - b0)) s" >&2
fi

# Fixed directories: paths may show in outputs, so they do not depend on the checkout or a random temp name.
work=${TFWIRE_E2E_WORK:-/tmp/tfwire-e2e}
rm -rf "$work/mirror" "$work/scenarios" "$work/proto" "$work/tofu.rc" "$work/cli.rc" "$work/tofu" "$work/terraform"
mkdir -p "$work"
platform=$(go env GOOS)_$(go env GOARCH)
mirror=$work/mirror
# Each client's default provider host: a source address "hashicorp/time" means <host>/hashicorp/time, so the
# mirror holds the same binaries under both hosts and serves both clients.
host_of() { case $1 in tofu) echo registry.opentofu.org ;; terraform) echo registry.terraform.io ;; esac; }
install() { # install NAMESPACE TYPE VERSION BINARY
  local c d
  for c in tofu terraform; do
    d=$mirror/$(host_of $c)/$1/$2/$3/$platform
    mkdir -p "$d"
    if [ -n "$wrap" ]; then
      printf '#!/bin/sh\nexec "%s" %s "%s" "$0" "$@"\n' "$wrap" "$2" "$bin/$4" >"$d/terraform-provider-${2}_v$3"
      chmod +x "$d/terraform-provider-${2}_v$3"
    else
      cp "$bin/$4" "$d/terraform-provider-${2}_v$3"
    fi
  done
}
install tfwire tfwire "$TFWIRE_VERSION" terraform-provider-tfwire
install hashicorp time "$TIME_VERSION" terraform-provider-time
install hashicorp local "$LOCAL_VERSION" terraform-provider-local
cat > "$work/cli.rc" <<RC
provider_installation {
  filesystem_mirror {
    path = "$mirror"
  }
}
disable_checkpoint = true
RC

export TF_CLI_CONFIG_FILE=$work/cli.rc CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0 TZ=UTC
unset TF_LOG TF_LOG_PATH TF_LOG_PROVIDER TF_LOG_CORE TF_LOG_SDK_PROTO_DATA_DIR TF_DATA_DIR TF_WORKSPACE
unset TF_CLI_ARGS TF_CLI_ARGS_init TF_CLI_ARGS_plan TF_CLI_ARGS_apply TF_CLI_ARGS_show TF_PLUGIN_CACHE_DIR

# json_get FILE KEY DEFAULT: a top-level value of a small JSON file (scenario.json, step.json), as shell words.
json_get() {
  python3 - "$@" <<'PY'
import json, os, shlex, sys
path, key, default = sys.argv[1], sys.argv[2], sys.argv[3]
v = json.load(open(path)).get(key, json.loads(default)) if os.path.exists(path) else json.loads(default)
print(" ".join(shlex.quote(str(x)) for x in v) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else v)
PY
}

# tf PHASE LOG ARGS...: runs the client in the current directory with the proto phase set; output appended to LOG.
tf() {
  local phase=$1 log=$2
  shift 2
  echo "\$ $cname $*" >>"$log"
  TFWIRE_PROTO_PHASE=$phase "$cbin" "$@" >>"$log" 2>&1
}

fail() {
  echo "run.sh: $cname: $name: $*" >&2
  echo "--- last lines of $wd/run.log:" >&2
  tail -30 "$wd/run.log" >&2
  exit 1
}

# run_client CLIENT OUT: every scenario through one client, written to OUT/<scenario>/, then OUT/MANIFEST.json.
run_client() {
  cname=$1
  local out=$2 c0=$SECONDS p0 p1 host src dest cfg capture log step sname args expect rc applied f why
  local ran=() skipped=()
  cbin=$bin/$cname
  host=$(host_of "$cname")
  for src in "${scenarios[@]}"; do
    name=$(basename "$src")
    dest=$out/$name
    rc=0; why=$(runs_on "$src" "$cname") || rc=$?
    if [ $rc -eq 3 ]; then
      echo "run.sh: $cname: $name skipped: $why" >&2
      rm -rf "$dest"
      skipped+=(--skip "$name")
      continue
    elif [ $rc -ne 0 ]; then
      exit 2
    fi
    ran+=("$src")
    s0=$SECONDS
    wd=$work/$cname/scenarios/$name
    mkdir -p "$wd"
    (cd "$src" && tar --exclude=./steps --exclude=./.terraform --exclude='./*.tfstate*' --exclude=./.terraform.lock.hcl -cf - .) | (cd "$wd" && tar -xf -)
    cfg=$src/scenario.json
    capture=$(json_get "$cfg" capture_proto true)
    export TFWIRE_PROTO_DATA_DIR= TFWIRE_E2E_CLIENT=$cname TFWIRE_E2E_SCENARIO=$name
    if [ "$capture" = true ] && [ "$plan_only" = false ]; then export TFWIRE_PROTO_DATA_DIR=$work/$cname/proto/$name; fi
    log=$wd/run.log
    : >"$log"
    cd "$wd"

    # Earlier steps: each steps/NN/ directory, in order, replaces the top-level .tf files (when it has any), is
    # applied, and may then run its after.sh (e.g. to change something outside the client).
    if [ -d "$src/steps" ]; then
      for step in "$src"/steps/*/; do
        step=${step%/}
        sname=step-$(basename "$step")
        if compgen -G "$step/*.tf" >/dev/null; then
          rm -f "$wd"/*.tf
          cp "$step"/*.tf "$wd/"
        fi
        tf "$sname" "$log" init -input=false -no-color -lock=false || fail "init failed in $sname"
        eval "args=($(json_get "$step/step.json" apply_args '[]'))"
        expect=$(json_get "$step/step.json" expect_failure false)
        rc=0; tf "$sname" "$log" apply -input=false -no-color -lock=false -auto-approve "${args[@]}" || rc=$?
        if [ "$expect" = true ] && [ $rc -eq 0 ]; then fail "$sname: apply succeeded but step.json expects it to fail"; fi
        if [ "$expect" != true ] && [ $rc -ne 0 ]; then fail "$sname: apply failed"; fi
        if [ -f "$step/after.sh" ]; then
          echo "\$ bash $step/after.sh" >>"$log"
          rc=0
          TFWIRE_CLIENT=$cbin TFWIRE_CLIENT_NAME=$cname TFWIRE_PROTO_PHASE=$sname bash "$step/after.sh" >>"$log" 2>&1 \
            || rc=$?
          if [ $rc -ne 0 ] && [ -z "$wrap" ]; then fail "$sname: after.sh failed"; fi
          if [ $rc -ne 0 ]; then echo "run.sh: $cname: $name: $sname: after.sh failed (exit $rc; --wrap: not fatal)" >&2; fi
        fi
      done
      rm -f "$wd"/*.tf
      cp "$src"/*.tf "$wd/"
    fi

    # The captured step: plan into a planfile, show it both ways, then apply it when the scenario says so.
    tf init "$log" init -input=false -no-color -lock=false || fail "init failed"
    eval "args=($(json_get "$cfg" plan_args '[]'))"
    p0=$(date +%s.%N)
    tf plan "$log" plan -input=false -no-color -lock=false -out=plan.tfplan "${args[@]}" || fail "plan failed"
    p1=$(date +%s.%N)
    if [ "$plan_only" = true ]; then
      "$cbin" show -no-color plan.tfplan >plan.txt 2>>"$log" || fail "show plan.tfplan failed"
      rm -rf "$dest"
      mkdir -p "$dest"
      cp plan.txt "$dest/plan.txt"
      cd "$root"
      echo "run.sh: timing: $cname: $name plan in $(awk -v a="$p0" -v b="$p1" 'BEGIN { printf "%.3f", b - a }') s" >&2
      echo "run.sh: $cname: $name done in $((SECONDS - s0)) s" >&2
      continue
    fi
    "$cbin" show -json plan.tfplan >plan.json 2>>"$log" || fail "show -json plan.tfplan failed"
    "$cbin" show -no-color plan.tfplan >plan.txt 2>>"$log" || fail "show plan.tfplan failed"
    "$cbin" providers schema -json >schemas.json 2>>"$log" || fail "providers schema failed"
    applied=$(json_get "$cfg" apply true)
    expect=$(json_get "$cfg" expect_apply_failure false)
    rm -f state.json
    if [ "$applied" = true ]; then
      rc=0; tf apply "$log" apply -input=false -no-color -lock=false plan.tfplan || rc=$?
      if [ "$expect" = true ] && [ $rc -eq 0 ]; then fail "apply succeeded but scenario.json expects it to fail"; fi
      if [ "$expect" != true ] && [ $rc -ne 0 ]; then fail "apply failed"; fi
      "$cbin" show -json >state.json 2>>"$log" || fail "show -json failed"
    fi
    # A query (scenario.json "query_args", a list: its presence runs it): the client's list blocks of the
    # *.tfquery.hcl files, as text (query.txt), then as a JSON stream with the arguments (query.json; last, as
    # -generate-config-out writes a configuration file).
    rm -f query.json query.txt
    if [ "$(json_get "$cfg" query_args null)" != None ]; then
      eval "args=($(json_get "$cfg" query_args '[]'))"
      echo "\$ $cname query -no-color" >>"$log"
      TFWIRE_PROTO_PHASE=query "$cbin" query -no-color >query.txt 2>>"$log" || fail "query failed"
      echo "\$ $cname query -no-color -json ${args[*]}" >>"$log"
      TFWIRE_PROTO_PHASE=query "$cbin" query -no-color -json "${args[@]}" >query.json 2>>"$log" \
        || fail "query -json failed"
    fi
    rm -f state-list.txt state-show.txt
    if [ -f terraform.tfstate ]; then
      "$cbin" state list >state-list.txt 2>>"$log" || fail "state list failed"
      # Every listed instance as the client's `state show` draws it, each followed by a blank line.
      : >state-show.txt
      while IFS= read -r addr; do
        "$cbin" state show -no-color "$addr" >>state-show.txt 2>>"$log" || fail "state show $addr failed"
        echo >>state-show.txt
      done <state-list.txt
    fi

    # Copy out: the scenario's own files, then what the client produced.
    rm -rf "$dest"
    mkdir -p "$dest"
    (cd "$src" && tar --exclude=./.terraform --exclude='./*.tfstate*' --exclude=./.terraform.lock.hcl -cf - .) | (cd "$dest" && tar -xf -)
    for f in plan.tfplan plan.json plan.txt schemas.json state.json terraform.tfstate state-list.txt state-show.txt \
      query.json query.txt; do
      if [ -f "$f" ]; then cp "$f" "$dest/$f"; fi
    done
    # Files the scenario's resources or actions wrote in the working directory (scenario.json "collect": paths
    # relative to it, files or directories) go to files/.
    eval "args=($(json_get "$cfg" collect '[]'))"
    for f in "${args[@]}"; do
      [ -e "$f" ] || fail "collect: $f was not written"
      mkdir -p "$dest/files/$(dirname "$f")"
      cp -r "$f" "$dest/files/$f"
    done
    if [ -n "$TFWIRE_PROTO_DATA_DIR" ] && [ -d "$TFWIRE_PROTO_DATA_DIR" ]; then
      python3 "$here/corpus.py" proto "$TFWIRE_PROTO_DATA_DIR" "$dest/proto" "$host/tfwire/tfwire" \
        || fail "collecting proto/ failed"
    fi
    cd "$root"
    echo "run.sh: $cname: $name done in $((SECONDS - s0)) s" >&2
  done
  if [ "$plan_only" = false ]; then
    python3 "$here/corpus.py" manifest "$out" "$here" "$cname" "${skipped[@]}" "${ran[@]}"
  fi
  echo "run.sh: timing: $cname: ${#ran[@]} scenarios ($((${#skipped[@]} / 2)) skipped) written to $out in $((SECONDS - c0)) s" >&2
}

for c in "${clients[@]}"; do
  case $c in
    tofu)      run_client tofu "$out" ;;
    terraform) run_client terraform "$out_terraform" ;;
  esac
done
echo "run.sh: timing: everything in $((SECONDS - t0)) s" >&2
