#!/usr/bin/env bash
# make bench (bench-diff): `diff` on the installed families against a copy in which ~10 % of
# the families have one glyph moved (Benchmarks/diff-copies.py, cached in
# .build/bench-diff/), against a PNG `run` of the same families.
#
#   Benchmarks/bench-diff.sh BINARY
#
# Checks that every changed family is found and no other is reported (exit 1 otherwise), then
# prints one table: time, CPU, peak memory (parent + workers) of the whole review and of a
# review of 30 families (memory must stay flat), and the ratio to the PNG run (target ≤ 3);
# then one pair of full fonts (Benchmarks/diff-pair.py: Noto Sans Regular, kerning, a ligature
# and a glyph changed) compared by fonti-batch and by diffenator3 side by side (diffenator3 from
# PyPI, installed once in a virtual environment under .build/; target ≤ 1/10 of its time).
# Nothing here is a test: numbers vary with the machine. BENCH_JOBS (cores), BENCH_DIFF_DIR.
set -euo pipefail
BENCH=bench-diff
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
source "$HERE/common.sh"
need jq /usr/bin/time setsid ps fc-scan
BIN=$(realpath "${1:-$ROOT/.build/release/fonti-batch}")
[ -x "$BIN" ] || { echo "$BENCH: no binary at $BIN (make bench builds it)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fonti-bench-diff.XXXXXX")
trap 'stop_memory; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
JOBS=${BENCH_JOBS:-$(nproc)}
COPIES=${BENCH_DIFF_DIR:-$ROOT/.build/bench-diff}

# The copies, made once (fonttools rewrites the changed files: a minute or two).
if [ ! -f "$COPIES/changed.json" ]; then
  echo "$BENCH: making the copies in $COPIES (once)" >&2
  /usr/bin/python3 "$HERE/diff-copies.py" "$COPIES" >&2
fi
B=$COPIES/before; A=$COPIES/after

echo "fonti-batch diff benchmark: $JOBS workers, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)" >&2
measure diff "$BIN" diff "$B" "$A" -o "$WORK/review" -j "$JOBS"
memory diff "$BIN" diff "$B" "$A" -o "$WORK/review-mem" -j "$JOBS"

# Every changed family found, nothing else reported.
jq -r '.families[] | select(.status != "unchanged") | "\(.status) \(.family | ascii_downcase)"' \
  "$WORK/review/diff.json" | sort > "$WORK/reported.txt"
jq -r 'keys[] | "changed \(.)"' "$COPIES/changed.json" | sort > "$WORK/expected.txt"
if ! cmp -s "$WORK/reported.txt" "$WORK/expected.txt"; then
  echo "$BENCH: the review does not report exactly the changed families:" >&2
  diff "$WORK/expected.txt" "$WORK/reported.txt" >&2 || true
  exit 1
fi
N=$(jq '.counts.families' "$WORK/review/diff.json")
CHANGED=$(wc -l < "$WORK/expected.txt")

# 30 families (their names as --only patterns, brackets and stars escaped): memory stays flat.
jq -r '.families[:30][].family' "$WORK/review/diff.json" | sed 's/[][*?\\]/\\&/g' \
  > "$WORK/thirty.txt"
ONLY=()
while IFS= read -r f; do ONLY+=(--only "$f"); done < "$WORK/thirty.txt"
memory diff30 "$BIN" diff "$B" "$A" -o "$WORK/review30" -j "$JOBS" "${ONLY[@]}"

# A PNG run of the same families, as installed (those fontconfig can render).
"$BIN" families --json | jq -r '.[] | select(.supported) | .family' | sort > "$WORK/installed.txt"
jq -r '.families[].family' "$WORK/review/diff.json" | sort > "$WORK/compared.txt"
comm -12 "$WORK/installed.txt" "$WORK/compared.txt" > "$WORK/families.txt"
mkdir -p "$WORK/png"
job "$WORK/png/job.yaml" "$WORK/families.txt" "[]"
measure png "$BIN" run -q --force -j "$JOBS" "$WORK/png/job.yaml"

# One pair of full fonts, side by side with diffenator3 (PyPI), on the same cores.
D3=$ROOT/.build/diffenator3-venv
if [ ! -x "$D3/bin/diffenator3" ]; then
  echo "$BENCH: installing diffenator3 from PyPI in $D3 (once)" >&2
  python3 -m venv "$D3" >&2 && "$D3/bin/pip" install -q diffenator3 >&2
fi
PAIR=$COPIES/pair
[ -f "$PAIR/after.ttf" ] || /usr/bin/python3 "$HERE/diff-pair.py" "$PAIR" >&2
measure pair "$BIN" diff "$PAIR/before.ttf" "$PAIR/after.ttf" -o "$WORK/pair" -j "$JOBS"
measure d3 "$D3/bin/diffenator3" --jobs "$JOBS" "$PAIR/before.ttf" "$PAIR/after.ttf"
PAIRFOUND=$(jq -r '[.families[0].shaping[0].kerning.count, (.families[0].shaping[0].features.changed | length), (.families[0].glyphs | length)] | "\(.[0]) kerning pairs, \(.[1]) feature texts, \(.[2]) glyphs"' "$WORK/pair/diff.json")

dheader() { printf '%-58s %8s %8s %10s\n' "" "seconds" "CPU s" "peak MiB"; }
line() { printf '%-58s %8s %8s %10s\n' "$1" "$(secs "$2")" "$(cpu "$2")" "${3:-}"; }
dheader
line "fonti-batch diff, $N families ($CHANGED changed)" diff "$(mib diff)"
printf '%-58s %8s %8s %10s\n' "fonti-batch diff, 30 families" "" "" "$(mib diff30)"
line "fonti-batch run, PNG, $(wc -l < "$WORK/families.txt") of the same families" png
line "fonti-batch diff, one pair of full fonts (Noto Sans)" pair
line "diffenator3 $("$D3/bin/diffenator3" --version | awk '{print $2}'), the same pair" d3
echo
echo "changed families found:               $CHANGED of $CHANGED, no other reported"
echo "diff / PNG run time:                  $(ratio "$(secs diff)" "$(secs png)")   (target ≤ 3)"
echo "diff / PNG run CPU time:              $(ratio "$(cpu diff)" "$(cpu png)")"
echo "one pair, fonti-batch found:          $PAIRFOUND"
echo "one pair, fonti-batch / diffenator3:  $(ratio "$(secs pair)" "$(secs d3)")   (target ≤ 0.10)"
echo "peak memory, $N vs 30 families:      $(ratio "$(rss diff)" "$(rss diff30)")   (target ≤ 1.20)"
