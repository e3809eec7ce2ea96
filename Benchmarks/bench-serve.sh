#!/usr/bin/env bash
# make bench-serve: `fonti-batch serve` under the load of open pages, over HTTP.
#
#   Benchmarks/bench-serve.sh BINARY
#
# Serves a job of every installed family plus one custom font (DejaVu Sans renamed "Fonti Bench
# Custom", under the benchmark's temporary folder, listed in the job's `fonts:`), and measures
# with Benchmarks/serve-client.py (Python's standard library; fontTools makes the custom font
# and its rebuild): a keystroke to the first 12 visible cards drawn (median, 95th percentile),
# every family drawn for a new text, the custom font rewritten to its `state` event and its new
# card, the memory of the server and its workers after 1,000 different texts, and 8 pages
# typing at once. Prints one table with the targets. Nothing here is a test: numbers vary with
# the machine. BENCH_SERVE_TEXTS (1000): the texts of the memory run.
set -euo pipefail
BENCH=bench-serve
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
source "$HERE/common.sh"
need /usr/bin/python3 fc-match
BIN=$(realpath "${1:-$ROOT/.build/release/fonti-batch}")
[ -x "$BIN" ] || { echo "$BENCH: no binary at $BIN (make bench-serve builds it)" >&2; exit 2; }
"$BIN" --help 2>&1 | grep -qw serve || { echo "$BENCH: $BIN has no serve command" >&2; exit 2; }
/usr/bin/python3 -c 'import fontTools' 2> /dev/null \
  || { echo "$BENCH: missing: python3-fonttools ('make bench-serve' installs it)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fonti-bench-serve.XXXXXX")
# The server, if the client did not stop it (it was killed, or failed in a thread): Ctrl-C as
# a user would, then for good. Its id is the one the client started it with.
stop_server() {
  local pid
  pid=$(cat "$WORK/server.pid" 2> /dev/null) || return 0
  kill -INT "$pid" 2> /dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2> /dev/null || true
}
trap 'stop_server; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

SOURCE=$(fc-match -f '%{file}' 'DejaVu Sans:style=Book')
/usr/bin/python3 "$HERE/serve-client.py" font "$SOURCE" "$WORK/versions"
mkdir -p "$WORK/custom"
cp "$WORK/versions/a.ttf" "$WORK/custom/FontiBenchCustom.ttf"
cat > "$WORK/job.yaml" <<YAML
version: 1
title: Benchmark
output: out
families:
  include: ["*"]
fonts:
  - custom/FontiBenchCustom.ttf
pairings: { curated: false }
catalogues: []
YAML

BENCH_SERVE_PIDFILE=$WORK/server.pid /usr/bin/python3 "$HERE/serve-client.py" run \
  "$BIN" "$WORK/job.yaml" "$WORK/custom/FontiBenchCustom.ttf" "$WORK/versions"

# The same server seen from a real page: headless Chromium typing into it (Benchmarks/ServeBrowser,
# built beside the binary by `make bench-serve`).
BROWSER=$(dirname "$BIN")/serve-browser-bench
[ -x "$BROWSER" ] || { echo "$BENCH: no $BROWSER ('make bench-serve' builds it)" >&2; exit 2; }
echo
"$BROWSER" "$BIN" "$WORK/job.yaml" "${BENCH_SERVE_RUNS:-3}"
