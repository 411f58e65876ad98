#include "profiler/analysis/window_overrun.h"

#include <algorithm>

#include "profiler/analysis/dialect_rules.h"
#include "profiler/analysis/launch_latency.h"

namespace rblnsim::analysis {

bool HasCaptureWindow(const trace::Trace& trace, bool window_from_events) {
  return !window_from_events && (trace.capture_start_ns != 0 || trace.capture_end_ns != 0);
}

WindowOverrun FindWindowOverrun(const index::TraceIndex& index, bool window_known) {
  const trace::Trace& trace = index.trace();
  WindowOverrun out;
  out.window_known = window_known;
  out.window_end_ns = trace.capture_end_ns;
  if (!window_known)
    return out;
  const index::EventColumns& columns = index.events();
  for (size_t i = 0; i < columns.flags.size(); ++i) {
    if (!columns.Has(i, index::kDeviceWork))
      continue;
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
