// Submission latency of every launch, from a trace alone (simulated or captured on a card).
//
// HTA's "kernel launch statistics" and "queue length" (kineto-and-trace-format.md §4) keyed on
// our runtime's names: the launch event is the launch marker (cat privateuse1_runtime: "rbln_run"
// in the c-abi dialect, the zero-length "rbln launch" in the current one), and its device slices
// are the events carrying the same integer "launch_id" arg. Per launch:
//   submission latency = first device start - marker start   (what the ground truth calls
//                                                              latency_ns)
//   launch delay       = first device start - marker end, clipped at 0   (HTA's launch_delay)
// Percentiles are nearest-rank: the value at rank ceil(p/100 * n) of the sorted sample, so every
// reported percentile is a latency that actually occurred.
//
// Everything is computed from compact columns sorted once; nothing is keyed by string per event,
// so millions of launches cost a few sorts.
#ifndef RBLNSIM_PROFILER_ANALYSIS_LAUNCH_LATENCY_H_
#define RBLNSIM_PROFILER_ANALYSIS_LAUNCH_LATENCY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

struct LatencyOptions {
  // Slow-launch threshold on the submission latency; unset: the overall p99 (a launch is an
  // outlier when strictly above it).
  std::optional<int64_t> outlier_threshold_ns;
  // HTA's consecutive-kernel delay: a device gap shorter than this is back-to-back overhead
  // ("device wait"), not idleness with a cause elsewhere.
  int64_t back_to_back_ns = 1000;
  size_t max_outliers = 20;  // listed; the count is always complete
  // LatencyReport::queue, a point per step of the queue length: only the plots draw it (the
  // text and the JSON read its maximum, mean and size), and over 10^6 launches it is 30 MiB.
  bool keep_queue_series = true;
};

struct LaunchLatency {
  int64_t launch_id = 0;
  uint32_t op = 0;  // index into LatencyReport::op_names (kNoLauncher: marker inside no op)
  uint32_t device_slices = 0;
  int64_t op_start_ns = 0;  // the launching op's start (the marker's when there is none)
  int64_t marker_start_ns = 0;
  int64_t marker_end_ns = 0;
  int64_t first_device_start_ns = 0;  // valid when device_slices > 0
  int64_t last_device_end_ns = 0;

  bool has_device() const { return device_slices > 0; }
  int64_t submission_latency_ns() const { return first_device_start_ns - marker_start_ns; }
  int64_t launch_delay_ns() const {
    const int64_t d = first_device_start_ns - marker_end_ns;
    return d > 0 ? d : 0;
  }
};

struct Percentiles {
  int64_t count = 0;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t p99_ns = 0;
  int64_t max_ns = 0;
};

// Nearest-rank percentiles of |values| (sorted in place).
Percentiles ComputePercentiles(std::vector<int64_t>* values);
// The same of |count| values already sorted.
Percentiles PercentilesOfSorted(const int64_t* sorted, size_t count);

struct OpLatency {
  std::string op;
  Percentiles submission;
  Percentiles launch_delay;
};

// One step of the queue-length series: |length| holds from |ts_ns| until the next point.
struct QueuePoint {
  int64_t ts_ns = 0;
  int32_t length = 0;
};

// Device idle time between device work, per HTA's idle breakdown adapted to launches: a gap
// before a slice is host wait when that slice's launch marker started after the previous device
// work ended (the host was late); device wait when it is shorter than back_to_back_ns; else other.
struct IdleBreakdown {
  int64_t span_ns = 0;  // first device start to last device end, summed over device pids
  int64_t busy_ns = 0;  // union of device slices
  int64_t host_wait_ns = 0;
  int64_t device_wait_ns = 0;
  int64_t other_ns = 0;
  int64_t gaps = 0;
  int64_t idle_ns() const { return host_wait_ns + device_wait_ns + other_ns; }
};

struct LatencyReport {
  static constexpr uint32_t kNoLauncher = 0;  // op_names[0] is "(no launching op)"

  std::vector<std::string> op_names;
  std::vector<LaunchLatency> launches;  // by marker start
  Percentiles submission;               // launches with device work only
  Percentiles launch_delay;
  std::vector<OpLatency> per_op;  // by descending count, then name
  int64_t outlier_threshold_ns = 0;
  bool outlier_threshold_is_p99 = true;
  int64_t outlier_count = 0;
  std::vector<size_t> outliers;   // indices into launches, slowest first, at most max_outliers
  std::vector<QueuePoint> queue;  // +1 at a marker's start, -1 at its first device start
  int64_t queue_points = 0;       // the series' size, also when it is not kept
  int32_t queue_max = 0;
  int64_t queue_max_at_ns = 0;
  double queue_mean = 0.0;  // time-weighted, over the series' span
  IdleBreakdown idle;

  int64_t launches_without_device = 0;  // a marker whose launch_id has no device slice
  int64_t markers_without_launch_id = 0;
  int64_t duplicate_markers = 0;      // a second marker for one launch_id: the first is kept
  int64_t slices_without_marker = 0;  // device slices whose launch_id has no marker
  int64_t window_start_ns = 0;
  int64_t window_end_ns = 0;
  // The launch marker of the trace's dialect, for the report's wording.
  std::string marker_name = "rbln_run";
};

// Every event arg AnalyzeLaunchLatency, its building blocks and the latency plots read: an
// importer may drop the others (ImportOptions).
std::vector<std::string> LatencyArgKeys();

LatencyReport AnalyzeLaunchLatency(const index::TraceIndex& index, const LatencyOptions& options);

// Building blocks of AnalyzeLaunchLatency (device_timeline.cc), public for tests.
// The queue-length step series and its max/mean from report->launches (any order). At equal
// timestamps a start of device work is applied before a new marker, so a launch that is picked up
// the instant the next one is submitted does not count as two in flight. Without |keep_series|
// only the max, the mean and the number of points are filled.
void FillQueueSeries(LatencyReport* report, bool keep_series = true);
IdleBreakdown ComputeIdleBreakdown(const index::TraceIndex& index,
                                   const std::vector<LaunchLatency>& launches,
                                   int64_t back_to_back_ns);
// Each launch's (launch_id, marker start), sorted: what the overload below reads.
std::vector<std::pair<int64_t, int64_t>> MarkerStartsById(
    const std::vector<LaunchLatency>& launches);
// The same from each launch's (launch_id, marker start), sorted.
IdleBreakdown ComputeIdleBreakdown(const index::TraceIndex& index,
                                   const std::vector<std::pair<int64_t, int64_t>>& marker_by_id,
                                   int64_t back_to_back_ns);

// Device busy over time: for each of |buckets| equal buckets of the report's window, the
// fraction (0..1) covered by the union of device slices. x is the bucket start relative to the
// window start, in ms.
struct BusySeries {
  std::vector<double> x_ms;
  std::vector<double> busy_fraction;
};
BusySeries DeviceBusyOverTime(const trace::Trace& trace,
                              int64_t window_start_ns,
                              int64_t window_end_ns,
                              int buckets);

// The trace's device slices: complete events carrying a launch_id that are not markers or host
// spans, plus kernel / gpu_memcpy / gpu_memset events without one.
using index::IsDeviceSlice;

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_LAUNCH_LATENCY_H_
