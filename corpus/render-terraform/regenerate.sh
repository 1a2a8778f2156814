#!/bin/sh
# Regenerates the oracle files of every scenario here (or of the scenarios named as
# arguments) with Terraform: plan.json, plan.txt, plan.color.txt and schemas.json; and, where
# before.tf is applied first, the state it leaves (terraform.tfstate) and `terraform state
# show` of each of its addresses (state-show.txt, in `terraform state list` order, a blank
# line between two).
#
#   TERRAFORM=/path/to/terraform ./regenerate.sh [SCENARIO...]
#
# A scenario directory holds main.tf (the configuration that is planned) and optionally:
#   before.tf   applied first, so that main.tf's plan has prior state;
#   taint       an address to `terraform taint` after that apply;
#   plan-args   extra `terraform plan` arguments (e.g. -destroy, -refresh-only, -replace=ADDR);
#   files/      copied into the working directory first (objects a provider imports).
# Nothing is downloaded: most scenarios use only the builtin provider; those whose main.tf
# requires tfwire/tfwire (the actions ones) need PROVIDER_MIRROR, a filesystem mirror holding
# this project's test provider (e2e/provider) under registry.terraform.io/tfwire/tfwire/1.0.0.
set -eu
TERRAFORM=${TERRAFORM:-terraform}
here=$(cd "$(dirname "$0")" && pwd)
cfg=$(mktemp)
if [ -n "${PROVIDER_MIRROR:-}" ]; then
    printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' "$PROVIDER_MIRROR" > "$cfg"
fi
export TF_CLI_CONFIG_FILE="$cfg" CHECKPOINT_DISABLE=1
[ $# -gt 0 ] || set -- $(cd "$here" && for d in */; do [ -f "$d/main.tf" ] && echo "${d%/}"; done)
for s in "$@"; do
    src="$here/$s"
    work=$(mktemp -d)
    cd "$work"
    if [ -d "$src/files" ]; then cp -R "$src/files/." .; fi
    if [ -f "$src/before.tf" ]; then
        cp "$src/before.tf" main.tf
        "$TERRAFORM" init -no-color -input=false >/dev/null
        "$TERRAFORM" apply -no-color -input=false -auto-approve -lock=false >/dev/null
        if [ -f "$src/taint" ]; then "$TERRAFORM" taint -no-color -lock=false "$(cat "$src/taint")" >/dev/null; fi
        cp terraform.tfstate "$src/terraform.tfstate"
        first=1
        : > "$src/state-show.txt"
        for a in $("$TERRAFORM" state list -no-color); do
            [ $first = 1 ] || echo >> "$src/state-show.txt"
            first=0
            "$TERRAFORM" state show -no-color "$a" >> "$src/state-show.txt"
        done
    fi
    cp "$src/main.tf" main.tf
    "$TERRAFORM" init -no-color -input=false >/dev/null
    # shellcheck disable=SC2046
    "$TERRAFORM" plan -no-color -input=false -lock=false -out p.tfplan $( [ -f "$src/plan-args" ] && cat "$src/plan-args" ) >/dev/null
    "$TERRAFORM" show -no-color p.tfplan > "$src/plan.txt"
    "$TERRAFORM" show p.tfplan > "$src/plan.color.txt"
    "$TERRAFORM" show -json p.tfplan > "$src/plan.json"
    "$TERRAFORM" providers schema -json > "$src/schemas.json"
    cd "$here"
    rm -rf "$work"
    echo "$s"
done
rm -f "$cfg"
