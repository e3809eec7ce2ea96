#!/usr/bin/env bash
# Fuzzes every reader of outside input with libFuzzer (and AddressSanitizer), one target after
# the other, each for SECONDS:
#
#   Fuzz/fuzz.sh [SECONDS] [TARGET...]   default 60 each, all targets; `make fuzz FUZZ_SECONDS=20` in CI
#
#   job          the job file: YAMLDocument + JobDecoder (Fuzz/JobDecoderFuzzer.swift)
#   favourites   the favourites manifest: FavouritesManifest.decode (Fuzz/FavouritesFuzzer.swift)
#   run-manifest the previous run's manifest: RunManifest.decode (Fuzz/RunManifestFuzzer.swift)
#   shard-manifest a shard's shard.json, read by merge: ShardManifest.decode
#                (Fuzz/ShardManifestFuzzer.swift)
#
# Each target is its entry point linked against the package's support and job-model targets,
# each compiled whole from its folder with -sanitize=fuzzer,address, apart from the package:
# `swift build` and `swift test` never see this. A target's working corpus lives in
# .build/fuzz/TARGET/corpus and grows across runs; its seeds are Fuzz/seeds/TARGET (the job target's: the job fixtures and the example) and
# Fuzz/corpus/TARGET (inputs that once crashed). A crash leaves its input in
# .build/fuzz/TARGET/artifacts/ and makes this script fail: add it to Fuzz/corpus/TARGET and as
# a case in Tests/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FUZZ_SECONDS:-60}}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(job favourites run-manifest shard-manifest)
swiftc="${SWIFTC:-swiftc}"
modules=.build/fuzz/modules
# The module maps of the C libraries the two targets import.
includes=(-I Sources/CYAML -I Sources/CNettle -I Sources/CSystem)

# Every reader of outside input lives in the two lowest targets, support and the job model
# (which reach no C library but Nettle and libyaml). Each is compiled whole, from its folder,
# into an instrumented static library; a fuzzer is its entry point linked against both. No
# source file is named here: a file added to either target is fuzzed with the rest.
#   target MODULE: builds .build/fuzz/modules/libMODULE.a and MODULE.swiftmodule when a file
#   of Sources/MODULE (or this script) is newer than the library.
target() {
  local module=$1
  local library="$modules/lib$module.a"
  if [ -f "$library" ] && [ -z "$(find "Sources/$module" Fuzz/fuzz.sh -newer "$library" | head -1)" ]; then
    return
  fi
  echo "fuzz: building $library"
  mkdir -p "$modules"
  rm -f "$library"
  local files
  mapfile -t files < <(find "Sources/$module" -name '*.swift' | sort)
  "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -enable-testing \
    -package-name fonti_batch -module-name "$module" -emit-library -static \
    -emit-module -emit-module-path "$modules/$module.swiftmodule" -I "$modules" "${includes[@]}" \
    "${files[@]}" -o "$library" 2>&1 | grep -v -e 'prohibited flag' -e 'Cannot export local symbol' || true
  [ -f "$library" ] || { echo "fuzz: building $module failed" >&2; exit 2; }
}

# entry TARGET: the fuzzer's entry point.
entry() {
  case $1 in
    job) echo Fuzz/JobDecoderFuzzer.swift ;;
    favourites) echo Fuzz/FavouritesFuzzer.swift ;;
    run-manifest) echo Fuzz/RunManifestFuzzer.swift ;;
    shard-manifest) echo Fuzz/ShardManifestFuzzer.swift ;;
    *) echo "fuzz: unknown target '$1' (job, favourites, run-manifest, shard-manifest)" >&2; exit 2 ;;
  esac
}

target FontiSupport
target FontiModel

status=0
failures=()
for target in "${targets[@]}"; do
  out=.build/fuzz/$target
  mkdir -p "$out/corpus" "$out/artifacts" "$out/seeds"
  main=$(entry "$target")
  binary="$out/fuzzer"
  if [ ! -x "$binary" ] || [ -n "$(find "$main" "$modules" -newer "$binary" | head -1)" ]; then
    echo "fuzz: building $binary"
    rm -f "$binary"
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -package-name fonti_batch \
      -module-name "Fuzz${target//-/}" -I "$modules" "${includes[@]}" "$main" \
      -L "$modules" -lFontiModel -lFontiSupport -lyaml -lnettle \
      -o "$binary" 2>&1 | grep -v -e 'prohibited flag' -e 'Cannot export local symbol' || true
    [ -x "$binary" ] || { echo "fuzz: building $target failed" >&2; exit 2; }
  fi

  # Seeds, flattened into one folder (libFuzzer reads folders, not trees).
  rm -f "$out/seeds"/*
  seed_folders=()
  [ -d "Fuzz/seeds/$target" ] && seed_folders+=("Fuzz/seeds/$target")
  [ -d "Fuzz/corpus/$target" ] && seed_folders+=("Fuzz/corpus/$target")
  if [ "$target" = job ]; then
    seed_folders+=(Tests/Fixtures/Jobs)
    cp specimens.yaml.example "$out/seeds/example.yaml"
  fi
  find "${seed_folders[@]}" -type f \
    | while read -r f; do cp "$f" "$out/seeds/$(echo "$f" | tr '/' '_')"; done
  dict=Fuzz/json.dict
  [ "$target" = job ] && dict=Fuzz/yaml.dict

  echo "fuzz: ${seconds}s on $target (corpus $out/corpus)"
  log="$out/last-run.log"
  touch "$out/started"
  result=0
  "$binary" "$out/corpus" "$out/seeds" -dict="$dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" >"$log" 2>&1 || result=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  echo "$(date -u +%FT%TZ) seconds=$seconds runs=$runs status=$result" >>"$out/history"
  grep -E '^(#[0-9]+ *DONE|Done|stat::)' "$log" || true
  if [ "$result" -ne 0 ]; then
    grep -E -A30 'ERROR|==[0-9]+==|Fatal error|deadly signal|timeout' "$log" | head -60 >&2
    echo "fuzz: $target FAILED (exit $result); input in $out/artifacts/, full log in $log" >&2
    status=1
    failures+=("$target")
    continue
  fi
  awk -v t="$target" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "seconds") s += kv[2];
    if (kv[1] == "runs") r += kv[2] } } END { printf "fuzz: %s OK; all runs so far: %ds, %d executions\n", t, s, r }' \
    "$out/history"
done

# CI shows the end of what ran: each failure again there, with the input that failed (base64, so
# it can be replayed from a CI log: `base64 -d > x && .build/fuzz/TARGET/fuzzer x`).
for target in "${failures[@]}"; do
  out=.build/fuzz/$target
  echo "fuzz: $target FAILED:"
  grep -m1 -E 'Swift runtime failure|Fatal error|ERROR: |deadly signal|timeout after' \
    "$out/last-run.log" || true
  grep -m6 -E '^ *[0-9]+ .* in fuzzer at (Sources|Fuzz)/' "$out/last-run.log" || true
  find "$out/artifacts" -type f -newer "$out/started" | while read -r input; do
    echo "input $input ($(wc -c <"$input") bytes), base64:"
    head -c 4096 "$input" | base64 -w 100
  done
done
exit "$status"
