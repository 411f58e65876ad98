// Classifies a trace's events for the contract checks: which rows are host threads, which events
// are rbln_run markers and which are device slices, grouped by launch_id; and, per marker, the
// innermost cpu_op / user_annotation enclosing it (its launcher).
#ifndef RBLNSIM_PROFILER_ANALYSIS_LAUNCH_INDEX_H_
#define RBLNSIM_PROFILER_ANALYSIS_LAUNCH_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

inline constexpr const char* kMarkerName = "rbln_run";
inline constexpr const char* kLaunchIdArg = "launch_id";

// The source marker torch-rbln's runtime stamps per run.
bool IsMarker(const trace::Event& event);

struct LaunchIndex {
  explicit LaunchIndex(const trace::Trace& trace);

  const trace::Trace& trace;
  std::vector<bool> is_marker;  // per event
  std::vector<bool> is_device;  // per event: a device slice
  std::vector<size_t> markers;
  std::vector<size_t> device_slices;
  // Ordered maps keep the reports deterministic.
  std::map<int64_t, std::vector<size_t>> markers_by_launch;
  std::map<int64_t, std::vector<size_t>> slices_by_launch;
  // Marker event -> the innermost cpu_op/user_annotation enclosing it on its own thread.
  std::unordered_map<size_t, size_t> launcher_by_marker;

  // The marker a launch is measured against: its first one, if it has any.
  std::optional<size_t> MarkerOf(int64_t launch_id) const;
  std::optional<size_t> LauncherOf(size_t marker_event) const;

 private:
  void FindLaunchers();
};

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_LAUNCH_INDEX_H_
