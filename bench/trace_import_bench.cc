// Importer speed on a large trace written in the same run (shared_trace_file.h, > 500 MB by
// default): MB of JSON and trace events per second through trace::ImportChromeTrace, from a file
// in the page cache (the generator read it through), so the figure is the importer's, not the
// disk's. BM_ImportChromeTraceCold reads it from the disk each time: a trace copied from a card's
// host, or one written past the page cache, is read so.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <optional>
#include <string>

#include "bench/shared_trace_file.h"
#include "bench/synthetic_trace.h"
#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::bench {
namespace {

// Evicts the file's pages from the page cache (they are clean, so the kernel drops them).
bool DropFromPageCache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  const bool dropped = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return dropped;
}

// The argument is the importer's thread count: 1 is the single-threaded figure the target
// judges against the simdjson walk, 2 adds the second thread that reads ahead. |cold|: the file
// is dropped from the page cache before each import, and read back into it after the last.
void ImportEachIteration(benchmark::State& state, bool cold) {
  const SharedTraceFile& file = SharedTrace();
  if (file.path.empty()) {
    state.SkipWithError("cannot write the benchmark trace");
    return;
  }
  int64_t events = 0;
  // The previous result is freed outside the timing: releasing millions of events is the
  // caller's cost, not the importer's.
  std::optional<StatusOr<trace::ImportResult>> result;
  trace::ImportOptions options;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    result.reset();
    if (cold && !DropFromPageCache(file.path)) {
      state.SkipWithError("cannot drop the benchmark trace from the page cache");
      return;
    }
    state.ResumeTiming();
    result.emplace(trace::ImportChromeTrace(file.path, options));
    if (!result->ok()) {
      state.SkipWithError(result->status().message().c_str());
      return;
    }
    events = (*result)->events_read;
    benchmark::DoNotOptimize((*result)->trace.events.data());
  }
  if (cold) {
    result.reset();
    ReadIntoPageCache(file.path);  // the next benchmark finds the file cached again
  }
  SetReadCounters(state, file.bytes, events);
}

void BM_ImportChromeTrace(benchmark::State& state) {
  ImportEachIteration(state, /*cold=*/false);
}
// Each import of > 500 MB takes about a second; three repetitions are plenty.
BENCHMARK(BM_ImportChromeTrace)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ImportChromeTraceCold(benchmark::State& state) {
  ImportEachIteration(state, /*cold=*/true);
}
BENCHMARK(BM_ImportChromeTraceCold)
    ->Arg(2)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace rblnsim::bench
