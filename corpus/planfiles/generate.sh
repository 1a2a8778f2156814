#!/usr/bin/env bash
# Regenerates corpus/planfiles/<scenario>/{plan.tfplan,plan.json,schemas.json} with OpenTofu.
#
#   corpus/planfiles/generate.sh [SCENARIO...]     (default: every scenario)
#
# TOFU names the binary (default: tofu on PATH). Only OpenTofu's builtin provider
# (terraform_data) is used, so no plugin is downloaded. A scenario with a before/ directory
# is applied from it first, then planned with its own main.tf against that state; a
# plan.args file adds arguments to `tofu plan`, a prepare.sh runs (in the working directory)
# before planning. Timestamps and the working directory differ on every run; nothing else does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tofu=${TOFU:-tofu}
# An empty CLI configuration: no user settings, and no warning about a missing one (tofu
# prints it on standard output, into the JSON).
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null

scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    for d in "$here"/*/; do scenarios+=("$(basename "$d")"); done
fi

for s in "${scenarios[@]}"; do
    src=$here/$s
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    if [ -d "$src/before" ]; then
        cp -r "$src/before/." "$work/"
        (cd "$work" && "$tofu" init -input=false >/dev/null && "$tofu" apply -input=false -auto-approve -lock=false >/dev/null)
        find "$work" -maxdepth 1 -name '*.tf' -delete
    fi
    (cd "$src" && find . -path ./before -prune -o -type f \( -name '*.tf' -o -name '*.tfvars' \) -print) |
        while read -r f; do mkdir -p "$work/$(dirname "$f")"; cp "$src/$f" "$work/$f"; done
    args=()
    [ -f "$src/plan.args" ] && read -r -a args < "$src/plan.args"
    (
        cd "$work"
        "$tofu" init -input=false >/dev/null
        [ -f "$src/prepare.sh" ] && bash "$src/prepare.sh" "$tofu"
        "$tofu" plan -input=false -lock=false -out=plan.tfplan "${args[@]}" >/dev/null
        "$tofu" show -json plan.tfplan > plan.json
        "$tofu" providers schema -json > schemas.json
    )
    cp "$work/plan.tfplan" "$work/plan.json" "$work/schemas.json" "$src/"
    rm -rf "$work"
    trap - EXIT
    echo "$s: $(wc -c < "$src/plan.tfplan") bytes"
done
