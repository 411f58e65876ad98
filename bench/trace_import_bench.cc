// Importer speed on a large trace written in the same run (shared_trace_file.h, > 500 MB by
// default): MB of JSON and trace events per second through trace::ImportChromeTrace, from a file
// in the page cache (the generator just wrote it), so the figure is the importer's, not the disk's.
#include <benchmark/benchmark.h>

#include <optional>

#include "bench/shared_trace_file.h"
#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::bench {
namespace {

void BM_ImportChromeTrace(benchmark::State& state) {
  const SharedTraceFile& file = SharedTrace();
  if (file.path.empty()) {
    state.SkipWithError("cannot write the benchmark trace");
    return;
  }
  int64_t events = 0;
  // The previous result is freed outside the timing: releasing millions of events is the
  // caller's cost, not the importer's.
  std::optional<StatusOr<trace::ImportResult>> result;
  for (auto _ : state) {
    state.PauseTiming();
    result.reset();
    state.ResumeTiming();
    result.emplace(trace::ImportChromeTrace(file.path));
    if (!result->ok()) {
      state.SkipWithError(result->status().message().c_str());
      return;
    }
    events = (*result)->events_read;
    benchmark::DoNotOptimize((*result)->trace.events.data());
  }
  SetReadCounters(state, file.bytes, events);
}
// Each import of > 500 MB takes about a second; three repetitions are plenty.
BENCHMARK(BM_ImportChromeTrace)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
