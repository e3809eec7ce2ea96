#!/usr/bin/env bash
# The action's set-up: the repository's own (make setup installs the Debian packages), then a
# release build, the binary put on PATH for the steps after.
set -euo pipefail
cd "$GITHUB_ACTION_PATH"
if ! command -v make >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make >/dev/null
fi
make build
echo "$GITHUB_ACTION_PATH/.build/release" >>"$GITHUB_PATH"
