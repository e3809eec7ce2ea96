# Measuring functions shared by the benchmarks (bench.sh, bench-scale.sh). Source it after
# setting WORK (a private temporary folder, removed by the caller) and BENCH (the name errors
# are prefixed with). Results live in $WORK as NAME.result ("wall cpu") and NAME.memory (KiB).
# Nothing here is a test: numbers vary with the machine.

# need TOOL...: every tool on PATH (or an executable path), else say which are missing and how
# to get them, and stop.
need() {
  local missing=() t
  for t in "$@"; do command -v "$t" > /dev/null 2>&1 || missing+=("$t"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "$BENCH: missing: ${missing[*]} ('make bench' installs them: see BENCH_PACKAGES in the Makefile)" >&2
    exit 2
  fi
}

# job FILE FAMILIES CATALOGUES: a job rendering the families listed in FAMILIES (one per line,
# exact names) into out/ beside it, no curated pairings, with CATALOGUES (YAML: [] for none).
job() {
  {
    echo "version: 1"
    echo "title: Benchmark"
    echo "output: out"
    echo "families:"
    echo "  include: $(jq -R . < "$2" | jq -cs .)"
    echo "pairings: { curated: false }"
    echo "catalogues: $3"
  } > "$1"
}

# seconds and CPU seconds of a command (/usr/bin/time for the CPU), nothing else running beside
# it. The wall time is bash's clock around it, to the millisecond: /usr/bin/time gives hundredths,
# and an unchanged re-run takes a few of them (0.04 or 0.05 s read as a 25 % difference).
measure() {  # measure NAME CMD...
  local name=$1; shift
  local start=${EPOCHREALTIME:-}
  /usr/bin/time -v -o "$WORK/$name.time" "$@" > /dev/null 2> "$WORK/$name.err" || {
    echo "$BENCH: '$*' failed:" >&2; cat "$WORK/$name.err" >&2; exit 1; }
  local end=${EPOCHREALTIME:-}
  local wall cpu
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$WORK/$name.time")
  if [ -n "$start" ] && [ -n "$end" ]; then
    wall=$(awk -v a="${start/,/.}" -v b="${end/,/.}" 'BEGIN { printf "%.3f", b - a }')
  else
    # h:mm:ss or m:ss.ss → seconds
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/$name.time" \
      | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  fi
  echo "$wall $cpu" > "$WORK/$name.result"
}

# Peak memory of a command, in a separate run (sampling costs CPU), sampled every 50 ms in its
# own process group: the largest sum of the resident sets of all its processes (parent +
# workers) at any moment (NAME.memory), and the largest sum of their proportional sets
# (NAME.pss: a page shared by the processes, a library or fontconfig's mapped font caches,
# counted once in all rather than once in each; the memory the run really takes). MEMORY_PID
# names that group while it runs, for the caller's clean-up (an interrupted benchmark must not
# leave it running: setsid puts it out of reach of ^C).
MEMORY_PID=
# processes GROUP: "PID RSS" of each process of the group, leaving out a child that has not
# yet run its program: posix_spawn's child shares its parent's memory until it execs (vfork),
# and ps shows it with the parent's whole resident set, so a sample that lands while a worker
# starts would count the parent twice. It is told by its command line, its parent's still.
processes() {
  (ps -o pid=,ppid=,rss=,args= -g "$1" 2> /dev/null || true) | awk -v leader="$1" '
    { pid = $1; ppid[pid] = $2; rss[pid] = $3; $1 = $2 = $3 = ""; args[pid] = $0 }
    END {
      for (p in rss)
        if (p == leader || !(ppid[p] in args) || args[ppid[p]] != args[p]) print p, rss[p]
    }'
}
memory() {  # memory NAME CMD...
  local name=$1; shift
  setsid "$@" > /dev/null 2> "$WORK/$name.memerr" &
  local pid=$! peak=0 pss=0 now p
  MEMORY_PID=$pid
  while kill -0 "$pid" 2> /dev/null; do
    now=$(processes "$pid" | awk '{ s += $2 } END { print s + 0 }')
    [ "$now" -gt "$peak" ] && peak=$now
    now=0
    for p in $(processes "$pid" | awk '{ print $1 }'); do
      now=$((now + $(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2> /dev/null || echo 0)))
    done
    [ "$now" -gt "$pss" ] && pss=$now
    sleep 0.05
  done
  wait "$pid" || { MEMORY_PID=; echo "$BENCH: '$*' failed:" >&2; cat "$WORK/$name.memerr" >&2; exit 1; }
  MEMORY_PID=
  echo "$peak" > "$WORK/$name.memory"
  echo "$pss" > "$WORK/$name.pss"
}
# Stops a memory() run still going (from an EXIT trap): its whole process group, by its id.
stop_memory() {
  [ -n "${MEMORY_PID:-}" ] && kill -TERM -- "-$MEMORY_PID" 2> /dev/null || true
}

secs() { cut -d' ' -f1 < "$WORK/$1.result"; }
cpu() { cut -d' ' -f2 < "$WORK/$1.result"; }
rss() { cat "$WORK/$1.memory" 2> /dev/null || echo 0; }
pss() { cat "$WORK/$1.pss" 2> /dev/null || echo 0; }
mib() { awk -v k="$(rss "$1")" 'BEGIN { printf "%.0f", k/1024 }'; }
pss_mib() { awk -v k="$(pss "$1")" 'BEGIN { printf "%.0f", k/1024 }'; }

# median NAME REPEAT [FIELD]: of the runs NAME-1 … NAME-REPEAT, the one whose FIELD (1: wall,
# the default; 2: CPU) is the median, copied to NAME.
median() {
  local best field=${3:-1}
  best=$(for r in $(seq 1 "$2"); do echo "$(cut -d' ' -f"$field" < "$WORK/$1-$r.result") $1-$r"; done \
    | sort -n | awk -v n="$2" 'NR == int((n + 1) / 2) { print $2 }')
  cp "$WORK/$best.result" "$WORK/$1.result"
}

# median_memory NAME REPEAT: of the memory() runs NAME-1 … NAME-REPEAT, the median peak and the
# median proportional peak (each on its own), copied to NAME. One sampled peak is one draw of
# which processes peak together within 50 ms: a ratio of two single draws moves by ±0.04.
median_memory() {
  local kind
  for kind in memory pss; do
    for r in $(seq 1 "$2"); do cat "$WORK/$1-$r.$kind"; done \
      | sort -n | awk -v n="$2" 'NR == int((n + 1) / 2)' > "$WORK/$1.$kind"
  done
}

ms() { awk -v s="$1" -v n="$2" 'BEGIN { printf "%.1f", 1000 * s / n }'; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }'; }  # A B [DIGITS]

# The table: header, then row LABEL NAME FAMILIES for each measured run. ROW_WIDTH is the
# width of the first column. A run without a memory() run shows "-" as its peak.
ROW_WIDTH=${ROW_WIDTH:-46}
header() {
  printf "\n%-${ROW_WIDTH}s %8s %10s %9s %9s %9s\n" "what" "seconds" "ms/family" "CPU s" "peak MiB*" "PSS MiB*"
}
row() {
  local peak=- proportional=-
  [ -f "$WORK/$2.memory" ] && peak=$(mib "$2")
  [ -f "$WORK/$2.pss" ] && proportional=$(pss_mib "$2")
  printf "%-${ROW_WIDTH}s %8s %10s %9s %9s %9s\n" "$1" "$(secs "$2")" "$(ms "$(secs "$2")" "$3")" "$(cpu "$2")" "$peak" "$proportional"
}
footnote() {
  echo "* peak memory: all of the run's processes together (parent + workers), sampled every 50 ms in a separate run;"
  echo "  peak MiB sums their resident sets, PSS MiB their proportional sets (shared pages counted once)"
}
