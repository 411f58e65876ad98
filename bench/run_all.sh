#!/usr/bin/env bash
# Runs every benchmark suite and the whole-process comparison, then rewrites bench/RESULTS.md
# with the figures next to their targets, the date, the machine and the build type.
# Usage: bench/run_all.sh   (after `cmake --build build`; `make bench` does both)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
out=bench/RESULTS.md
work=$(mktemp -d "${TMPDIR:-/tmp}/rblnsim_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE

suite() {  # suite NAME: runs build/bench/NAME into $work/NAME.json
  echo "run_all.sh: $1" >&2
  "$build/bench/$1" --benchmark_format=console --benchmark_out="$work/$1.json" \
    --benchmark_out_format=json >&2
}
# The simulator suite runs one benchmark family per process: a family must not inherit the heap
# that a 10^7-command run before it left behind (a traced CLI run starts fresh, too). The
# families' results are merged into one suite file. Every family runs in three processes and
# each size keeps its median run. A single run on a shared 2-core VM varied by a third (the
# linearity sizes), and a 10^5-launch window, timed once in a fresh process, by up to 3x: all of
# it the kernel's first writes of the window's memory (0.06-1.88 s of system time against
# 0.49-0.59 s of user time in three runs of one binary). That decided the verdicts more than the
# code did.
families=(BM_Matmul512 BM_Matmul8192 BM_EndToEnd512 BM_EndToEnd8192 BM_SystemCEventHop)
runs=3
for family in "${families[@]}"; do
  for ((run = 1; run <= runs; ++run)); do
    echo "run_all.sh: rblnsim_sim_bench $family ($run of $runs)" >&2
    "$build/bench/rblnsim_sim_bench" --benchmark_filter="^$family/" --benchmark_format=console \
      --benchmark_out="$work/sim_${family}_$run.json" --benchmark_out_format=json >&2
  done
done
python3 - "$work" "${families[@]}" <<'MERGE'
import glob, json, sys
work = sys.argv[1]
merged = None
benchmarks = []
for family in sys.argv[2:]:
    runs = [json.load(open(p)) for p in sorted(glob.glob(f"{work}/sim_{family}_*.json"))]
    merged = merged or runs[0]
    for i, bench in enumerate(runs[0]["benchmarks"]):
        # The run whose wall time is the median of the family's runs of this size.
        same = sorted((r["benchmarks"][i] for r in runs), key=lambda b: b["real_time"])
        chosen = dict(same[len(same) // 2])
        if len(same) > 1:
            chosen["runs_median_of"] = len(same)
        benchmarks.append(chosen)
merged["benchmarks"] = benchmarks
json.dump(merged, open(f"{work}/rblnsim_sim_bench.json", "w"))
MERGE
suite rblnsim_bridge_bench
suite rblnsim_trace_bench
bash bench/compare.sh "$work/compare.json"

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")
python3 bench/results_md.py --build-type "${build_type:-unknown}" \
  --suite "Simulator (bench/sim_bench.cc)=$work/rblnsim_sim_bench.json" \
  --suite "Producer export and bridge projection (bench/bridge_bench.cc)=$work/rblnsim_bridge_bench.json" \
  --suite "Chrome trace writer, importer, check and analyze (bench/trace_*_bench.cc, bench/analysis_bench.cc)=$work/rblnsim_trace_bench.json" \
  --compare "$work/compare.json" >"$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
