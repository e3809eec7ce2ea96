#!/usr/bin/env bash
# Fuzzes every reader of outside input with libFuzzer (and AddressSanitizer), one target after
# the other, each for SECONDS:
#
#   Fuzz/fuzz.sh [SECONDS] [TARGET...]   default 60 each, all targets; `make fuzz FUZZ_SECONDS=20` in CI
#
#   job            the job file: YAMLDocument + JobDecoder (Fuzz/JobDecoderFuzzer.swift)
#   favourites     the favourites manifest: FavouritesManifest.decode (Fuzz/FavouritesFuzzer.swift)
#   run-manifest   the previous run's manifest: RunManifest.decode (Fuzz/RunManifestFuzzer.swift)
#   shard-manifest a shard's shard.json, read by merge: ShardManifest.decode
#                  (Fuzz/ShardManifestFuzzer.swift)
#   font-file      the font-file check: the table directory, fontconfig's query, the family
#                  name rule (Fuzz/FontFileFuzzer.swift)
#   font-proofs    the proof readers: fvar, avar, STAT, cmap, name, GSUB/GPOS feature lists and
#                  lookups, feature samples (Fuzz/FontProofsFuzzer.swift)
#   font-diff      diff's table, metric, class definition, outline, shaping and colour glyph
#                  readers (Fuzz/FontDiffFuzzer.swift)
#   colour-bitmaps the CBDT/CBLC and sbix check (Fuzz/ColourBitmapsFuzzer.swift)
#   layout-rules   the GSUB, GPOS and GDEF reader: lookups as rules (Fuzz/LayoutRulesFuzzer.swift)
#   web-font       WOFF and WOFF2: the header and table directory checks, FreeType's decoding,
#                  the loca repair and the check of the decoded sfnt (Fuzz/WebFontFuzzer.swift)
#
# Each target is its entry point linked against the package's targets it reads with, each
# compiled whole from its folder with -sanitize=fuzzer,address, apart from the package:
# `swift build` and `swift test` never see this. The font targets link the C libraries the
# text target calls (Pango, Cairo, fontconfig, HarfBuzz, libpng, qpdf), uninstrumented. A
# target's working corpus lives in .build/fuzz/TARGET/corpus and grows across runs; its seeds
# are Fuzz/seeds/TARGET, Fuzz/corpus/TARGET (inputs that once crashed) and, for the job
# target, the job fixtures, the example and generated files at the size, nesting and alias
# limits; for the font targets, every font under Tests/ of at most 128 KiB. A crash leaves
# its input in .build/fuzz/TARGET/artifacts/ and makes this script fail: add it to
# Fuzz/corpus/TARGET and as a case in Tests/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FUZZ_SECONDS:-60}}"
shift || true
targets=("$@")
all_targets=(job favourites run-manifest shard-manifest font-file font-proofs font-diff colour-bitmaps
  layout-rules web-font)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
swiftc="${SWIFTC:-swiftc}"
# A crash is reported by the sanitizer alone: Swift's backtracer would read memory the
# sanitizer then reports as its own failure.
export SWIFT_BACKTRACE=enable=no
modules=.build/fuzz/modules
# The module maps of the C libraries the targets import, and the C headers they name.
includes=(-I Sources/CYAML -I Sources/CNettle -I Sources/CSystem -I Sources/CCairo
  -I Sources/CPango -I Sources/CFontconfig -I Sources/CHarfBuzz -I Sources/CPNG -I Sources/CQPDF
  -I Sources/CFreeType -I "$modules/CPangoMatch")
for flag in $(pkg-config --cflags pangocairo harfbuzz fontconfig cairo libpng freetype2); do
  includes+=(-Xcc "$flag")
done
read -r -a font_libraries <<<"$(pkg-config --libs pangocairo pangoft2 harfbuzz fontconfig cairo libpng freetype2)"
font_libraries+=(-lqpdf -lisal -lz -ldl)

# The readers of outside input live in the package's lower targets: support and the job model
# read job files and manifests; text, fonts and diff read fonts. Each is compiled whole, from
# its folder, into an instrumented static library; a fuzzer is its entry point linked against
# the libraries it needs. No source file is named here: a file added to a target is fuzzed
# with the rest.
# built MODULE: whether .build/fuzz/modules/libMODULE.a is newer than every file of
# Sources/MODULE and this script.
built() {
  local library="$modules/lib$1.a"
  [ -f "$library" ] && [ -z "$(find "Sources/$1" Fuzz/fuzz.sh -newer "$library" | head -1)" ]
}

#   target MODULE: builds .build/fuzz/modules/libMODULE.a and MODULE.swiftmodule when a file
#   of Sources/MODULE (or this script) is newer than the library.
target() {
  local module=$1
  local library="$modules/lib$module.a"
  built "$module" && return
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

# The C target the text target imports (its override of Pango's matching thread), compiled
# as it is, with a module map like the one SwiftPM makes for it.
c_target() {
  local module=$1
  local library="$modules/lib$module.a"
  built "$module" && return
  echo "fuzz: building $library"
  mkdir -p "$modules/$module"
  printf 'module %s {\n  umbrella header "%s"\n  export *\n}\n' "$module" \
    "$PWD/Sources/$module/include/$module.h" >"$modules/$module/module.modulemap"
  local objects=()
  for source in "Sources/$module"/*.c; do
    local object="$modules/$module/$(basename "$source" .c).o"
    "${CC:-cc}" -O2 -g -fPIC -I "Sources/$module/include" \
      $(pkg-config --cflags pangocairo pangoft2) -c "$source" -o "$object"
    objects+=("$object")
  done
  rm -f "$library"
  ar rcs "$library" "${objects[@]}"
}

# entry TARGET: the fuzzer's entry point (and, for a font target, the support they share).
entry() {
  case $1 in
    job) echo Fuzz/JobDecoderFuzzer.swift ;;
    favourites) echo Fuzz/FavouritesFuzzer.swift ;;
    run-manifest) echo Fuzz/RunManifestFuzzer.swift ;;
    shard-manifest) echo Fuzz/ShardManifestFuzzer.swift ;;
    font-file) echo Fuzz/FontFileFuzzer.swift Fuzz/FontFuzzSupport.swift ;;
    font-proofs) echo Fuzz/FontProofsFuzzer.swift Fuzz/FontFuzzSupport.swift ;;
    font-diff) echo Fuzz/FontDiffFuzzer.swift Fuzz/FontFuzzSupport.swift ;;
    colour-bitmaps) echo Fuzz/ColourBitmapsFuzzer.swift Fuzz/FontFuzzSupport.swift ;;
    layout-rules) echo Fuzz/LayoutRulesFuzzer.swift Fuzz/FontFuzzSupport.swift ;;
    web-font) echo Fuzz/WebFontFuzzer.swift ;;
    *) echo "fuzz: unknown target '$1' (${all_targets[*]})" >&2; exit 2 ;;
  esac
}

# libraries TARGET: what its entry point links, highest target first.
libraries() {
  case $1 in
    font-*|colour-*|layout-*|web-*)
      echo -lFontiDiff -lFontiFonts -lFontiText -lFontiModel -lFontiSupport -lCPangoMatch \
        "${font_libraries[@]}" -lyaml -lnettle ;;
    *) echo -lFontiModel -lFontiSupport -lyaml -lnettle ;;
  esac
}

# job_seeds FOLDER: job files at the decoder's limits, made here rather than kept (one is
# past 1 MiB): nesting at 64 levels and past, aliases that expand to 10,000 nodes and past,
# a valid job just under the size limit (20,000 families excluded) and one just over it.
job_seeds() {
  local folder=$1
  python3 - "$folder" <<'PY'
import sys
folder = sys.argv[1]
def write(name, text):
    with open(f"{folder}/{name}", "w") as f:
        f.write(text)
for depth in (63, 64, 65):
    write(f"limit-nesting-{depth}.yaml",
          "version: 1\ntexts: " + "[" * (depth - 1) + "x" + "]" * (depth - 1) + "\n")
for fan in (10, 22):
    lines = ["version: 1", "a: &a [" + ", ".join(["x"] * fan) + "]"]
    for name, inner in (("b", "a"), ("c", "b"), ("d", "c")):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{inner}"] * fan) + "]")
    write(f"limit-aliases-{fan}.yaml", "\n".join(lines) + "\n")
families = "".join(f"    - Family {i:05d} Sans\n" for i in range(20000))
job = "version: 1\ntitle: Near the limit\nfamilies:\n  include: ['*']\n  exclude:\n" + families
job += "#" * (1048576 - len(job.encode()) - 2) + "\n"
write("limit-size-under.yaml", job)
write("limit-size-over.yaml", job + "#\n")
PY
}

mkdir -p "$modules"
need_fonts=false
for target in "${targets[@]}"; do
  entry "$target" >/dev/null
  case $target in font-*|colour-*|layout-*|web-*) need_fonts=true ;; esac
done
target FontiSupport
target FontiModel
if $need_fonts; then
  c_target CPangoMatch
  target FontiText
  target FontiFonts
  target FontiDiff
fi

# Known bugs of the C libraries below us (Fuzz/asan.supp) are not the targets' failures.
export ASAN_OPTIONS="suppressions=$PWD/Fuzz/asan.supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
status=0
failures=()
for target in "${targets[@]}"; do
  out=.build/fuzz/$target
  mkdir -p "$out/corpus" "$out/artifacts" "$out/seeds"
  read -r -a main <<<"$(entry "$target")"
  binary="$out/fuzzer"
  if [ ! -x "$binary" ] || [ -n "$(find "${main[@]}" "$modules" -newer "$binary" | head -1)" ]; then
    echo "fuzz: building $binary"
    rm -f "$binary"
    read -r -a link <<<"$(libraries "$target")"
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -package-name fonti_batch \
      -module-name "Fuzz${target//-/}" -I "$modules" "${includes[@]}" "${main[@]}" \
      -L "$modules" "${link[@]}" \
      -o "$binary" 2>&1 | grep -v -e 'prohibited flag' -e 'Cannot export local symbol' || true
    [ -x "$binary" ] || { echo "fuzz: building $target failed" >&2; exit 2; }
  fi

  # Seeds, flattened into one folder (libFuzzer reads folders, not trees).
  rm -f "$out/seeds"/*
  seed_folders=()
  [ -d "Fuzz/seeds/$target" ] && seed_folders+=("Fuzz/seeds/$target")
  [ -d "Fuzz/corpus/$target" ] && seed_folders+=("Fuzz/corpus/$target")
  dict=Fuzz/json.dict
  max_len=16384
  case $target in
    job)
      seed_folders+=(Tests/Fixtures/Jobs)
      cp specimens.yaml.example "$out/seeds/example.yaml"
      job_seeds "$out/seeds"
      dict=Fuzz/yaml.dict
      max_len=$((1048576 + 4096)) ;;
    colour-bitmaps)
      seed_folders+=(Tests/Fixtures/ColourBitmaps)
      dict=Fuzz/font.dict
      max_len=131072 ;;
    layout-rules)
      seed_folders+=(Tests/Fixtures/Layout)
      dict=Fuzz/font.dict
      max_len=131072 ;;
    font-*)
      dict=Fuzz/font.dict
      max_len=131072 ;;
    web-font)
      seed_folders+=(Tests/Fixtures/WebFonts)
      dict=Fuzz/font.dict
      max_len=131072 ;;
  esac
  [ ${#seed_folders[@]} -eq 0 ] || find "${seed_folders[@]}" -type f \
    | while read -r f; do cp "$f" "$out/seeds/$(echo "$f" | tr '/' '_')"; done
  # The font targets' seeds: every font under Tests/ small enough to mutate quickly, once, but
  # those slow by design (Tests/Fixtures/SlowFonts: a cmap of every code point, bounded, yet
  # past the fuzzer's 10 s timeout under its sanitizer).
  case $target in
    font-*|colour-*|layout-*)
      find Tests -type f \( -name '*.ttf' -o -name '*.otf' -o -name '*.ttc' \) -size -129k \
        -not -path 'Tests/Fixtures/SlowFonts/*' \
        | sort | while read -r f; do cp "$f" "$out/seeds/$(sha256sum "$f" | cut -c1-16).font"; done ;;
  esac

  echo "fuzz: ${seconds}s on $target (corpus $out/corpus)"
  log="$out/last-run.log"
  touch "$out/started"
  result=0
  "$binary" "$out/corpus" "$out/seeds" -dict="$dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
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
