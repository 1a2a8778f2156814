#!/usr/bin/env bash
# e2e/policy/run.sh TFWIRE_BIN [--client tofu|terraform|both] [--scenario NAME]... [--messages]
#
# conftest (the Rego policies of rego/) and checkov (the checks of checkov/) on the real client's `show -json` of
# each chosen scenario's plan file (the committed plan.json of corpus/real-client and corpus/real-client-terraform)
# and on `TFWIRE_BIN show -json plan.tfplan --schemas schemas.json`: the verdicts (every policy's pass or fail and
# its messages) must be the same. Prints a table; exits 1 on any difference. The tools are pinned and installed
# by install.sh (cached). See README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ] || [ "${1#-}" != "$1" ]; then
  sed -n 2,8p "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
tfwire=$1
shift
[ -x "$tfwire" ] || { echo "run.sh: $tfwire is not an executable (build it: cargo build --release -p tfwire-cli)" >&2; exit 2; }
tools=$(bash "$here/install.sh")
CONFTEST=$(printf '%s\n' "$tools" | sed -n 's/^CONFTEST=//p')
CHECKOV=$(printf '%s\n' "$tools" | sed -n 's/^CHECKOV=//p')
t0=$SECONDS
python3 "$here/verdicts.py" "$tfwire" --conftest "$CONFTEST" --checkov "$CHECKOV" "$@"
echo "policy: timing: verdicts in $((SECONDS - t0)) s" >&2
