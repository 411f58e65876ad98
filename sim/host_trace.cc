#include "sim/host_trace.h"

#include <fmt/format.h>

#include <cmath>

#include "profiler/trace/json_writer.h"

namespace rblnsim::sim {

void AppendHostTrace(const scenario::Scenario& scenario,
                     const sim::HostTimeline& timeline,
                     int64_t system_minus_sim_ns,
                     trace::Trace* out) {
  const int64_t pid = scenario.host.pid;
  const int64_t tid = scenario.host.tid;
  if (out->FindProcess(pid) == nullptr) {
    out->processes.push_back({pid, scenario.host.process_name, "CPU", pid});
  }
  if (out->FindThread(pid, tid) == nullptr) {
    out->threads.push_back(
        {pid, tid, fmt::format("thread {} ({})", tid, scenario.host.process_name), tid});
  }
  int64_t ev_idx = 0;
  for (const sim::HostEvent& event : timeline.events) {
    if (event.kind == sim::HostEventKind::kRuntimeMarker)
      continue;
    trace::Event e;
    e.category = event.kind == sim::HostEventKind::kUserAnnotation
                     ? trace::Category::kUserAnnotation
                     : trace::Category::kCpuOp;
    e.name = timeline.names[event.name_id];
    e.pid = pid;
    e.tid = tid;
    e.ts_ns = std::llround(event.start_ns) + system_minus_sim_ns;
    e.dur_ns = std::llround(event.end_ns) + system_minus_sim_ns - e.ts_ns;
    if (event.external_id != 0)
      e.args.push_back({"External id", event.external_id});
    e.args.push_back({"Record function id", int64_t{0}});
    // What torch.profiler writes with record_shapes=True (the trace-only fallback detector reads
    // dtypes and shapes from them), and the bytes an aten::_copy_from moved over PCIe.
    if (event.shapes_id != 0 && event.shapes_id <= timeline.shapes.size()) {
      const sim::ShapeArgs& shapes = timeline.shapes[event.shapes_id - 1];
      e.args.push_back({"Input Dims", trace::RawJson{shapes.dims}});
      e.args.push_back({"Input type", trace::RawJson{shapes.types}});
    }
    if (event.bytes >= 0)
      e.args.push_back({"bytes", event.bytes});
    e.args.push_back({"Ev Idx", ev_idx++});
    if (event.sequence_number >= 0) {
      e.args.push_back({"Fwd thread id", int64_t{0}});
      e.args.push_back({"Sequence number", event.sequence_number});
    }
    out->events.push_back(std::move(e));
  }
}

trace::RawJson DeviceProperties(const scenario::Scenario& scenario) {
  const scenario::DeviceConfig& d = scenario.device;
  trace::StringSink sink;
  trace::JsonWriter json(&sink);
  json.BeginObject();
  json.Key("id").Int(0);
  json.Key("name").String(d.card_name);
  json.Key("arch").String(d.variant == scenario::DeviceVariant::kRebel100 ? "rebel" : "atom");
  json.Key("num_chiplet").Int(d.chiplets);
  json.Key("npu_count").Int(1);
  json.Key("memory_per_chiplet").Int(d.hbm_bytes_per_chiplet);
  json.Key("totalGlobalMem").Int(d.hbm_bytes_per_chiplet * d.chiplets);
  json.Key("clock_ghz").Double(d.clock_ghz);
  json.Key("simulated").Bool(true);
  json.EndObject();
  json.Finish();
  return trace::RawJson{sink.text()};
}

}  // namespace rblnsim::sim
