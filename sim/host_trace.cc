#include "sim/host_trace.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "profiler/trace/json_writer.h"
#include "profiler/trace/shared_text.h"

namespace rblnsim::sim {

namespace {

// torch.profiler's "Input type" text of each dtype (c10 ScalarType names, as record_shapes
// writes them).
const char* TorchTypeName(scenario::DType dtype) {
  switch (dtype) {
    case scenario::DType::kFp16:
      return "c10::Half";
    case scenario::DType::kBf16:
      return "c10::BFloat16";
    case scenario::DType::kFp32:
      return "float";
    case scenario::DType::kFp8:
      return "c10::Float8_e4m3fn";
    case scenario::DType::kInt64:
      return "long int";
    case scenario::DType::kInt32:
      return "int";
    case scenario::DType::kBool:
      return "bool";
  }
  return "";
}

// "Input Dims" and "Input type" as torch writes them: [[512, 512], [512, 512]] and
// ["c10::Half", "c10::Half"].
std::pair<trace::RawJson, trace::RawJson> ShapeArgs(const sim::InputSignature& inputs) {
  std::string dims = "[";
  std::string types = "[";
  for (size_t i = 0; i < inputs.size(); ++i) {
    const char* sep = i == 0 ? "" : ", ";
    dims += fmt::format("{}[{}]", sep, fmt::join(inputs[i].shape, ", "));
    types += fmt::format("{}\"{}\"", sep, TorchTypeName(inputs[i].dtype));
  }
  return {trace::RawJson{dims + "]"}, trace::RawJson{types + "]"}};
}

}  // namespace

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
  // Each distinct signature is written once and copied to the events that share it.
  std::vector<std::pair<trace::RawJson, trace::RawJson>> shape_args;
  shape_args.reserve(timeline.shapes.size());
  for (const sim::InputSignature& inputs : timeline.shapes)
    shape_args.push_back(ShapeArgs(inputs));
  // Interned (trace/shared_text.h): every op of a signature then holds two ids, not its text.
  std::vector<std::pair<std::optional<trace::SharedText>, std::optional<trace::SharedText>>>
      shared_shape_args;
  shared_shape_args.reserve(shape_args.size());
  for (const auto& [dims, types] : shape_args) {
    shared_shape_args.emplace_back(trace::InternSharedText(dims.text, /*raw=*/true),
                                   trace::InternSharedText(types.text, /*raw=*/true));
  }
  int64_t ev_idx = 0;
  trace::ArgListBuilder args;  // reused: the args of an op go into the pool as one block
  auto pool = std::make_shared<trace::ArgPool>();
  out->arg_pools.push_back(pool);
  // Looked up once for all ops.
  static const trace::ArgKey kExternalId("External id");
  static const trace::ArgKey kRecordFunctionId("Record function id");
  static const trace::ArgKey kInputDims("Input Dims");
  static const trace::ArgKey kInputType("Input type");
  static const trace::ArgKey kBytes("bytes");
  static const trace::ArgKey kEvIdx("Ev Idx");
  static const trace::ArgKey kFwdThreadId("Fwd thread id");
  static const trace::ArgKey kSequenceNumber("Sequence number");
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
      args.Add(kExternalId, event.external_id);
    args.Add(kRecordFunctionId, int64_t{0});
    // What torch.profiler writes with record_shapes=True (the trace-only fallback detector reads
    // dtypes and shapes from them), and the bytes an aten::_copy_from moved over PCIe.
    if (event.shapes_id != 0 && event.shapes_id <= shape_args.size()) {
      const auto& [dims, types] = shape_args[event.shapes_id - 1];
      const auto& [shared_dims, shared_types] = shared_shape_args[event.shapes_id - 1];
      if (shared_dims)
        args.Add(kInputDims, *shared_dims);
      else
        args.Add(kInputDims, trace::RawJsonView{dims.text});
      if (shared_types)
        args.Add(kInputType, *shared_types);
      else
        args.Add(kInputType, trace::RawJsonView{types.text});
    }
    if (event.bytes >= 0)
      args.Add(kBytes, event.bytes);
    args.Add(kEvIdx, ev_idx++);
    if (event.sequence_number >= 0) {
      args.Add(kFwdThreadId, int64_t{0});
      args.Add(kSequenceNumber, event.sequence_number);
    }
    e.args = args.Build(pool.get());
    out->events.push_back(std::move(e));
  }
}

size_t HostTraceEvents(const sim::HostTimeline& timeline) {
  return static_cast<size_t>(std::count_if(
      timeline.events.begin(), timeline.events.end(),
      [](const HostEvent& event) { return event.kind != sim::HostEventKind::kRuntimeMarker; }));
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
