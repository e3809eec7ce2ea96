#!/usr/bin/env bash
# Runs the job with the action's inputs; the exit status is the run's.
set -euo pipefail
arguments=(run "$JOB" -o "$OUTPUT")
if [ -n "${SHARD:-}" ]; then arguments+=(--shard "$SHARD"); fi
case "${STRICT:-true}" in
  true) arguments+=(--strict) ;;
  false | "") ;;
  *) arguments+=("--strict=$STRICT") ;;
esac
read -r -a reports <<<"${REPORTS:-}"
for report in "${reports[@]}"; do
  mkdir -p "$(dirname "${report#*=}")"
  arguments+=(--report "$report")
done
echo "output=$OUTPUT" >>"$GITHUB_OUTPUT"
fonti-batch "${arguments[@]}"
