// `compare --json`: every number of the tables, the fit error and the differences, one key per
// figure so scripts (and tests/e2e/calibration_tests.py) read them without parsing the text.
#include <fmt/format.h>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"
#include "tools/rblnsim/compare/compare_report.h"

namespace rblnsim::cli {

namespace {

void WriteCounts(trace::JsonWriter& json, const char* key, const std::vector<CountDiff>& diffs) {
  json.Key(key).BeginArray();
  for (const CountDiff& d : diffs) {
    json.BeginObject();
    json.Key("name").String(d.name);
    json.Key("sim").Int(d.sim);
    json.Key("hw").Int(d.hw);
    json.EndObject();
  }
  json.EndArray();
}

void WritePercentiles(trace::JsonWriter& json, const char* key, const analysis::Percentiles& p) {
  json.Key(key).BeginObject();
  json.Key("count").Int(p.count);
  json.Key("p50_ns").Int(p.p50_ns);
  json.Key("p90_ns").Int(p.p90_ns);
  json.Key("p99_ns").Int(p.p99_ns);
  json.Key("max_ns").Int(p.max_ns);
  json.EndObject();
}

void WriteOps(trace::JsonWriter& json, const Comparison& c) {
  json.Key("ops").BeginArray();
  for (const OpComparison& op : c.ops) {
    json.BeginObject();
    json.Key("op").String(op.op);
    json.Key("sim_launches").Int(op.sim_launches);
    json.Key("hw_launches").Int(op.hw_launches);
    json.Key("matched").Int(op.matched);
    json.Key("sim_device_ns").Double(op.sim_device_ns);
    json.Key("hw_device_ns").Double(op.hw_device_ns);
    json.Key("error_pct").Double(ErrorPct(op.sim_device_ns, op.hw_device_ns));
    WritePercentiles(json, "sim_latency", op.sim_latency);
    WritePercentiles(json, "hw_latency", op.hw_latency);
    json.EndObject();
  }
  json.EndArray();
  json.Key("classes").BeginArray();
  for (const ClassComparison& cls : c.classes) {
    json.BeginObject();
    json.Key("class").String(cls.engine_class);
    json.Key("kind").String(EngineKindName(cls.kind));
    json.Key("commands").Int(cls.commands);
    json.Key("sim_ns").Double(cls.sim_ns);
    json.Key("hw_ns").Double(cls.hw_ns);
    json.Key("error_pct").Double(ErrorPct(cls.sim_ns, cls.hw_ns));
    json.EndObject();
  }
  json.EndArray();
}

void WriteHost(trace::JsonWriter& json, const Comparison& c) {
  json.Key("host_ops").BeginArray();
  for (const HostComparison& r : c.host_ops) {
    json.BeginObject();
    json.Key("name").String(r.name);
    json.Key("sim_calls").Int(r.sim_count);
    json.Key("hw_calls").Int(r.hw_count);
    json.Key("sim_self_ns").Double(r.sim_self_ns);
    json.Key("hw_self_ns").Double(r.hw_self_ns);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace

Status WriteComparisonJson(const std::string& path,
                           const CompareHeader& header,
                           const Comparison& c) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    trace::JsonWriter json(&sink, 2);
    json.BeginObject();
    json.Key("scenario").String(header.scenario);
    json.Key("scenario_hash").String(header.scenario_hash);
    json.Key("trace").String(header.trace_path);
    json.Key("tolerance_pct").Double(header.tolerance.relative_pct);
    json.Key("tolerance_ns").Double(header.tolerance.absolute_ns);
    if (!header.import_json.empty())
      json.Key("import").Raw(header.import_json);
    json.Key("launches_matched").Int(static_cast<int64_t>(c.launch_pairs.size()));
    json.Key("launches_only_sim").Int(c.unmatched_sim_launches);
    json.Key("launches_only_hw").Int(c.unmatched_hw_launches);
    json.Key("commands_matched").Int(static_cast<int64_t>(c.commands.size()));
    json.Key("commands_only_sim").Int(c.unmatched_sim_slices);
    json.Key("commands_only_hw").Int(c.unmatched_hw_slices);
    WriteOps(json, c);
    json.Key("latency").BeginObject();
    WritePercentiles(json, "sim", c.sim_latency);
    WritePercentiles(json, "hw", c.hw_latency);
    json.EndObject();
    WriteHost(json, c);
    json.Key("device_events").BeginObject();
    json.Key("sim").Int(c.sim_device_events);
    json.Key("hw").Int(c.hw_device_events);
    json.EndObject();
    WriteCounts(json, "event_names", c.event_names);
    WriteCounts(json, "fallbacks", c.fallbacks);
    WriteCounts(json, "recompiles", c.recompiles);
    const FitError e = ComputeFitError(c);
    json.Key("error").BeginObject();
    json.Key("op_device_mean_pct").Double(e.op_device_mean_pct);
    json.Key("op_device_max_pct").Double(e.op_device_max_pct);
    json.Key("class_device_mean_pct").Double(e.class_device_mean_pct);
    json.Key("latency_p50_pct").Double(e.latency_p50_pct);
    json.Key("host_self_pct").Double(e.host_self_pct);
    json.EndObject();
    json.Key("differences").BeginArray();
    for (const Difference& d : c.differences) {
      json.BeginObject();
      json.Key("kind").String(d.kind);
      json.Key("what").String(d.what);
      json.Key("sim").Double(d.sim);
      json.Key("hw").Double(d.hw);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    json.Finish();
    return sink.status();
  });
}

}  // namespace rblnsim::cli
