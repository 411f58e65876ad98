#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each and fails if any of them finds a crash, a sanitizer
# report, a broken contract (the entry functions abort on one), a slow input or a memory blow-up.
#
#   tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS
#
# Each target starts from its committed corpus (tests/fuzz/corpus/<target>) plus the committed
# regression inputs, copied to a temporary directory so the run never modifies the checkout.
# Inputs that fail are kept in BUILD_DIR/fuzz-artifacts/<target>/; fix the bug, then commit the
# input to tests/fuzz/regressions/<target>/ so rblnsim_fuzz_regressions_test replays it forever.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build_dir=$1
seconds=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rblnsim-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# target:max_len. The trace seeds include a 16 KB simulated trace; scenarios are a few KB.
targets=(scenario_loader_fuzzer:16384 trace_import_fuzzer:32768 kineto_consumer_fuzzer:16384
         capture_compare_fuzzer:32768 cli_flags_fuzzer:1024)

# Each libFuzzer process uses one core: the targets run side by side, as many at a time as there
# are cores (RBLNSIM_FUZZ_JOBS overrides), and report in the order listed.
jobs=${RBLNSIM_FUZZ_JOBS:-$(nproc)}

# run_target TARGET MAX_LEN: fuzzes one target; its report goes to $work/TARGET.report, and a
# failure leaves $work/TARGET.failed (a status file, since `wait -n` may already have reaped it).
run_target() {
  local target=$1 max_len=$2
  local binary=$build_dir/fuzz/$target
  local corpus=$work/$target/corpus
  local artifacts=$build_dir/fuzz-artifacts/$target
  local report=$work/$target.report log=$work/$target.log
  mkdir -p "$corpus" "$artifacts"
  cp "$here/corpus/$target/"* "$corpus/"
  # git keeps no empty directories: a target without regressions has no folder in a clone.
  if [[ -d $here/regressions/$target ]]; then
    find "$here/regressions/$target" -type f ! -name 'README*' -exec cp {} "$corpus/" \;
  fi
  local options=(-max_total_time="$seconds" -max_len="$max_len" -timeout=25 -rss_limit_mb=2048
                 -artifact_prefix="$artifacts/" -print_final_stats=1)
  if [[ -f $here/$target.dict ]]; then
    options+=(-dict="$here/$target.dict")
  fi
  local start=$SECONDS result=ok
  "$binary" "${options[@]}" "$corpus" >"$log" 2>&1 || result=FAILED
  local execs inputs
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$' ||
          echo "?")
  inputs=$(find "$corpus" -type f | wc -l)
  echo "run_fuzzers: $target $result: $execs executions in $((SECONDS - start)) s," \
       "corpus $inputs inputs" >"$report"
  if [[ $result != ok ]]; then
    # The sanitizer or contract report and the saved input.
    {
      grep -E -A40 '^==[0-9]+==ERROR|contract violated|SUMMARY|deadly signal|Test unit written' \
        "$log" | head -n 80 || tail -n 60 "$log"
      echo "run_fuzzers: failing inputs are in $artifacts/"
    } >>"$report"
    touch "$work/$target.failed"
  fi
}

for entry in "${targets[@]}"; do
  binary=$build_dir/fuzz/${entry%%:*}
  if [[ ! -x $binary ]]; then
    echo "run_fuzzers: $binary is missing (cmake --build $build_dir --target rblnsim_fuzzers)" >&2
    exit 1
  fi
done

running=0
for entry in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "${entry%%:*}" "${entry##*:}" &
  running=$((running + 1))
done
wait

status=0
for entry in "${targets[@]}"; do
  target=${entry%%:*}
  if [[ -e $work/$target.failed ]]; then
    status=1
    cat "$work/$target.report" >&2
  else
    cat "$work/$target.report"
  fi
done
exit "$status"
