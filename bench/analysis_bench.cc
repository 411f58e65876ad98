// What `rblnsim check` and `rblnsim analyze` compute after the import, over the shared imported
// trace (shared_trace_file.h): trace events per second through the contract checks, and through
// the analyze pipeline (trace index, overhead detectors, launch latency). The import itself is
// measured in trace_import_bench.cc; the whole processes are compared in compare.sh.
#include <benchmark/benchmark.h>

#include "bench/shared_trace_file.h"
#include "profiler/analysis/contract_checks.h"
#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/index/trace_index.h"

namespace rblnsim::bench {
namespace {

void SetEventRate(benchmark::State& state, int64_t events) {
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(events) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["events"] = static_cast<double>(events);
}

void BM_CheckContract(benchmark::State& state) {
  const trace::ImportResult& imported = SharedImport();
  for (auto _ : state) {
    const analysis::CheckReport report = analysis::CheckContract(imported.trace, {});
    if (!report.passed) {
      state.SkipWithError("the synthetic trace fails the contract checks");
      return;
    }
  }
  SetEventRate(state, imported.events_read);
}
BENCHMARK(BM_CheckContract)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AnalyzeTrace(benchmark::State& state) {
  const trace::ImportResult& imported = SharedImport();
  int64_t launches = 0;
  for (auto _ : state) {
    auto index = index::TraceIndex::Build(imported.trace);
    if (!index.ok()) {
      state.SkipWithError(index.status().message().c_str());
      return;
    }
    const analysis::OverheadReport overhead = analysis::DetectOverhead(*index);
    const analysis::LatencyReport latency =
        analysis::AnalyzeLaunchLatency(*index, analysis::LatencyOptions());
    benchmark::DoNotOptimize(overhead.launches);
    launches = static_cast<int64_t>(latency.launches.size());
  }
  SetEventRate(state, imported.events_read);
  state.counters["launches"] = static_cast<double>(launches);
}
BENCHMARK(BM_AnalyzeTrace)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
