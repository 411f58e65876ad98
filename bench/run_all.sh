#!/usr/bin/env bash
# Runs the benchmark suites and rewrites bench/RESULTS.md with the figures, the date and the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/RESULTS.md
json=$(mktemp)
trap 'rm -f "$json"' EXIT
SC_COPYRIGHT_MESSAGE=DISABLE build/bench/rblnsim_sim_bench --benchmark_format=json --benchmark_out="$json" \
  --benchmark_out_format=json >/dev/null
python3 bench/results_md.py "$json" > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
