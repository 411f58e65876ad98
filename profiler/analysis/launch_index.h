// Classifies a trace's events for the contract checks and the launch analyses: which rows are host
// threads, which events are launch markers and which are device slices, grouped by launch_id;
// and, per marker, the innermost cpu_op / user_annotation enclosing it (its launcher). Reads both
// dialects (dialect_rules.h): rbln_run markers and producer-named device rows, or "rbln launch"
// markers and the activities on "NPU <id>" rows, with their lane by kind.
#ifndef RBLNSIM_PROFILER_ANALYSIS_LAUNCH_INDEX_H_
#define RBLNSIM_PROFILER_ANALYSIS_LAUNCH_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profiler/analysis/dialect_rules.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

inline constexpr const char* kMarkerName = "rbln_run";
inline constexpr const char* kLaunchIdArg = "launch_id";

// The source marker torch-rbln's c-abi runtime stamps per run (IsLaunchMarker takes either
// dialect's).
bool IsMarker(const trace::Event& event);

struct LaunchIndex {
  // Reads the trace in DetectDialect(trace).
  explicit LaunchIndex(const trace::Trace& trace);
  // Reads it as |dialect|: only that dialect's marker is a marker.
  LaunchIndex(const trace::Trace& trace, Dialect dialect);

  const trace::Trace& trace;
  Dialect dialect;
  std::vector<bool> is_marker;  // per event
  std::vector<bool> is_device;  // per event: a device slice
  std::vector<size_t> markers;
  std::vector<size_t> device_slices;
  // Ordered maps keep the reports deterministic.
  std::map<int64_t, std::vector<size_t>> markers_by_launch;
  std::map<int64_t, std::vector<size_t>> slices_by_launch;
  // Marker event -> the innermost cpu_op/user_annotation enclosing it on its own thread.
  std::unordered_map<size_t, size_t> launcher_by_marker;
  // current: the lane each (NPU pid, tid) is named after; empty for c-abi.
  std::map<std::pair<int64_t, int64_t>, LaneKind> npu_lanes;

  // The marker a launch is measured against: its first one, if it has any.
  std::optional<size_t> MarkerOf(int64_t launch_id) const;
  std::optional<size_t> LauncherOf(size_t marker_event) const;
  // current: the lane kind of the NPU lane |event| sits on, if it sits on one.
  std::optional<LaneKind> LaneOf(const trace::Event& event) const;

 private:
  void FindLaunchers();
};

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_LAUNCH_INDEX_H_
