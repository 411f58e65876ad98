// The metrics file of `rblnsim run --metrics`: one JSON object of the run's figures, the unit of
// a sweep point's result. The struct, its writer and its reader live together so the three never
// drift; the file names its schema in "format" and the reader refuses any other.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_ARTIFACTS_METRICS_FILE_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_ARTIFACTS_METRICS_FILE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::cli {

inline constexpr char kMetricsFormat[] = "rblnsim-metrics/1";

struct RunMetrics {
  std::string scenario;
  uint64_t seed = 0;
  double end_to_end_ns = 0;  // the profiled window, simulated ns
  int64_t launches = 0;
  double launches_per_s = 0;
  int64_t device_events = 0;
  int64_t self_rbln_total_ns = 0;  // the device events' durations summed
  // Ground-truth submission latency, nearest rank.
  double latency_p50_ns = 0;
  double latency_p90_ns = 0;
  double latency_p99_ns = 0;
  double latency_max_ns = 0;
  int64_t fallbacks = 0;
  int64_t recompiles = 0;
  int64_t records_dropped = 0;
  int64_t commands_timed_out = 0;
  int64_t max_ring_occupancy = 0;
  // "chiplet0/Neural DMA" -> busy time over the window and the engine's instances, in %.
  std::vector<std::pair<std::string, double>> engine_busy_pct;
  double device_busy_pct = 0;
};

// The object as the file holds it, at |json|'s indentation (a sweep point embeds it compactly).
void WriteMetricsJson(const RunMetrics& metrics, trace::JsonWriter& json);

// Written atomically; one key per line, then a newline.
Status WriteMetricsFile(const std::string& path, const RunMetrics& metrics);

// Errors name |path|: unreadable JSON, a missing or mistyped field, or a format other than
// kMetricsFormat (a file of another rblnsim version).
StatusOr<RunMetrics> ReadMetricsFile(const std::string& path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_ARTIFACTS_METRICS_FILE_H_
