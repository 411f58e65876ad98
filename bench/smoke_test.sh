#!/usr/bin/env bash
# Keeps `make bench` from rotting between runs: the same scripts on small inputs, in seconds.
# compare.sh on a 2,000-launch simulated trace (which also checks that rblnsim and the Python
# reference agree), the same agreement on a copy broken by mutate_trace.py (so violation counts
# and spread-out percentiles are compared, not only zeros), the importer/analysis suite on a
# 2 MB trace, and results_md.py on both.
# Usage: bench/smoke_test.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:?usage: smoke_test.sh BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rblnsim_bench_smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT

BUILD_DIR=$build RBLNSIM_COMPARE_MB=2 RBLNSIM_SIM_LAUNCHES=2000 bash bench/compare.sh "$work/compare.json"

RBLN_PROFILER=1 SC_COPYRIGHT_MESSAGE=DISABLE "$build/bin/rblnsim" run \
  bench/scenarios/million_launches.yaml --set workload.profile.0.repeat=1 \
  --trace "$work/sim.json" --bridge c-abi >/dev/null
python3 bench/mutate_trace.py "$work/sim.json" "$work/broken.json"
"$build/bin/rblnsim" check "$work/broken.json" --json "$work/check.json" >/dev/null || true
"$build/bin/rblnsim" analyze "$work/broken.json" --json "$work/analyze.json" >/dev/null
python3 bench/reference_check.py "$work/broken.json" --json "$work/reference.json" >/dev/null || true
python3 bench/compare_report.py --dir "$work" --figures-only
RBLNSIM_BENCH_TRACE_MB=2 "$build/bench/rblnsim_trace_bench" --benchmark_filter='Import|Walk|Check|Analyze' \
  --benchmark_out="$work/trace.json" --benchmark_out_format=json >/dev/null
SC_COPYRIGHT_MESSAGE=DISABLE "$build/bench/rblnsim_sim_bench" \
  --benchmark_filter='^BM_Matmul512/(10000|100000)/|^BM_EndToEnd512/1000/|^BM_SystemCEventHop' \
  --benchmark_min_time=0.05 --benchmark_out="$work/sim.json" --benchmark_out_format=json >/dev/null 2>&1
python3 bench/results_md.py --build-type test --suite "Simulator=$work/sim.json" \
  --suite "Trace=$work/trace.json" --compare "$work/compare.json" >"$work/RESULTS.md"
for want in "## Targets" "Importer on a >= 500 MB trace" "bare simdjson On-Demand walk" "BM_CheckContract" "BM_AnalyzeTrace" \
            "## Whole-process comparison" "all equal" "Simulation end to end" \
            "against the bare SystemC event-hop rate" "BM_EndToEnd512/1000" "Wall time linear" \
            '`rblnsim diff` of a pair, wall' '| rblnsim diff (this trace' "2 threads:" "faster of two runs" \
            'vs `python3 -c json.load` of the file alone' "with --no-trace" \
            "## Why the open targets are not met (profiles)"; do
  grep -qF "$want" "$work/RESULTS.md" || { echo "RESULTS.md lacks '$want'" >&2; cat "$work/RESULTS.md" >&2; exit 1; }
done
echo "bench smoke test: ok"
