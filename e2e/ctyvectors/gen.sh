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
#   e2e/ctyvectors/gen.sh --cty VERSION --check|--replay
#                                    the same with another go-cty (a copy of this
#                                    module requiring VERSION, built in a temporary
#                                    folder): Terraform v1.16.0 pins v1.18.1, and
#                                    --check says whether it writes the committed bytes
#
# Needs Go (>= 1.25, as go-cty 1.18 declares) and the Go module proxy (or a
# warm module cache). Deterministic: the same seed and go-cty give the same bytes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
file="$root/corpus/conformance/vectors-cty118.jsonl"
seed=118
count=1500

cty=
if [ "${1:-}" = --cty ]; then
	[ $# -ge 3 ] || { echo "usage: $0 --cty VERSION --check|--replay" >&2; exit 2; }
	cty=$2
	shift 2
	case "$1" in --check | --replay) ;; *)
		echo "gen.sh: --cty goes with --check or --replay (the committed file is OpenTofu's go-cty's)" >&2
		exit 2
		;;
	esac
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$cty" ]; then
	# A copy of this module requiring that go-cty; go.sum is completed through the
	# module proxy and its checksum database, as `go get` would.
	mkdir "$tmp/src"
	cp "$here"/*.go "$here/go.mod" "$here/go.sum" "$tmp/src/"
	(cd "$tmp/src" && go mod edit -require="github.com/zclconf/go-cty@$cty" \
		&& GOFLAGS=-mod=mod go build -trimpath -o "$tmp/ctyvectors" .)
else
	(cd "$here" && GOFLAGS=-mod=readonly go build -trimpath -o "$tmp/ctyvectors" .)
fi

case "${1:-}" in
--check)
	"$tmp/ctyvectors" -seed "$seed" -count "$count" -out "$tmp/vectors.jsonl"
	if cmp -s "$tmp/vectors.jsonl" "$file"; then
		echo "gen.sh: $file is up to date${cty:+ (go-cty $cty writes the same bytes)}"
	else
		echo "gen.sh: $file differs from what go-cty ${cty:-of go.mod} writes now" >&2
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
