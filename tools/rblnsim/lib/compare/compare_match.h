// Lines a simulated run up with a captured one. Launches are matched in order per launching op,
// by their Input Dims when both runs recorded them, so a launch one side lacks (dropped, extra) is
// stepped over instead of shifting every later pair (without shapes: the k-th aten::mm launch of
// one run with the k-th of the other); inside a matched launch,
// device slices are matched by command key ("mm_1") when both launches hold the same keys, else in
// start order among commands of a compatible engine kind (a DMA with a DMA; the current dialect's
// compute lane with matmul or general compute), because command names change between compiler
// releases and a card numbers them its own way; the captured side's lane then names the class.
// The result holds both sides of every quantity and the differences beyond a tolerance.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_COMPARE_MATCH_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_COMPARE_MATCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/analysis/launch_latency.h"
#include "tools/rblnsim/lib/compare/compare_digest.h"

namespace rblnsim::cli {

struct LaunchPair {
  size_t sim = 0;  // indices into the digests' launches
  size_t hw = 0;
  std::string op;
  int64_t sim_device_ns = 0;
  int64_t hw_device_ns = 0;
};

struct CommandPair {
  size_t launch_pair = 0;  // index into Comparison::launch_pairs
  std::string key;         // the simulated slice's command key
  std::string engine_class;
  EngineKind kind = EngineKind::kOther;
  int64_t sim_ns = 0;
  int64_t hw_ns = 0;
};

struct OpComparison {
  std::string op;
  int64_t sim_launches = 0;
  int64_t hw_launches = 0;
  int64_t matched = 0;
  // Matched launches that show no device slice on that side: a lost record, not 0 µs of work.
  // They are left out of both means and reported.
  int64_t sim_without_device = 0;
  int64_t hw_without_device = 0;
  double sim_device_ns = 0;  // mean device time per matched launch with device work on both sides
  double hw_device_ns = 0;
  analysis::Percentiles sim_latency;  // over the op's launches with device work
  analysis::Percentiles hw_latency;
};

struct ClassComparison {
  std::string engine_class;
  EngineKind kind = EngineKind::kOther;
  int64_t commands = 0;  // matched
  double sim_ns = 0;     // mean per matched command
  double hw_ns = 0;
};

struct HostComparison {
  std::string name;
  int64_t sim_count = 0;
  int64_t hw_count = 0;
  double sim_self_ns = 0;  // mean per call
  double hw_self_ns = 0;
};

struct CountDiff {
  std::string name;
  int64_t sim = 0;
  int64_t hw = 0;
};

// One quantity outside the tolerance. kind is one of: launches, device_time_op,
// device_time_class, latency, device_events, event_names, host_calls, host_self_time, fallbacks,
// recompiles.
struct Difference {
  std::string kind;
  std::string what;
  double sim = 0;
  double hw = 0;
};

// One lane's device time on each side, over every slice of every launch (matched or not).
struct LaneComparison {
  std::string lane;  // the engine class: "Neural DMA", "copy", ...
  EngineKind kind = EngineKind::kOther;
  int64_t sim_slices = 0;
  int64_t hw_slices = 0;
  int64_t sim_ns = 0;
  int64_t hw_ns = 0;
};

struct Comparison {
  std::vector<LaunchPair> launch_pairs;  // in simulated launch order
  std::vector<CommandPair> commands;
  int64_t unmatched_sim_launches = 0;
  int64_t unmatched_hw_launches = 0;
  int64_t unmatched_sim_slices = 0;
  int64_t unmatched_hw_slices = 0;
  std::vector<OpComparison> ops;         // by descending hardware device time
  std::vector<ClassComparison> classes;  // by engine kind, then class
  std::vector<LaneComparison> lanes;     // every lane of either side, by name
  analysis::Percentiles sim_latency;
  analysis::Percentiles hw_latency;
  std::vector<int64_t> sim_latencies_ns;  // sorted, for the CDF plot
  std::vector<int64_t> hw_latencies_ns;
  int64_t sim_device_events = 0;
  int64_t hw_device_events = 0;
  std::vector<HostComparison> host_ops;  // every name seen in either run
  std::vector<CountDiff> event_names;    // device command keys whose counts differ
  std::vector<CountDiff> fallbacks;      // ops whose fallback counts differ
  std::vector<CountDiff> recompiles;
  std::vector<Difference> differences;
};

struct CompareTolerance {
  double relative_pct = 2.0;  // a time differs when both limits are exceeded
  double absolute_ns = 5.0;   // the trace's µs-with-3-decimals resolution, with margin
};

Comparison CompareDigests(const TraceDigest& sim,
                          const TraceDigest& hw,
                          const CompareTolerance& tolerance);

// 100 * (sim - hw) / hw; 0 when both are 0, +/-100 when only hw is 0.
double ErrorPct(double sim, double hw);

// The figures calibrate minimises and prints before and after (all in %, absolute values).
struct FitError {
  double op_device_max_pct = 0;      // worst launching op, mean device time per launch
  double op_device_mean_pct = 0;     // weighted by the op's launches
  double class_device_mean_pct = 0;  // over engine classes, weighted by matched commands
  double latency_p50_pct = 0;
  double host_self_pct = 0;  // sum |sim - hw| / sum hw of host self time, over op names
  double Objective() const {
    return op_device_mean_pct + class_device_mean_pct + latency_p50_pct + 0.5 * host_self_pct;
  }
};

FitError ComputeFitError(const Comparison& comparison);

// Whether the captured trace is a run of the simulated workload at all: at least half of the
// launches of the larger side, counted per launching op, find one of the same op on the other.
// A few dropped or extra launches pass (compare reports them); a trace of another program does
// not. The error (bad input) names the trace and both sides' launch counts. Either side without
// launches passes: what it lacks is reported elsewhere.
Status CheckSameWorkload(const TraceDigest& simulated,
                         const TraceDigest& captured,
                         const std::string& trace_path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_COMPARE_MATCH_H_
