#include "profiler/analysis/window_overrun.h"

#include <algorithm>
#include <unordered_set>

#include "profiler/analysis/dialect_rules.h"
#include "profiler/analysis/launch_latency.h"

namespace rblnsim::analysis {

bool HasCaptureWindow(const trace::Trace& trace, bool window_from_events) {
  return !window_from_events && (trace.capture_start_ns != 0 || trace.capture_end_ns != 0);
}

DeviceWorkIndex::DeviceWorkIndex(const trace::Trace& trace) {
  std::unordered_set<int64_t> npu_pids;
  for (const trace::ProcessRow& row : trace.processes) {
    if (IsNpuProcess(row))
      npu_pids.insert(row.pid);
  }
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const trace::Event& e = trace.events[i];
    if (e.phase != trace::Phase::kComplete || IsLaunchMarker(e))
      continue;
    if (IsDeviceSlice(e) || npu_pids.count(e.pid) > 0)
      events.push_back(i);
  }
}

WindowOverrun FindWindowOverrun(const trace::Trace& trace, bool window_known) {
  WindowOverrun out;
  out.window_known = window_known;
  out.window_end_ns = trace.capture_end_ns;
  if (!window_known)
    return out;
  for (size_t i : DeviceWorkIndex(trace).events) {
    ++out.device_work;
    const int64_t over = trace.events[i].end_ns() - trace.capture_end_ns;
    if (over <= 0)
      continue;
    ++out.after_window;
    out.worst_overrun_ns = std::max(out.worst_overrun_ns, over);
    out.late.push_back(i);
  }
  return out;
}

std::string FormatWindowOverrunText(const WindowOverrun& overrun) {
  if (overrun.after_window == 0)
    return "";
  return "device work after the capture window: " + std::to_string(overrun.after_window) + " of " +
         std::to_string(overrun.device_work) + " device slices end after it, the worst by " +
         trace::FormatNsAsUs(overrun.worst_overrun_ns) +
         "us (Kineto drops records outside its window)\n";
}

void WriteWindowOverrunJson(const WindowOverrun& overrun, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("window_known").Bool(overrun.window_known);
  json->Key("window_end_ns").Int(overrun.window_end_ns);
  json->Key("device_work").Int(overrun.device_work);
  json->Key("after_window").Int(overrun.after_window);
  json->Key("worst_overrun_ns").Int(overrun.worst_overrun_ns);
  json->EndObject();
}

std::vector<std::string> WindowOverrunArgKeys() {
  return {std::string(trace::kLaunchIdArg)};
}

}  // namespace rblnsim::analysis
