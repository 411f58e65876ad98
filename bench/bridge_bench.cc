// The path device records take to become trace events in a profiled run, on N synthetic slices
// (synthetic_trace.h): the producer materialises the C-ABI export (cycles -> steady ns through
// the clock fit, launch_id annotations), the bridge's sink deep-copies it, and the converter
// projects it into rows and PrivateUse1 events with ac2g flows. Reported as device slices/s for
// each stage and for the whole path.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench/synthetic_trace.h"
#include "profiler/abi/export_builder.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/bridge/slice_converter.h"

namespace rblnsim::bench {
namespace {

constexpr double kNominalGhz = 1.0;

// Steady -> system offset and a capture window that holds every slice.
bridge::ConvertWindow WholeWindow() {
  bridge::ConvertWindow window;
  window.offset_ns = 1'780'000'000'000'000'000 - 1'000'000'000;
  window.capture_start_ns = 0;
  window.capture_end_ns = INT64_MAX;
  return window;
}

void SetSliceRate(benchmark::State& state) {
  state.counters["slices_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["slices"] = static_cast<double>(state.range(0));
}

void BM_ProducerExport(benchmark::State& state) {
  const abi::ProducerCapture capture = MakeSyntheticCapture(state.range(0));
  for (auto _ : state) {
    abi::ExportBuilder builder(capture, kNominalGhz);
    benchmark::DoNotOptimize(builder.view().slices);
  }
  SetSliceRate(state);
}

void BM_BridgeCopyAndConvert(benchmark::State& state) {
  const abi::ProducerCapture capture = MakeSyntheticCapture(state.range(0));
  const abi::ExportBuilder builder(capture, kNominalGhz);
  for (auto _ : state) {
    const bridge::CopiedExport copy = bridge::CopyExport(builder.view());
    const bridge::BridgeResult result = bridge::ConvertExport(copy, WholeWindow());
    benchmark::DoNotOptimize(result.events.data());
  }
  SetSliceRate(state);
}

void BM_ExportAndBridge(benchmark::State& state) {
  const abi::ProducerCapture capture = MakeSyntheticCapture(state.range(0));
  uint64_t kept = 0;
  for (auto _ : state) {
    const abi::ExportBuilder builder(capture, kNominalGhz);
    const bridge::CopiedExport copy = bridge::CopyExport(builder.view());
    const bridge::BridgeResult result = bridge::ConvertExport(copy, WholeWindow());
    kept = result.stats.slices_kept;
  }
  SetSliceRate(state);
  // Markers are slices of the export too; every one of them must survive the projection.
  state.counters["slices_kept"] = static_cast<double>(kept);
  if (kept < static_cast<uint64_t>(state.range(0)))
    state.SkipWithError("the bridge dropped device slices");
}

BENCHMARK(BM_ProducerExport)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_BridgeCopyAndConvert)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ExportAndBridge)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
