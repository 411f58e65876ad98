// Chrome trace writer speed: bytes and events serialized per second for a synthetic trace shaped
// like a simulated run (synthetic_trace.h). Two sinks: one that only counts (the serializer's own
// cost) and the file path `rblnsim run --trace` takes (buffered writes, fsync, atomic rename).
#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include "bench/synthetic_trace.h"
#include "profiler/trace/chrome_trace_writer.h"

namespace rblnsim::bench {
namespace {

class DiscardSink final : public trace::OutputSink {
 public:
  void Append(std::string_view bytes) override { bytes_ += bytes.size(); }
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_ = 0;
};

// Events as a reader counts them: one per trace event line (X events, flows, metadata rows).
int64_t TraceEventLines(const trace::Trace& t) {
  int64_t lines =
      static_cast<int64_t>(t.processes.size()) * 3 + static_cast<int64_t>(t.threads.size()) * 2 + 4;
  for (const trace::Event& e : t.events)
    lines += e.flow_role == trace::FlowRole::kNone ? 1 : 2;
  return lines;
}

void SetRates(benchmark::State& state, uint64_t bytes, int64_t events) {
  const double iterations = static_cast<double>(state.iterations());
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(bytes) * iterations / 1e6,
                                                  benchmark::Counter::kIsRate);
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(events) * iterations, benchmark::Counter::kIsRate);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["events"] = static_cast<double>(events);
}

void BM_ChromeTraceWriterSerialize(benchmark::State& state) {
  const trace::Trace t = MakeSyntheticTrace(state.range(0));
  uint64_t bytes = 0;
  for (auto _ : state) {
    DiscardSink sink;
    const Status status = trace::WriteChromeTrace(t, sink);
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      return;
    }
    bytes = sink.bytes();
  }
  SetRates(state, bytes, TraceEventLines(t));
}
BENCHMARK(BM_ChromeTraceWriterSerialize)->Arg(50'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ChromeTraceWriterFile(benchmark::State& state) {
  const trace::Trace t = MakeSyntheticTrace(state.range(0));
  const char* dir = std::getenv("TMPDIR");
  const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
                           "/rblnsim_writer_bench_" + std::to_string(::getpid()) + ".json";
  for (auto _ : state) {
    const Status status = trace::WriteChromeTrace(t, path);
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      break;
    }
  }
  struct stat st {};
  const uint64_t bytes = ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  ::unlink(path.c_str());
  SetRates(state, bytes, TraceEventLines(t));
}
BENCHMARK(BM_ChromeTraceWriterFile)->Arg(50'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
