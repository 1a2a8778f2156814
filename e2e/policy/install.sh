#!/usr/bin/env bash
# e2e/policy/install.sh: the pinned policy tools, built or installed once and reused.
#
#   conftest  CONFTEST_VERSION, `go install github.com/open-policy-agent/conftest@VERSION` through the Go module proxy
#             into e2e/bin/conftest (git-ignored), rebuilt when `go version -m` finds another module version in it (a
#             `go install` build reports "Conftest: dev" to `conftest --version`; OPA is v1.21.1, its go.mod's).
#   checkov   CHECKOV_VERSION, `pip install` into a virtual environment TFWIRE_CHECKOV_VENV (default
#             ~/.cache/tfwire-e2e/checkov-VERSION), every dependency pinned by checkov-constraints.txt; made again
#             when its `checkov --version` differs.
#
# Prints each build's or install's time ("policy: timing: ..."), and the tools' paths on its last two lines as
# CONFTEST=... and CHECKOV=..., which run.sh reads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
e2e=$(dirname "$here")

CONFTEST_VERSION=v0.71.1
CHECKOV_VERSION=3.3.30

bin=$e2e/bin
mkdir -p "$bin"
conftest=$bin/conftest
# Go 1.26.8 or newer, as e2e/run.sh: the current Go may be in /usr/local/go/bin behind an older one.
if [ -x /usr/local/go/bin/go ]; then export PATH=/usr/local/go/bin:$PATH; fi
if [ -x "$conftest" ] && go version -m "$conftest" 2>/dev/null \
    | grep -q "^[[:space:]]*mod[[:space:]]*github.com/open-policy-agent/conftest[[:space:]]*$CONFTEST_VERSION[[:space:]]"; then
  echo "policy: conftest $CONFTEST_VERSION already built" >&2
else
  t0=$SECONDS
  echo "policy: building conftest $CONFTEST_VERSION ($(go version))" >&2
  GOBIN=$bin go install "github.com/open-policy-agent/conftest@$CONFTEST_VERSION"
  echo "policy: timing: conftest $CONFTEST_VERSION built in $((SECONDS - t0)) s" >&2
fi

venv=${TFWIRE_CHECKOV_VENV:-$HOME/.cache/tfwire-e2e/checkov-$CHECKOV_VERSION}
checkov=$venv/bin/checkov
if [ -x "$checkov" ] && [ "$("$checkov" --version 2>/dev/null)" = "$CHECKOV_VERSION" ]; then
  echo "policy: checkov $CHECKOV_VERSION already installed in $venv" >&2
else
  t0=$SECONDS
  echo "policy: installing checkov $CHECKOV_VERSION into $venv ($(python3 --version))" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -c "$here/checkov-constraints.txt" "checkov==$CHECKOV_VERSION"
  echo "policy: timing: checkov $CHECKOV_VERSION installed in $((SECONDS - t0)) s" >&2
fi
echo "CONFTEST=$conftest"
echo "CHECKOV=$checkov"
