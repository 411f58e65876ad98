// Device work that ends after the profiling window closed. Kineto drops records outside its
// capture window with only a log line, so work stamped past the window's end (a producer that
// keeps the simulated clock running after the real window, or a missing synchronize) either
// vanishes from torch.profiler's view or shows in a trace that contradicts its own window.
#ifndef RBLNSIM_PROFILER_ANALYSIS_WINDOW_OVERRUN_H_
#define RBLNSIM_PROFILER_ANALYSIS_WINDOW_OVERRUN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/index/trace_index.h"
#include "profiler/trace/json_writer.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

// True when |trace| carries a capture window of its own. |window_from_events|: the importer found
// no "Trace" span / Record Window End and stood in the events' span
// (!ImportResult::capture_window_from_trace), which no event can overrun.
bool HasCaptureWindow(const trace::Trace& trace, bool window_from_events);

struct WindowOverrun {
  bool window_known = false;
  int64_t window_end_ns = 0;
  int64_t device_work = 0;  // device events looked at (0 without a window)
  int64_t after_window = 0;
  int64_t worst_overrun_ns = 0;
  std::vector<size_t> late;  // the events ending after the window, in trace order
};

// Device work is the index's kDeviceWork column: a device slice or any complete event on an
// "NPU <id>" row, in either dialect, launch markers excluded.
WindowOverrun FindWindowOverrun(const index::TraceIndex& index, bool window_known);

// Every event arg FindWindowOverrun reads (IsDeviceSlice looks for a launch_id).
std::vector<std::string> WindowOverrunArgKeys();

// "device work after the capture window: N of M device slices end after it, the worst by
// X us\n"; empty when none does (or the trace has no window), so a trace within its window reads
// as before.
std::string FormatWindowOverrunText(const WindowOverrun& overrun);

// {"window_known", "window_end_ns", "device_work", "after_window", "worst_overrun_ns"} as the
// value at the writer's current position.
void WriteWindowOverrunJson(const WindowOverrun& overrun, trace::JsonWriter* json);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_WINDOW_OVERRUN_H_
