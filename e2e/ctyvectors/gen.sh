#!/bin/sh
# Regenerates corpus/conformance/vectors-cty118.jsonl with go-cty as OpenTofu
# ships it (the version this module's go.mod pins; OpenTofu v1.12.6 requires
# github.com/zclconf/go-cty v1.18.0).
#
#   e2e/ctyvectors/gen.sh            rewrite the committed file
#   e2e/ctyvectors/gen.sh --check    regenerate into a temporary file and fail
#                                    (exit 1) if it differs from the committed one
#   e2e/ctyvectors/gen.sh --replay   decode the inputs of the older vector files
#                                    (go-cty 1.12.1 / 1.16.4) with this go-cty and
#                                    list every result that differs (a report only)
#
# Needs Go (>= 1.25, as go-cty 1.18 declares) and the Go module proxy (or a
# warm module cache). Deterministic: the same seed and go-cty give the same bytes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
file="$root/corpus/conformance/vectors-cty118.jsonl"
seed=118
count=1500

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS=-mod=readonly go build -trimpath -o "$tmp/ctyvectors" .)

case "${1:-}" in
--check)
	"$tmp/ctyvectors" -seed "$seed" -count "$count" -out "$tmp/vectors.jsonl"
	if cmp -s "$tmp/vectors.jsonl" "$file"; then
		echo "gen.sh: $file is up to date"
	else
		echo "gen.sh: $file differs from what go-cty writes now" >&2
		exit 1
	fi
	;;
--replay)
	"$tmp/ctyvectors" -replay "$root/corpus/conformance"
	;;
"")
	"$tmp/ctyvectors" -seed "$seed" -count "$count" -out "$file"
	;;
*)
	echo "usage: $0 [--check | --replay]" >&2
	exit 2
	;;
esac
