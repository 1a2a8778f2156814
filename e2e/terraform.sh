#!/usr/bin/env bash
# e2e/terraform.sh [BIN_DIR]
#
# Builds Terraform from source, as the second real-client oracle, into BIN_DIR/terraform (default e2e/bin/):
# github.com/hashicorp/terraform at $TERRAFORM_VERSION, fetched through the Go module proxy, copied to a writable
# build folder outside the repository (TFWIRE_TERRAFORM_BUILD, default ~/.cache/tfwire-e2e/terraform@VERSION;
# reused when it holds the same module), completed with stand-ins for the sub-modules its go.mod replaces with
# folders the module zip does not contain, and built with the release ldflags (`terraform version` prints the
# plain version, without `-dev`). Terraform is BUSL-1.1: built and run as a test oracle only, never committed.
# Prints the build time on stderr. Needs Go 1.26.4 or newer (Terraform's go.mod); run.sh checks for 1.26.8.
set -euo pipefail

TERRAFORM_MODULE=github.com/hashicorp/terraform
TERRAFORM_VERSION=v1.16.0
# The sub-modules Terraform's go.mod replaces with sub-folders (`replace … => ./internal/…`). The module zip holds
# none of them and the proxy serves none at this commit. Each backend stand-in's New() returns no backend: the
# harness uses the local backend only; naming one of these backends in a configuration makes Terraform fail.
STANDIN_BACKENDS="azure consul cos gcs kubernetes oci oss pg s3"
# Bumped when the stand-ins below change, so that an existing build folder is rewritten.
STANDIN_REVISION=1

here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/bin}
mkdir -p "$bin"
bin=$(cd "$bin" && pwd)

t0=$SECONDS
info=$(go mod download -json "$TERRAFORM_MODULE@$TERRAFORM_VERSION")
field() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$info" "$1"; }
moddir=$(field Dir)
modsum=$(field Sum)
[ -f "$moddir/go.mod" ] || { echo "terraform.sh: go mod download gave no module folder ($moddir)" >&2; exit 1; }

build=${TFWIRE_TERRAFORM_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/tfwire-e2e/terraform@$TERRAFORM_VERSION}
stamp="$TERRAFORM_MODULE@$TERRAFORM_VERSION $modsum stand-ins $STANDIN_REVISION"
if [ "$(cat "$build/.tfwire-build" 2>/dev/null)" != "$stamp" ]; then
  echo "terraform.sh: preparing $build from $moddir" >&2
  rm -rf "$build"
  mkdir -p "$(dirname "$build")"
  trap 'rm -rf "$build.tmp.$$"' EXIT
  cp -R "$moddir" "$build.tmp.$$"
  chmod -R u+w "$build.tmp.$$"
  for b in $STANDIN_BACKENDS; do
    d=$build.tmp.$$/internal/backend/remote-state/$b
    [ ! -e "$d" ] || { echo "terraform.sh: $d exists in the module: the stand-ins need revisiting" >&2; exit 1; }
    mkdir -p "$d"
    printf 'module %s/internal/backend/remote-state/%s\n\ngo 1.26\n' "$TERRAFORM_MODULE" "$b" >"$d/go.mod"
    cat >"$d/standin.go" <<GO
// Package $b stands in for Terraform's $b state backend, whose sub-module the module zip does not contain.
// Written by tfwire's e2e/terraform.sh: the harness uses the local backend only.
package $b

import "$TERRAFORM_MODULE/internal/backend"

// New returns no backend.
func New() backend.Backend { return nil }
GO
  done
  d=$build.tmp.$$/internal/legacy
  [ ! -e "$d" ] || { echo "terraform.sh: $d exists in the module: the stand-ins need revisiting" >&2; exit 1; }
  mkdir -p "$d"
  printf 'module %s/internal/legacy\n\ngo 1.26\n' "$TERRAFORM_MODULE" >"$d/go.mod"
  echo "$stamp" >"$build.tmp.$$/.tfwire-build"
  mv "$build.tmp.$$" "$build"
fi

echo "terraform.sh: building terraform $TERRAFORM_VERSION in $build" >&2
(cd "$build" && go build -buildvcs=false -trimpath \
  -ldflags "-X $TERRAFORM_MODULE/version.dev=no" -o "$bin/terraform" .)
# The version check reads no CLI configuration a machine may name (TF_CLI_CONFIG_FILE) and makes no network call.
got=$(TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 "$bin/terraform" version -json | python3 -c 'import json, sys; print(json.load(sys.stdin)["terraform_version"])')
[ "v$got" = "$TERRAFORM_VERSION" ] || { echo "terraform.sh: built terraform reports $got, not $TERRAFORM_VERSION" >&2; exit 1; }
echo "terraform.sh: terraform $got built in $((SECONDS - t0)) s" >&2
