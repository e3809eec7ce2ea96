#!/usr/bin/env bash
# The damaged-font sweep: COUNT damaged copies of the fonts under Tests/ (Fuzz/damage.py, the
# same files for the same SEED), each through `fonts import`, `render`, `run` (every proof,
# the glyph chart, a catalogue and the gallery) and `diff` against its source, with a binary
# of fonti-batch:
#
#   Fuzz/sweep.sh [BIN] [SEED] [COUNT] [FONT...]   defaults: .build/release/fonti-batch, 1, 300
#
# Extra FONT files join the sources (a colour font, a large CJK font). Each command runs under
# `timeout` (SWEEP_TIMEOUT seconds, default 45; a run's item bound is FONTI_ITEM_TIMEOUT=20)
# with fontconfig seeing no installed font, and is classed by how it ended:
#
#   ok        exit 0        refused   exit 2 (a clear error: bad input)
#   failed    exit 1        hang      killed by the timeout
#   crash     a signal, or a Swift runtime error or stack trace on stderr
#
# and checked for what must never happen whatever the exit: a temporary file left in the
# output (`.fonti-tmp-*`) or a changed input font. Prints a table of classes by command and
# every crash, hang, leftover and changed input; writes the rows to $SWEEP_OUT/results.tsv
# (default .build/sweep). Exits 1 when anything crashed, hung, was left or changed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-.build/release/fonti-batch}")
SEED=${2:-1}
COUNT=${3:-300}
shift 3 2>/dev/null || shift $#
EXTRA=("$@")
LIMIT=${SWEEP_TIMEOUT:-45}
OUT=$(realpath -m "${SWEEP_OUT:-.build/sweep}")
[ -x "$BIN" ] || { echo "sweep: no binary at $BIN" >&2; exit 2; }
command -v jq >/dev/null || { echo "sweep: needs jq" >&2; exit 2; }

rm -rf "$OUT"
mkdir -p "$OUT/fonts" "$OUT/empty" "$OUT/cache"
mapfile -t sources < <(find Tests -type f \( -name '*.ttf' -o -name '*.otf' -o -name '*.ttc' \) \
  -size -129k | sort)
python3 Fuzz/damage.py "$SEED" "$COUNT" "$OUT/fonts" "${sources[@]}" "${EXTRA[@]}"

# fontconfig sees only the fonts each command is given.
cat >"$OUT/fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>$OUT/empty</dir>
  <cachedir>$OUT/cache</cachedir>
</fontconfig>
EOF
export FONTCONFIG_FILE="$OUT/fonts.conf" FONTI_ITEM_TIMEOUT=${FONTI_ITEM_TIMEOUT:-20}
export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1

results="$OUT/results.tsv"
printf 'font\tcommand\tclass\texit\tseconds\tproblem\n' >"$results"

# check FONT COMMAND WORKDIR ARGS...: runs one command in WORKDIR and records its row.
check() {
  local font=$1 name=$2 work=$3
  shift 3
  local before after started status class problem=""
  before=$(sha256sum "$OUT/fonts/$font" | cut -c1-64)
  started=$(date +%s.%N)
  status=0
  (cd "$work" && timeout -k 5 "$LIMIT" "$BIN" "$@" >"$work/$name.out" 2>"$work/$name.err") \
    || status=$?
  local seconds
  seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  case $status in
    0) class=ok ;;
    1) class=failed ;;
    2) class=refused ;;
    124 | 137) class=hang ;;
    *) class=crash ;;
  esac
  if grep -qE 'Fatal error|Swift runtime failure|Current stack trace|Stack dump|Program crashed' \
    "$work/$name.err"; then
    class=crash
  fi
  if [ -n "$(find "$work" -name '.fonti-tmp-*' -print -quit)" ]; then
    problem="left a temporary file"
  fi
  after=$(sha256sum "$OUT/fonts/$font" | cut -c1-64)
  [ "$before" = "$after" ] || problem="${problem:+$problem; }changed its input"
  printf '%s\t%s\t%s\t%s\t%.2f\t%s\n' "$font" "$name" "$class" "$status" "$seconds" "$problem" \
    >>"$results"
}

echo "sweep: $COUNT damaged fonts (seed $SEED) through $BIN" >&2
while IFS=$'\t' read -r font source; do
  work="$OUT/work/$font"
  mkdir -p "$work/data" "$work/out"
  export XDG_DATA_HOME="$work/data"
  check "$font" import "$work" fonts import "$OUT/fonts/$font"
  family=$(cd "$work" && timeout "$LIMIT" "$BIN" fonts --json 2>/dev/null \
    | jq -r '.[0].family // empty' 2>/dev/null || true)
  if [ -n "$family" ]; then
    check "$font" render "$work" render "$family" -o out/
  else
    printf '%s\trender\tskipped\t-\t0\t\n' "$font" >>"$results"
  fi
  unset XDG_DATA_HOME
  cat >"$work/job.yaml" <<EOF
version: 1
fonts: ["$OUT/fonts/$font"]
png: { edge: 256 }
proofs: { axes: true, features: true, languages: true, glyphs: true }
EOF
  check "$font" run "$work" run -o run/ job.yaml
  check "$font" diff "$work" diff -o diff/ "$source" "$OUT/fonts/$font"
done <"$OUT/fonts/sources.tsv"

# The table: classes by command, then every row that is a finding.
awk -F'\t' 'NR > 1 { n[$2 FS $3]++; commands[$2] = 1 }
  END {
    split("ok failed refused skipped hang crash", classes, " ")
    printf "%-8s", "command"; for (i = 1; i <= 6; i++) printf " %8s", classes[i]; print ""
    split("import render run diff", order, " ")
    for (c = 1; c <= 4; c++) {
      printf "%-8s", order[c]
      for (i = 1; i <= 6; i++) printf " %8d", n[order[c] FS classes[i]]
      print ""
    }
  }' "$results"
findings=$(awk -F'\t' 'NR > 1 && ($3 == "crash" || $3 == "hang" || $6 != "")' "$results")
if [ -n "$findings" ]; then
  echo "findings:"
  echo "$findings"
  exit 1
fi
echo "sweep: no crash, no hang, nothing left behind, no input changed"
