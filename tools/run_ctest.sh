#!/usr/bin/env bash
# Runs ctest for one build tree and fails unless it reports a positive number of tests run:
# a test binary that silently ran nothing must not pass.
set -euo pipefail
build_dir=$1
preset=$2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
ctest --preset "$preset" --test-dir "$build_dir" 2>&1 | tee "$log" || status=$?
summary=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$summary")
if [[ -z $summary || $total -eq 0 ]]; then
  echo "run_ctest: ctest in $build_dir reported no tests run" >&2
  exit 1
fi
echo "run_ctest: $build_dir ran $total tests"
exit "$status"
