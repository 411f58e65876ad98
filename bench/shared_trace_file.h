// The large trace the importer and analysis suites share: generated once per process with the
// project's own writer (synthetic_trace.h), removed when the process exits, so no benchmark run
// leaves hundreds of MB behind. Its size is RBLNSIM_BENCH_TRACE_MB (default 520, so the importer
// is measured on more than 500 MB); smoke runs set it small.
#ifndef RBLNSIM_BENCH_SHARED_TRACE_FILE_H_
#define RBLNSIM_BENCH_SHARED_TRACE_FILE_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::bench {

struct SharedTraceFile {
  std::string path;  // empty if it could not be written
  uint64_t bytes = 0;
  int64_t launches = 0;
};

const SharedTraceFile& SharedTrace();

// The shared file imported once (for the suites that start from an imported trace). Aborts the
// process if the import fails: every figure after that would be meaningless.
const trace::ImportResult& SharedImport();

// The counters of a suite that reads |bytes| of the shared file per iteration: the rates that
// RESULTS.md compares, and the input's size.
inline void SetReadCounters(benchmark::State& state, uint64_t bytes, int64_t events) {
  const double iterations = static_cast<double>(state.iterations());
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(bytes) * iterations / 1e6,
                                                  benchmark::Counter::kIsRate);
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(events) * iterations, benchmark::Counter::kIsRate);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["events"] = static_cast<double>(events);
}

}  // namespace rblnsim::bench

#endif  // RBLNSIM_BENCH_SHARED_TRACE_FILE_H_
