#!/bin/sh
# Regenerates crates/tfwire-json/src/unicode_tables.rs: the code points Go's %q writes as
# they are (strconv.IsPrint of the Go running this, which builds the clients) and HCL's
# identifier tables (hclsyntax.ValidIdentifier of the HCL module e2e/go.mod resolves,
# OpenTofu's). See main.go.
#
#   e2e/unicodetables/gen.sh            rewrite the committed file
#   e2e/unicodetables/gen.sh --check    regenerate into a temporary file and fail (exit 1)
#                                       if it differs from the committed one
#
# Needs Go and e2e/go.mod's modules (the module cache e2e/run.sh fills). About 2 s warm.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
file="$root/crates/tfwire-json/src/unicode_tables.rs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root/e2e" && GOFLAGS=-mod=readonly go run ./unicodetables -out "$tmp/unicode_tables.rs")
case "${1:-}" in
--check)
	if cmp -s "$tmp/unicode_tables.rs" "$file"; then
		echo "gen.sh: $file is up to date ($(go env GOVERSION))"
	else
		echo "gen.sh: $file differs from what $(go env GOVERSION) and e2e/go.mod's HCL give now" >&2
		diff "$file" "$tmp/unicode_tables.rs" | head -20 >&2 || true
		exit 1
	fi
	;;
"")
	cp "$tmp/unicode_tables.rs" "$file"
	echo "gen.sh: wrote $file"
	;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac
