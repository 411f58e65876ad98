// The importer against its anchor, paired. The target is a ratio (importer >= 0.8x the simdjson
// walk, one thread), and the two figures of separate benchmarks drift with the machine's load:
// on the 2-core VM the walk alone read 349 MB/s in one run and 497-560 MB/s in others on the same
// day. So each iteration imports the shared file and walks it back to back, alternating which
// goes first, and the ratio is taken per pair (each side's faster of two runs); RESULTS.md
// judges the median of the pairs. Each import and each judged walk starts cold (its own
// buffers); the ratio to a walk whose parser is already warm from the walk before is reported
// too.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "bench/shared_trace_file.h"
#include "bench/simdjson_walk.h"
#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::bench {
namespace {

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

template <typename Fn>
double SecondsOf(Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs |once(&seconds)| twice; the faster run's seconds, or false if either run failed.
template <typename Once>
bool FasterOfTwo(Once& once, double* seconds) {
  double first = 0;
  double second = 0;
  if (!once(&first) || !once(&second))
    return false;
  *seconds = std::min(first, second);
  return true;
}

void BM_ImportVsWalk(benchmark::State& state) {
  const SharedTraceFile& file = SharedTrace();
  if (file.path.empty()) {
    state.SkipWithError("cannot write the benchmark trace");
    return;
  }
  trace::ImportOptions options;
  options.threads = 1;
  std::vector<double> import_s, walk_s, warm_walk_s, ratios, warm_ratios;
  for (auto _ : state) {
    std::optional<StatusOr<trace::ImportResult>> imported;
    std::optional<WalkResult> walked;
    // The judged walk has a parser of its own, as each import starts from nothing; a second walk
    // with the same parser, its buffers for a file this size already allocated and faulted in,
    // is shown beside it.
    std::optional<simdjson::ondemand::parser> parser;
    double import_time = 0;
    double walk_time = 0;
    double warm_walk_time = 0;
    // Each side runs twice and its faster run counts: a single cold walk read anywhere from 379
    // to 487 MB/s across one evening's runs while the importer held 327-339 MB/s, so one run a
    // side let the anchor's luck decide the ratio.
    auto import_once = [&](double* seconds) {
      *seconds = SecondsOf([&] { imported.emplace(trace::ImportChromeTrace(file.path, options)); });
      const bool ok = imported->ok();
      // Freed outside the timing: releasing millions of events is the caller's cost, and a walk
      // should not run beside a resident trace.
      imported.reset();
      return ok;
    };
    auto import = [&] { return FasterOfTwo(import_once, &import_time); };
    auto walk_cold = [&](double* seconds) {
      parser.emplace();
      *seconds = SecondsOf([&] { walked = WalkTraceFile(file.path, &*parser); });
      return walked.has_value();
    };
    auto walks = [&] {
      if (!FasterOfTwo(walk_cold, &walk_time))
        return false;
      warm_walk_time = SecondsOf([&] { walked = WalkTraceFile(file.path, &*parser); });
      return walked.has_value();
    };
    const bool ok = ratios.size() % 2 == 0 ? import() && walks() : walks() && import();
    if (!ok) {
      state.SkipWithError("cannot import or walk the benchmark trace");
      return;
    }
    benchmark::DoNotOptimize(walked->checksum);
    state.SetIterationTime(import_time + walk_time);
    import_s.push_back(import_time);
    walk_s.push_back(walk_time);
    warm_walk_s.push_back(warm_walk_time);
    ratios.push_back(walk_time / import_time);  // = import MB/s over walk MB/s
    warm_ratios.push_back(warm_walk_time / import_time);
  }
  const double mb = static_cast<double>(file.bytes) / 1e6;
  state.counters["pairs"] = static_cast<double>(ratios.size());
  state.counters["ratio_median"] = Median(ratios);
  state.counters["ratio_min"] = *std::min_element(ratios.begin(), ratios.end());
  state.counters["ratio_max"] = *std::max_element(ratios.begin(), ratios.end());
  state.counters["warm_ratio_median"] = Median(warm_ratios);
  state.counters["import_MB_per_s"] = mb / Median(import_s);
  state.counters["walk_MB_per_s"] = mb / Median(walk_s);
  state.counters["warm_walk_MB_per_s"] = mb / Median(warm_walk_s);
  state.counters["bytes"] = static_cast<double>(file.bytes);
}
// Five pairs of two runs a side, about a second each on > 500 MB: an odd count, so the median is
// one pair's.
BENCHMARK(BM_ImportVsWalk)->Iterations(5)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace rblnsim::bench
