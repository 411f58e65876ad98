// The simdjson walk (simdjson_walk.h) on its own, over the file the importer suite reads
// (shared_trace_file.h). import_vs_walk_bench.cc pairs it with the importer for the ratio the
// target judges.
#include <benchmark/benchmark.h>

#include "bench/shared_trace_file.h"
#include "bench/simdjson_walk.h"

namespace rblnsim::bench {
namespace {

void BM_SimdjsonWalk(benchmark::State& state) {
  const SharedTraceFile& file = SharedTrace();
  if (file.path.empty()) {
    state.SkipWithError("cannot write the benchmark trace");
    return;
  }
  simdjson::ondemand::parser parser;
  int64_t events = 0;
  for (auto _ : state) {
    const std::optional<WalkResult> walked = WalkTraceFile(file.path, &parser);
    if (!walked) {
      state.SkipWithError("cannot walk the benchmark trace");
      return;
    }
    events = walked->events;
    benchmark::DoNotOptimize(walked->checksum);
  }
  SetReadCounters(state, file.bytes, events);
}
BENCHMARK(BM_SimdjsonWalk)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
