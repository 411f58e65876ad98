#!/usr/bin/env bash
# Where the time and the memory go on the paths whose targets bench/RESULTS.md reports: perf on
# the simulator alone and end to end (simulate + producer export + bridge), massif on a traced
# `rblnsim run`. Rewrites bench/PROFILE.md with the date and the machine. Needs perf and valgrind
# (`make profile` installs them through tools/setup.sh --profiling).
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/PROFILE.md
bench=build/bench/rblnsim_sim_bench
launches=${PROFILE_LAUNCHES:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE

for tool in perf valgrind ms_print; do
  command -v "$tool" >/dev/null || { echo "profile: $tool not found (run tools/setup.sh --profiling)" >&2; exit 2; }
done
[[ -x $bench && -x build/bin/rblnsim ]] || { echo "profile: build first (make build)" >&2; exit 2; }

echo "profile: simulator alone (perf, flat)" >&2
perf record -q -F 2000 -o "$tmp/sim.data" -- "$bench" --benchmark_filter='^BM_Matmul512/100000/' \
  >/dev/null 2>&1
perf report -i "$tmp/sim.data" --no-children --sort dso,sym --stdio --percent-limit 0 \
  2>/dev/null >"$tmp/sim.txt"

echo "profile: end to end (perf, call graph)" >&2
perf record -q -F 300 --call-graph dwarf,32768 -o "$tmp/e2e.data" -- "$bench" \
  --benchmark_filter='^BM_EndToEnd512/100000/' >/dev/null 2>&1
perf report -i "$tmp/e2e.data" --children --sort sym --stdio -g none --percent-limit 0 \
  2>/dev/null >"$tmp/e2e.txt"

echo "profile: rblnsim run with $launches launches and --trace (massif)" >&2
cat >"$tmp/launches.yaml" <<EOF
scenario: profile_launches
description: ${launches} back-to-back 512x512 fp16 matmuls, profiled
seed: 1
device:
  variant: rebel100
env:
  RBLN_PROFILER: "1"
  TORCH_RBLN_DEPLOY: "ON"
workload:
  activities: [cpu, privateuse1]
  tensors:
    x: {shape: [512, 512], dtype: fp16, device: rbln, init: randn}
  warmup:
    - {op: matmul, inputs: [x, x], out: y}
  profile:
    - repeat: ${launches}
      steps:
        - {op: matmul, inputs: [x, x], out: y}
    - {synchronize: true}
EOF
RBLN_PROFILER=1 valgrind -q --tool=massif --depth=16 --massif-out-file="$tmp/massif.out" \
  build/bin/rblnsim run "$tmp/launches.yaml" --trace "$tmp/trace.json" >/dev/null

echo "profile: rblnsim check and analyze on a traced run of $((launches * 5)) launches (perf, flat)" >&2
RBLN_PROFILER=1 build/bin/rblnsim run "$tmp/launches.yaml" --set "workload.profile.0.repeat=$((launches * 5))" \
  --trace "$tmp/big.json" >/dev/null
for command in check analyze; do
  perf record -q -F 2000 -o "$tmp/$command.data" -- build/bin/rblnsim "$command" "$tmp/big.json" \
    >/dev/null 2>&1 || true  # check exits 1 on a violation; the profile is what matters here
  perf report -i "$tmp/$command.data" --no-children --sort dso,sym --stdio --percent-limit 0 \
    2>/dev/null >"$tmp/$command.txt"
done
echo "$(stat -c %s "$tmp/big.json")" >"$tmp/big.bytes"

python3 bench/profile_md.py --dir "$tmp" --launches "$launches" >"$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
