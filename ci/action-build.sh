#!/usr/bin/env bash
# The action's set-up: the repository's own (make setup installs the Debian packages), then a
# release build, the binary put on PATH for the steps after.
set -euo pipefail
cd "$GITHUB_ACTION_PATH"
# make, and fc-list for the cache key (the container may have neither).
if ! command -v make >/dev/null || ! command -v fc-list >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make fontconfig >/dev/null
fi
make build
echo "$GITHUB_ACTION_PATH/.build/release" >>"$GITHUB_PATH"
