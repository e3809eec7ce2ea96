#!/usr/bin/env bash
# make bench-scale: does a family cost the same with 250 or 4,000 fonts installed?
#
#   Benchmarks/bench-scale.sh BINARY
#
# Makes synthetic families from installed, openly licensed fonts (renamed copies, see
# synth_families.py), cached in .build/bench-fonts/LARGE/, and adds them to the system's fonts
# through private fontconfig configurations (FONTCONFIG_FILE: /etc/fonts/fonts.conf plus the
# synthetic folders, with a font cache of their own in .build/bench-fonts/fc-cache). Then runs:
#   1. the same 100 real families (PNG) with 250 and with 4,000 synthetic families installed,
#      alternated BENCH_REPEAT times, the median CPU time of each kept: the cost of a family
#      must not depend on what else is installed;
#   2. the 250 and the 4,000 synthetic families (PNG), each with as many installed: time per
#      family; an unchanged re-run of the 4,000; then the peak memory of each, alternated
#      BENCH_REPEAT times, the median kept;
#   3. 1,000 synthetic families with 1,000 installed, PNG only and PNG + a catalogue of a page
#      per family (proof pages off), alternated BENCH_REPEAT times: the median time of each, the
#      median peak memory of the catalogue's run, qpdf --check of the catalogue; then the
#      peak memory of the same catalogue with its default proof pages (axes, features,
#      languages: about 2.3 pages per family).
# Prints one table like bench.sh's. Nothing here is a test: numbers vary with the machine.
#
# Settings (environment): BENCH_SCALE_SMALL (250), BENCH_SCALE_MID (1000), BENCH_SCALE_LARGE
# (4000) families, multiples of 50; BENCH_SCALE_SAME (100) real families; BENCH_REPEAT (3);
# BENCH_JOBS (cores); BENCH_FONTS_DIR (.build/bench-fonts); BENCH_PYTHON (a Python 3 with
# fontTools: /usr/bin/python3 when it has it); BENCH_SCALE_ALLOW (which font files may be copied:
# a regular expression on their paths; default in synth_families.py); BENCH_SCALE_PARTS (which of
# the three parts above to run: a comma-separated list of same, png, pdf; all three by default).
# It never writes to the user's fontconfig configuration or cache, nor to the system's.
set -euo pipefail
BENCH=bench-scale
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
source "$HERE/common.sh"
need jq qpdf fc-cache nice setsid ps flock sha256sum stat comm /usr/bin/time

fail() { echo "$BENCH: $*" >&2; exit 2; }
BIN=$(realpath "${1:-$ROOT/.build/release/fonti-batch}")
[ -x "$BIN" ] || fail "no binary at $BIN (make bench-scale builds it)"
SYSTEM_CONF=/etc/fonts/fonts.conf
[ -r "$SYSTEM_CONF" ] || fail "no system fontconfig configuration at $SYSTEM_CONF"

PYTHON=${BENCH_PYTHON:-}
if [ -z "$PYTHON" ]; then
  for p in /usr/bin/python3 python3; do
    if command -v "$p" > /dev/null && "$p" -c 'import fontTools' 2> /dev/null; then
      PYTHON=$p
      break
    fi
  done
fi
[ -n "$PYTHON" ] && "$PYTHON" -c 'import fontTools' 2> /dev/null \
  || fail "needs Python 3 with fontTools (Debian: python3-fonttools; 'make bench' installs it)"

SMALL=${BENCH_SCALE_SMALL:-250}
MID=${BENCH_SCALE_MID:-1000}
LARGE=${BENCH_SCALE_LARGE:-4000}
SAME=${BENCH_SCALE_SAME:-100}
REPEAT=${BENCH_REPEAT:-3}
JOBS=${BENCH_JOBS:-$(nproc)}
PER_DIR=50  # synthetic families per font folder: a smaller set is a prefix of the folders
PARTS=,${BENCH_SCALE_PARTS:-same,png,pdf},
part() { [[ $PARTS == *,$1,* ]]; }
[[ $PARTS =~ ^(,(same|png|pdf))+,$ ]] \
  || fail "BENCH_SCALE_PARTS must list some of same, png, pdf (comma-separated), not '${BENCH_SCALE_PARTS:-}'"
for v in SMALL MID LARGE SAME REPEAT JOBS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || fail "$v must be a positive whole number, not '${!v}'"
done
for v in SMALL MID LARGE; do
  [ $((${!v} % PER_DIR)) -eq 0 ] || fail "BENCH_SCALE_$v must be a multiple of $PER_DIR"
done
[ "$SMALL" -le "$MID" ] && [ "$MID" -le "$LARGE" ] && [ "$LARGE" -le 99999 ] \
  || fail "needs BENCH_SCALE_SMALL ≤ BENCH_SCALE_MID ≤ BENCH_SCALE_LARGE ≤ 99999"

FONTS_ROOT=${BENCH_FONTS_DIR:-$ROOT/.build/bench-fonts}
mkdir -p "$FONTS_ROOT/fc-cache"
FONTS_ROOT=$(realpath "$FONTS_ROOT")
# fontconfig writes to the first cache folder it can write to: ours, or else the system's or
# the user's, which this benchmark must never touch.
[ -w "$FONTS_ROOT/fc-cache" ] || fail "cannot write to $FONTS_ROOT/fc-cache"
SET=$FONTS_ROOT/$LARGE
# One benchmark at a time per font folder: two would regenerate or cache under each other.
exec 9> "$FONTS_ROOT/.lock"
flock -n 9 || fail "another bench-scale is using $FONTS_ROOT"

WORK=$(realpath "$(mktemp -d "${TMPDIR:-/tmp}/fonti-bench-scale.XXXXXX")")  # absolute: FONTCONFIG_FILE must be
GENERATING=
cleanup() {
  stop_memory
  [ -n "$GENERATING" ] && rm -rf "$GENERATING"
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$WORK/data"  # an empty XDG_DATA_HOME: the user's imported fonts stay out of it

# fontconf FILE DIR...: the system's configuration plus DIRs. Our cache folder comes first, so
# whatever fontconfig has to cache is written there, never in the system's or the user's.
xml() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' <<< "$1"; }
fontconf() {
  local file=$1 d
  shift
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">'
    echo '<fontconfig>'
    echo "  <cachedir>$(xml "$FONTS_ROOT/fc-cache")</cachedir>"
    echo "  <include ignore_missing=\"no\">$(xml "$SYSTEM_CONF")</include>"
    for d in "$@"; do echo "  <dir>$(xml "$d")</dir>"; done
    echo '</fontconfig>'
  } > "$file"
}
# with CONF CMD...: CMD with only the fonts of CONF (and no imported library).
with() {
  local conf=$1
  shift
  env FONTCONFIG_FILE="$WORK/$conf.conf" XDG_DATA_HOME="$WORK/data" "$@"
}
# synthetic COUNT: the folders holding the first COUNT synthetic families.
synthetic() {
  local i
  for ((i = 0; i < $1 / PER_DIR; i++)); do printf '%s/fonts/d%03d\n' "$SET" "$i"; done
}

# The installed families, as the tool lists them (fontconfig caches only ever written to ours).
fontconf "$WORK/system.conf"
with system fc-cache
with system "$BIN" families --json > "$WORK/system.json" \
  || fail "'fonti-batch families --json' failed"

# The synthetic families: regenerated only when the count, the sources or the generator changed.
"$PYTHON" "$HERE/synth_families.py" select ${BENCH_SCALE_ALLOW:+--allow "$BENCH_SCALE_ALLOW"} \
  < "$WORK/system.json" > "$WORK/sources.tsv" || fail "no source families"
SOURCES=$(wc -l < "$WORK/sources.tsv")
KEY=$({
  echo "count $LARGE per-dir $PER_DIR"
  sha256sum < "$HERE/synth_families.py"
  "$PYTHON" -c 'import fontTools; print("fontTools", fontTools.version)'
  cat "$WORK/sources.tsv"
  cut -f2- "$WORK/sources.tsv" | tr '\t' '\n' | xargs -d '\n' stat -c '%n %s %Y'
} | sha256sum | cut -d' ' -f1)
for d in "$FONTS_ROOT"/.*.tmp.*; do  # left by a benchmark that was killed
  [ -d "$d" ] && rm -rf "$d"
done
MADE=
if [ "$(cat "$SET/key" 2> /dev/null)" != "$KEY" ]; then
  MADE=yes
  GENERATING=$FONTS_ROOT/.$LARGE.tmp.$$
  echo "$BENCH: making $LARGE synthetic families from $SOURCES installed ones in $SET ..." >&2
  start=$(date +%s.%N)
  nice -n 10 "$PYTHON" "$HERE/synth_families.py" generate --count "$LARGE" --per-dir "$PER_DIR" \
    --jobs "$(nproc)" --out "$GENERATING" "$WORK/sources.tsv" > "$WORK/generate.out" \
    || fail "making the synthetic families failed"
  cp "$WORK/sources.tsv" "$GENERATING/sources.tsv"
  echo "$KEY" > "$GENERATING/key"
  rm -rf "$SET"
  mv "$GENERATING" "$SET"
  GENERATING=
  echo "$BENCH: made $(cat "$WORK/generate.out") ($(du -sh "$SET" | cut -f1)) in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s" >&2
else
  echo "$BENCH: reusing the $LARGE synthetic families in $SET" >&2
fi

mapfile -t DIRS < <(synthetic "$LARGE")
fontconf "$WORK/small.conf" "${DIRS[@]:0:SMALL/PER_DIR}"
fontconf "$WORK/mid.conf" "${DIRS[@]:0:MID/PER_DIR}"
fontconf "$WORK/large.conf" "${DIRS[@]}"
start=$(date +%s.%N)
# Fonts made again in the same folders: rescan them rather than trust folder times.
[ -n "$MADE" ] && FORCE=(-f "${DIRS[@]}") || FORCE=()
with large nice -n 10 fc-cache "${FORCE[@]}" || fail "fc-cache failed on the synthetic fonts"
echo "$BENCH: fc-cache in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s" >&2

# Every synthetic family must be installed (and only those) in each configuration.
for c in small:$SMALL mid:$MID large:$LARGE; do
  head -n "${c#*:}" "$SET/families.txt" | sort > "$WORK/${c%%:*}.txt"
  with "${c%%:*}" "$BIN" families --json \
    | jq -r '.[] | select(.supported) | .family | select(startswith("Synth "))' | sort \
    > "$WORK/${c%%:*}.listed"
  if ! cmp -s "$WORK/${c%%:*}.txt" "$WORK/${c%%:*}.listed"; then
    echo "$BENCH: with ${c#*:} synthetic families installed, fontconfig lists $(wc -l < "$WORK/${c%%:*}.listed"); differences (< expected, > listed):" >&2
    comm -3 "$WORK/${c%%:*}.txt" "$WORK/${c%%:*}.listed" | head -n 10 >&2
    exit 1
  fi
done

# The same real families in both configurations: evenly spread over the installed ones.
jq -r '.[] | select(.supported) | .family' < "$WORK/system.json" > "$WORK/real.txt"
REAL=$(wc -l < "$WORK/real.txt")
[ "$REAL" -ge "$SAME" ] || { echo "$BENCH: only $REAL families installed: the same $REAL" >&2; SAME=$REAL; }
awk -v m="$REAL" -v k="$SAME" 'i < k && NR - 1 == int(i * m / k) { print; i++ }' \
  < "$WORK/real.txt" > "$WORK/same.txt"

mkdir -p "$WORK/same" "$WORK/small" "$WORK/mid" "$WORK/mid-pdf" "$WORK/mid-proofs" "$WORK/large"
job "$WORK/same/job.yaml" "$WORK/same.txt" "[]"
head -n "$SMALL" "$SET/families.txt" > "$WORK/small.list"
head -n "$MID" "$SET/families.txt" > "$WORK/mid.list"
head -n "$LARGE" "$SET/families.txt" > "$WORK/large.list"
job "$WORK/small/job.yaml" "$WORK/small.list" "[]"
job "$WORK/mid/job.yaml" "$WORK/mid.list" "[]"
job "$WORK/mid-pdf/job.yaml" "$WORK/mid.list" "[{ file: catalogue.pdf }]"
job "$WORK/mid-proofs/job.yaml" "$WORK/mid.list" "[{ file: catalogue.pdf }]"
# A page per family: the catalogue the target is about, and its PNG-only twin, without proofs.
for j in mid mid-pdf; do
  echo "proofs: { axes: false, features: false, languages: false }" >> "$WORK/$j/job.yaml"
done
job "$WORK/large/job.yaml" "$WORK/large.list" "[]"

# checked DIR COUNT RENDERED: the run in DIR covered COUNT families, rendered RENDERED, failed none.
checked() {
  local counts
  counts=$(jq -c '.counts | [.families, .rendered, .failed]' < "$WORK/$1/out/manifest.json")
  [ "$counts" = "[$2,$3,0]" ] || {
    echo "$BENCH: the run of $1 counted [families, rendered, failed] = $counts, not [$2,$3,0]" >&2
    exit 1
  }
}
# fb CONF NAME [OPTIONS]: FB becomes the fonti-batch run of $WORK/NAME/job.yaml with the fonts
# of CONF, as a command that measure and memory can start.
fb() {
  FB=(env FONTCONFIG_FILE="$WORK/$1.conf" XDG_DATA_HOME="$WORK/data" "$BIN" run -q -j "$JOBS"
    "${@:3}" "$WORK/$2/job.yaml")
}

echo "fonti-batch scale benchmark: $LARGE synthetic families from $SOURCES installed ones, $REAL installed families, $JOBS workers, $(nproc) cores, $(uname -m), load $(cut -d' ' -f1 /proc/loadavg)" >&2

# 1. The same families with few and with many fonts installed, alternated; the median CPU kept.
if part same; then
for r in $(seq 1 "$REPEAT"); do
  fb small same --force
  measure "same-small-$r" "${FB[@]}"
  fb large same --force
  measure "same-large-$r" "${FB[@]}"
done
checked same "$SAME" "$SAME"
median same-small "$REPEAT" 2
median same-large "$REPEAT" 2
fi

# 2. Every synthetic family with as many installed; an unchanged re-run; memory, apart.
if part png; then
fb small small
measure png-small "${FB[@]}"
checked small "$SMALL" "$SMALL"
fb large large
measure png-large "${FB[@]}"
checked large "$LARGE" "$LARGE"
fb large large
measure rerun-large "${FB[@]}"
checked large "$LARGE" 0
# Memory: forced runs of each, alternated BENCH_REPEAT times, the median peak of each kept.
for r in $(seq 1 "$REPEAT"); do
  fb small small --force
  memory "png-small-$r" "${FB[@]}"
  fb large large --force
  memory "png-large-$r" "${FB[@]}"
done
median_memory png-small "$REPEAT"
median_memory png-large "$REPEAT"
rm -rf "$WORK/small/out" "$WORK/large/out"
fi

# 3. A catalogue of a page per family, against the PNGs alone of the same families.
QPDF=ok
if part pdf; then
# Both first runs into an empty folder, alternated BENCH_REPEAT times, the median of each kept:
# one run of each moves their ratio by ±0.1 on a shared machine.
for r in $(seq 1 "$REPEAT"); do
  rm -rf "$WORK/mid/out" "$WORK/mid-pdf/out"
  fb mid mid
  measure "png-mid-$r" "${FB[@]}"
  checked mid "$MID" "$MID"
  fb mid mid-pdf
  measure "pdf-mid-$r" "${FB[@]}"
  checked mid-pdf "$MID" "$MID"
done
median png-mid "$REPEAT"
median pdf-mid "$REPEAT"
for r in $(seq 1 "$REPEAT"); do
  fb mid mid-pdf --force
  memory "pdf-mid-$r" "${FB[@]}"
done
median_memory pdf-mid "$REPEAT"
CATALOGUE=$WORK/mid-pdf/out/catalogue.pdf
PAGES=$(qpdf --show-npages "$CATALOGUE" 2> /dev/null || echo "?")
fb mid mid-proofs
memory pdf-proofs "${FB[@]}"
PROOF_PAGES=$(qpdf --show-npages "$WORK/mid-proofs/out/catalogue.pdf" 2> /dev/null || echo "?")
if qpdf --check "$CATALOGUE" > "$WORK/qpdf.out" 2>&1; then
  QPDF=ok
else
  QPDF="FAILED (exit $?)"
  sed -n '1,20p' "$WORK/qpdf.out" >&2
fi
rm -rf "$WORK/mid/out" "$WORK/mid-pdf/out" "$WORK/mid-proofs/out"
fi

ROW_WIDTH=62
header
if part same; then
row "the same $SAME families, $SMALL synthetic installed (median of $REPEAT)" same-small "$SAME"
row "the same $SAME families, $LARGE synthetic installed (median of $REPEAT)" same-large "$SAME"
fi
if part png; then
row "PNG, $SMALL synthetic families, as many installed" png-small "$SMALL"
row "PNG, $LARGE synthetic families, as many installed" png-large "$LARGE"
row "unchanged re-run of the $LARGE" rerun-large "$LARGE"
fi
if part pdf; then
row "PNG, $MID synthetic families, as many installed (median of $REPEAT)" png-mid "$MID"
row "PNG + catalogue ($PAGES pages), the same families (median of $REPEAT)" pdf-mid "$MID"
fi
footnote
echo "  here the peaks of the PNG runs and of the catalogue's are the median of $REPEAT such runs"
echo
summary() { printf '%-56s %s\n' "$1" "$2"; }
if part same; then
summary "CPU, the same $SAME families, $LARGE vs $SMALL installed:" \
  "$(ratio "$(cpu same-large)" "$(cpu same-small)")   (target ≤ 1.15)"
fi
if part png; then
summary "ms per family (wall), $LARGE families (PNG):" "$(ms "$(secs png-large)" "$LARGE")   (target ≤ 15)"
summary "CPU per family, $LARGE vs $SMALL families (PNG):" \
  "$(ratio "$(ms "$(cpu png-large)" "$LARGE")" "$(ms "$(cpu png-small)" "$SMALL")")   (no target; steadier than wall time on a busy machine)"
summary "peak memory, $LARGE vs $SMALL families (PNG):" \
  "$(ratio "$(rss png-large)" "$(rss png-small)")   (target ≤ 1.20)"
summary "  the same by proportional sets (PSS):" \
  "$(ratio "$(pss png-large)" "$(pss png-small)")"
summary "unchanged re-run / full run, $LARGE families:" \
  "$(ratio "$(secs rerun-large)" "$(secs png-large)" 3)   (target ≤ 0.03)"
fi
if part pdf; then
summary "time, $MID families, PNG + catalogue vs PNG:" \
  "$(ratio "$(secs pdf-mid)" "$(secs png-mid)")   (target ≤ 2.00)"
summary "peak memory, $MID families, PNG + catalogue:" "$(mib pdf-mid) MiB   (target ≤ 150)"
summary "  the same by proportional sets (PSS):" "$(pss_mib pdf-mid) MiB"
summary "  with proof pages ($PROOF_PAGES pages), RSS / PSS:" "$(mib pdf-proofs) / $(pss_mib pdf-proofs) MiB"
summary "qpdf --check of the $PAGES-page catalogue:" "$QPDF"
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$QPDF" = ok ]
