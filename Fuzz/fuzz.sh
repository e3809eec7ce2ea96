#!/usr/bin/env bash
# Fuzzes the job-file loader and decoder (YAMLDocument + JobDecoder) with libFuzzer.
#
#   Fuzz/fuzz.sh [SECONDS]        default 60; `make fuzz FUZZ_SECONDS=20` in CI
#
# The job sources (Sources/FontiCore/Job, Diagnostics, four Support files) are compiled with
# Fuzz/JobDecoderFuzzer.swift into one instrumented binary (-sanitize=fuzzer,address), apart
# from the package: `swift build` and `swift test` never see this. The working corpus lives in
# .build/fuzz/corpus and grows across runs; the seeds are the job fixtures, the example job and
# Fuzz/corpus (inputs that once crashed). A crash leaves its input in .build/fuzz/artifacts/ and
# makes this script fail: add it to Fuzz/corpus and as a case in Tests/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FUZZ_SECONDS:-60}}"
swiftc="${SWIFTC:-swiftc}"
out=.build/fuzz
mkdir -p "$out/corpus" "$out/artifacts" "$out/seeds"

sources=(Sources/FontiCore/Job/*.swift Sources/FontiCore/Diagnostics/*.swift
  Sources/FontiCore/Support/Suggest.swift Sources/FontiCore/Support/Sanitize.swift
  Sources/FontiCore/Support/FileSystem.swift Sources/FontiCore/Support/AtomicFile.swift
  Fuzz/JobDecoderFuzzer.swift)
binary="$out/job-fuzzer"
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" -newer "$binary" | head -1)" ]; then
  echo "fuzz: building $binary"
  "$swiftc" -sanitize=fuzzer,address -parse-as-library -module-name FontiCore -O -g \
    -I Sources/CYAML "${sources[@]}" -lyaml -o "$binary" 2>&1 \
    | grep -v -e 'prohibited flag' -e 'Cannot export local symbol' || true
  [ -x "$binary" ] || { echo "fuzz: build failed" >&2; exit 2; }
fi

# Seeds, flattened into one folder (libFuzzer reads folders, not trees).
rm -f "$out/seeds"/*
seed_folders=(Tests/FontiCoreTests/Fixtures/Jobs)
[ -d Fuzz/corpus ] && seed_folders+=(Fuzz/corpus)
find "${seed_folders[@]}" -type f \
  | while read -r f; do cp "$f" "$out/seeds/$(echo "$f" | tr '/' '_')"; done
cp specimens.yaml.example "$out/seeds/example.yaml"

echo "fuzz: ${seconds}s on the job decoder (corpus $out/corpus)"
log="$out/last-run.log"
status=0
"$binary" "$out/corpus" "$out/seeds" -dict=Fuzz/yaml.dict -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$out/artifacts/" >"$log" 2>&1 || status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
echo "$(date -u +%FT%TZ) seconds=$seconds runs=$runs status=$status" >>"$out/history"
grep -E '^(#[0-9]+ *DONE|Done|stat::)' "$log" || true
if [ "$status" -ne 0 ]; then
  grep -E -A30 'ERROR|==[0-9]+==|Fatal error|deadly signal|timeout' "$log" | head -60 >&2
  echo "fuzz: FAILED (exit $status); input in $out/artifacts/, full log in $log" >&2
  exit 1
fi
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "seconds") s += kv[2];
  if (kv[1] == "runs") r += kv[2] } } END { printf "fuzz: OK; all runs so far: %ds, %d executions\n", s, r }' \
  "$out/history"
