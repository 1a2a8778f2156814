#!/bin/sh
# Regenerates the oracle files of every scenario here (or of the scenarios named as
# arguments) with OpenTofu: plan.json, plan.txt, plan.color.txt and schemas.json.
#
#   TOFU=/path/to/tofu ./regenerate.sh [SCENARIO...]
#
# A scenario directory holds main.tf (the configuration that is planned) and optionally:
#   before.tf   applied first (with its modules), so that main.tf's plan has prior state;
#   taint       an address to `tofu taint` after that apply;
#   plan-args   extra `tofu plan` arguments (e.g. -destroy, -refresh-only, -replace=ADDR).
# Subdirectories (modules) are copied along. Nothing but the builtin provider is used, so no
# plugins are downloaded.
set -eu
TOFU=${TOFU:-tofu}
here=$(cd "$(dirname "$0")" && pwd)
cfg=$(mktemp)
export TF_CLI_CONFIG_FILE="$cfg" CHECKPOINT_DISABLE=1
[ $# -gt 0 ] || set -- $(cd "$here" && for d in */; do [ -f "$d/main.tf" ] && echo "${d%/}"; done)
for s in "$@"; do
    src="$here/$s"
    work=$(mktemp -d)
    (cd "$src" && find . -mindepth 1 -type d | while read -r d; do mkdir -p "$work/$d"; cp "$d"/*.tf "$work/$d/"; done)
    cd "$work"
    if [ -f "$src/before.tf" ]; then
        cp "$src/before.tf" main.tf
        "$TOFU" init -no-color -input=false >/dev/null
        "$TOFU" apply -no-color -input=false -auto-approve -lock=false >/dev/null
        if [ -f "$src/taint" ]; then "$TOFU" taint -no-color -lock=false "$(cat "$src/taint")" >/dev/null; fi
    fi
    cp "$src/main.tf" main.tf
    "$TOFU" init -no-color -input=false >/dev/null
    # shellcheck disable=SC2046
    "$TOFU" plan -no-color -input=false -lock=false -out p.tfplan $( [ -f "$src/plan-args" ] && cat "$src/plan-args" ) >/dev/null
    "$TOFU" show -no-color p.tfplan > "$src/plan.txt"
    "$TOFU" show p.tfplan > "$src/plan.color.txt"
    "$TOFU" show -json p.tfplan > "$src/plan.json"
    "$TOFU" providers schema -json > "$src/schemas.json"
    cd "$here"
    rm -rf "$work"
    echo "$s"
done
rm -f "$cfg"
