// Scores the trace-only analyses against the simulator's ground truth (`rblnsim run --truth`):
// every true fallback, recompile, host round trip and NaN/Inf scan must be found with the right
// reason and nothing else reported, and each launch's submission latency read from the trace
// must equal the truth within a tolerance (1 ns: the trace's timestamps are exact ns, the truth's
// are the simulator's rounded to ns).
#ifndef RBLNSIM_PROFILER_ANALYSIS_TRUTH_SCORE_H_
#define RBLNSIM_PROFILER_ANALYSIS_TRUTH_SCORE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/analysis/truth_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

struct SignalScore {
  std::string signal;  // "fallback", "recompile", "round_trip", "nan_inf_scan"
  int64_t truth = 0;
  int64_t found = 0;
  int64_t missed = 0;
  int64_t false_signals = 0;
  std::vector<std::string> mismatches;  // "missed: aten::add dtype-not-fp16", at most a few
};

struct TruthScore {
  std::vector<SignalScore> signals;
  int64_t launches_truth = 0;  // launches that did not fail
  int64_t launches_matched = 0;
  int64_t launches_missing = 0;  // in the truth, not measurable in the trace
  int64_t launches_extra = 0;    // measured in the trace, not in the truth
  int64_t latency_max_abs_error_ns = 0;
  int64_t latency_over_tolerance = 0;
  int64_t latency_tolerance_ns = 1;
  bool passed = true;
};

TruthScore ScoreAgainstTruth(const TruthFile& truth,
                             const LatencyReport& latency,
                             const OverheadReport& overhead,
                             int64_t latency_tolerance_ns = 1);

std::string FormatTruthScoreText(const TruthScore& score);
void WriteTruthScoreJson(const TruthScore& score, trace::JsonWriter* json);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_TRUTH_SCORE_H_
