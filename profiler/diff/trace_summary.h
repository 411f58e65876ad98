// Everything `rblnsim diff` reads from one trace, simulated or captured on a card, in either
// dialect: per-operator totals (key_averages with device time attributed through the launch
// correlation), the launch statistics of analyze's latency report, the hidden host work its
// detectors find, device time per class, lane and command family, and the host op sequence the
// two runs are aligned on. A summary owns its strings and holds no event, so the trace and its
// index can be freed before the other side is read: diffing two large traces costs one trace at a
// time plus two summaries.
#ifndef RBLNSIM_PROFILER_DIFF_TRACE_SUMMARY_H_
#define RBLNSIM_PROFILER_DIFF_TRACE_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "profiler/analysis/launch_latency.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/dialect.h"

namespace rblnsim::diff {

struct OpTotals {
  int64_t calls = 0;
  int64_t self_cpu_ns = 0;
  int64_t cpu_total_ns = 0;
  int64_t device_ns = 0;      // device time of the launches it made (attributed)
  int64_t device_slices = 0;  // the device slices of those launches
  int64_t launches = 0;       // launch markers it is the innermost op of
};

struct OpLaunchStats {
  analysis::Percentiles submission;
  analysis::Percentiles launch_delay;
};

struct DeviceTotals {
  int64_t slices = 0;
  int64_t ns = 0;
};

enum class HiddenKind : uint8_t { kFallback = 0, kRecompile = 1, kRoundTrip = 2, kScan = 3 };
// "fallback", "recompile", "round trip", "nan/inf scan".
const char* HiddenKindName(HiddenKind kind);

// One kind of hidden host work at one op for one reason (a fallback's cause, a round trip's
// direction and cause, "eviction" / "new instance" for recompiles, "" for scans).
struct HiddenKey {
  HiddenKind kind = HiddenKind::kFallback;
  std::string op;
  std::string reason;
  bool operator<(const HiddenKey& other) const {
    return std::tie(kind, op, reason) < std::tie(other.kind, other.op, other.reason);
  }
};

// The element that stands for a launch marker in the op sequence: the two dialects name their
// markers differently, and a launch is the same launch in both.
inline constexpr std::string_view kLaunchElement = "(launch)";

struct TraceSummary {
  trace::Dialect dialect = trace::Dialect::kCurrent;
  int64_t events = 0;
  int64_t wall_ns = 0;  // the capture window

  // Host ops and annotations by name (key_averages' grouping), in first-appearance order.
  std::vector<std::string> op_names;
  std::vector<OpTotals> ops;  // parallel to op_names
  int64_t host_ns = 0;        // top-level host ops, summed

  // Launches (analyze's latency report).
  int64_t launches = 0;
  int64_t launches_without_device = 0;
  analysis::Percentiles submission;
  analysis::Percentiles launch_delay;
  std::map<std::string, OpLaunchStats> per_op_launches;
  std::vector<int64_t> submission_sorted_ns;  // every launch with device work, ascending
  int32_t queue_max = 0;
  analysis::IdleBreakdown idle;

  std::map<HiddenKey, int64_t> hidden;  // counts
  int64_t fallbacks = 0, recompiles = 0, round_trips = 0, scans = 0;

  // Device work off the host lanes: by activity class (compute / copy / host / collective, the
  // same in both dialects), by the trace's own lane (current: the kind; c-abi: the engine, its
  // instance number dropped), and by command family (the name without its per-run prefix and
  // numeric suffixes: "i1_0_W0_args_0_2" -> "args").
  std::map<std::string, DeviceTotals> device_classes;
  std::map<std::string, DeviceTotals> device_lanes;
  std::map<std::string, DeviceTotals> device_families;
  DeviceTotals device;

  // The host sequence the runs are aligned on: every cpu_op and launch marker in host-forest
  // pre-order, as ids into sequence_names (kLaunchElement for markers). For each marker of the
  // sequence, in order, its submission latency (-1: no device work).
  std::vector<std::string> sequence_names;
  std::vector<uint32_t> sequence;
  std::vector<int64_t> sequence_launch_latency_ns;
};

// The command family of a device slice's name (see TraceSummary::device_families); the view
// points into |name|.
std::string CommandFamily(std::string_view name);
std::string_view CommandFamilyOf(std::string_view name);

// Runs the key averages, the latency report and the hidden-work detectors over |index|.
TraceSummary Summarize(const index::TraceIndex& index, const analysis::LatencyOptions& options);

}  // namespace rblnsim::diff

#endif  // RBLNSIM_PROFILER_DIFF_TRACE_SUMMARY_H_
