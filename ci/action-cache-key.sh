#!/usr/bin/env bash
# The output folder's cache key: the job file, the hashes of the fonts it can see, the tool's
# version and the versions of the libraries that draw (other versions draw other pixels).
set -euo pipefail
fonti="$GITHUB_ACTION_PATH/.build/release/fonti-batch"
output="${OUTPUT:-}"
if [ -z "$output" ]; then
  output="$(dirname "$JOB")/output"
  line="$(grep -E '^output:' "$JOB" | head -n 1 || true)"
  if [ -n "$line" ]; then
    output="$(dirname "$JOB")/$(echo "${line#output:}" | sed -e 's/#.*//' -e 's/^ *//' -e 's/ *$//' -e 's/^"//' -e 's/"$//')"
  fi
fi
libraries="$(pkg-config --modversion cairo pango harfbuzz freetype2 fontconfig | tr '\n' ' ')"
fonts="$(fc-list --format '%{file}\n' | sort | xargs -r sha256sum | sha256sum | cut -c1-16)"
job="$(sha256sum "$JOB" | cut -c1-16)"
version="$("$fonti" --version | tr ' ()' '---')"
prefix="fonti-batch-$version-$(echo "$libraries" | sha256sum | cut -c1-16)-"
{
  echo "output=$output"
  echo "prefix=$prefix"
  echo "key=$prefix$job-$fonts"
} >>"$GITHUB_OUTPUT"
