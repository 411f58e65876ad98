#include "tools/rblnsim/compare/compare_json.h"

#include <simdjson.h>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::cli {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

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

void WriteOps(trace::JsonWriter& json, const CompareDocument& d) {
  json.Key("ops").BeginArray();
  for (const OpComparison& op : d.ops) {
    json.BeginObject();
    json.Key("op").String(op.op);
    json.Key("sim_launches").Int(op.sim_launches);
    json.Key("hw_launches").Int(op.hw_launches);
    json.Key("matched").Int(op.matched);
    json.Key("sim_without_device").Int(op.sim_without_device);
    json.Key("hw_without_device").Int(op.hw_without_device);
    json.Key("sim_device_ns").Double(op.sim_device_ns);
    json.Key("hw_device_ns").Double(op.hw_device_ns);
    json.Key("error_pct").Double(ErrorPct(op.sim_device_ns, op.hw_device_ns));
    WritePercentiles(json, "sim_latency", op.sim_latency);
    WritePercentiles(json, "hw_latency", op.hw_latency);
    json.EndObject();
  }
  json.EndArray();
  json.Key("classes").BeginArray();
  for (const ClassComparison& cls : d.classes) {
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
  json.Key("lanes").BeginArray();
  for (const LaneComparison& lane : d.lanes) {
    json.BeginObject();
    json.Key("lane").String(lane.lane);
    json.Key("kind").String(EngineKindName(lane.kind));
    json.Key("sim_slices").Int(lane.sim_slices);
    json.Key("hw_slices").Int(lane.hw_slices);
    json.Key("sim_ns").Int(lane.sim_ns);
    json.Key("hw_ns").Int(lane.hw_ns);
    json.EndObject();
  }
  json.EndArray();
}

void WriteHost(trace::JsonWriter& json, const CompareDocument& d) {
  json.Key("host_ops").BeginArray();
  for (const HostComparison& r : d.host_ops) {
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

// Reads fields in order, keeping the first error, so one check after a block of reads names
// whatever went wrong.
class FieldReader {
 public:
  void Read(simdjson::simdjson_result<element> field, std::string* out) {
    std::string_view text;
    Keep(field.get_string().get(text));
    *out = std::string(text);
  }
  void Read(simdjson::simdjson_result<element> field, int64_t* out) {
    Keep(field.get_int64().get(*out));
  }
  void Read(simdjson::simdjson_result<element> field, double* out) {
    Keep(field.get_double().get(*out));
  }
  void Read(simdjson::simdjson_result<element> field, analysis::Percentiles* out) {
    Read(field["count"], &out->count);
    Read(field["p50_ns"], &out->p50_ns);
    Read(field["p90_ns"], &out->p90_ns);
    Read(field["p99_ns"], &out->p99_ns);
    Read(field["max_ns"], &out->max_ns);
  }
  void Read(simdjson::simdjson_result<element> field, EngineKind* out) {
    std::string name;
    Read(field, &name);
    for (int k = 0; k < kEngineKindCount; ++k) {
      if (name == EngineKindName(static_cast<EngineKind>(k))) {
        *out = static_cast<EngineKind>(k);
        return;
      }
    }
    Keep(simdjson::INCORRECT_TYPE);
  }
  // Each element of the array |field| through |read_one|.
  template <typename T, typename ReadOne>
  void ReadArray(simdjson::simdjson_result<element> field,
                 std::vector<T>* out,
                 const ReadOne& read_one) {
    array items;
    Keep(field.get_array().get(items));
    if (error_)
      return;
    for (element item : items) {
      T value;
      read_one(item, &value);
      out->push_back(std::move(value));
    }
  }
  void Keep(simdjson::error_code error) {
    if (!error_)
      error_ = error;
  }
  simdjson::error_code error() const { return error_; }

 private:
  simdjson::error_code error_ = simdjson::SUCCESS;
};

void ReadCounts(FieldReader& r,
                simdjson::simdjson_result<element> field,
                std::vector<CountDiff>* out) {
  r.ReadArray(field, out, [&](element item, CountDiff* d) {
    r.Read(item["name"], &d->name);
    r.Read(item["sim"], &d->sim);
    r.Read(item["hw"], &d->hw);
  });
}

}  // namespace

CompareDocument MakeCompareDocument(const CompareHeader& header, const Comparison& c) {
  CompareDocument d;
  d.scenario = header.scenario;
  d.scenario_hash = header.scenario_hash;
  d.trace_path = header.trace_path;
  d.tolerance = header.tolerance;
  d.import_json = header.import_json;
  d.launches_matched = static_cast<int64_t>(c.launch_pairs.size());
  d.launches_only_sim = c.unmatched_sim_launches;
  d.launches_only_hw = c.unmatched_hw_launches;
  d.commands_matched = static_cast<int64_t>(c.commands.size());
  d.commands_only_sim = c.unmatched_sim_slices;
  d.commands_only_hw = c.unmatched_hw_slices;
  d.ops = c.ops;
  d.classes = c.classes;
  d.lanes = c.lanes;
  d.sim_latency = c.sim_latency;
  d.hw_latency = c.hw_latency;
  d.host_ops = c.host_ops;
  d.sim_device_events = c.sim_device_events;
  d.hw_device_events = c.hw_device_events;
  d.event_names = c.event_names;
  d.fallbacks = c.fallbacks;
  d.recompiles = c.recompiles;
  d.error = ComputeFitError(c);
  d.differences = c.differences;
  return d;
}

Status WriteCompareDocument(const std::string& path, const CompareDocument& d) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    trace::JsonWriter json(&sink, 2);
    json.BeginObject();
    json.Key("format").String(kCompareFormat);
    json.Key("scenario").String(d.scenario);
    json.Key("scenario_hash").String(d.scenario_hash);
    json.Key("trace").String(d.trace_path);
    json.Key("tolerance_pct").Double(d.tolerance.relative_pct);
    json.Key("tolerance_ns").Double(d.tolerance.absolute_ns);
    if (!d.import_json.empty())
      json.Key("import").Raw(d.import_json);
    json.Key("launches_matched").Int(d.launches_matched);
    json.Key("launches_only_sim").Int(d.launches_only_sim);
    json.Key("launches_only_hw").Int(d.launches_only_hw);
    json.Key("commands_matched").Int(d.commands_matched);
    json.Key("commands_only_sim").Int(d.commands_only_sim);
    json.Key("commands_only_hw").Int(d.commands_only_hw);
    WriteOps(json, d);
    json.Key("latency").BeginObject();
    WritePercentiles(json, "sim", d.sim_latency);
    WritePercentiles(json, "hw", d.hw_latency);
    json.EndObject();
    WriteHost(json, d);
    json.Key("device_events").BeginObject();
    json.Key("sim").Int(d.sim_device_events);
    json.Key("hw").Int(d.hw_device_events);
    json.EndObject();
    WriteCounts(json, "event_names", d.event_names);
    WriteCounts(json, "fallbacks", d.fallbacks);
    WriteCounts(json, "recompiles", d.recompiles);
    json.Key("error").BeginObject();
    json.Key("op_device_mean_pct").Double(d.error.op_device_mean_pct);
    json.Key("op_device_max_pct").Double(d.error.op_device_max_pct);
    json.Key("class_device_mean_pct").Double(d.error.class_device_mean_pct);
    json.Key("latency_p50_pct").Double(d.error.latency_p50_pct);
    json.Key("host_self_pct").Double(d.error.host_self_pct);
    json.EndObject();
    json.Key("differences").BeginArray();
    for (const Difference& diff : d.differences) {
      json.BeginObject();
      json.Key("kind").String(diff.kind);
      json.Key("what").String(diff.what);
      json.Key("sim").Double(diff.sim);
      json.Key("hw").Double(diff.hw);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    json.Finish();
    return sink.status();
  });
}

StatusOr<CompareDocument> ReadCompareDocument(const std::string& path) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = parser.load(path).get(root))
    return Status::Error(path + ": not a readable compare file: " + simdjson::error_message(error));
  object fields;
  if (root.get_object().get(fields))
    return Status::Error(path + ": a compare file holds one JSON object");
  std::string_view format;
  if (fields["format"].get_string().get(format)) {
    return Status::Error(path + ": no format field: not a compare file of this rblnsim (expected " +
                         kCompareFormat + ")");
  }
  if (format != kCompareFormat) {
    return Status::Error(path + ": compare format is '" + std::string(format) +
                         "', this rblnsim reads " + kCompareFormat);
  }
  CompareDocument d;
  FieldReader r;
  r.Read(fields["scenario"], &d.scenario);
  r.Read(fields["scenario_hash"], &d.scenario_hash);
  r.Read(fields["trace"], &d.trace_path);
  r.Read(fields["tolerance_pct"], &d.tolerance.relative_pct);
  r.Read(fields["tolerance_ns"], &d.tolerance.absolute_ns);
  element import;
  if (!fields["import"].get(import))
    d.import_json = simdjson::minify(import);
  r.Read(fields["launches_matched"], &d.launches_matched);
  r.Read(fields["launches_only_sim"], &d.launches_only_sim);
  r.Read(fields["launches_only_hw"], &d.launches_only_hw);
  r.Read(fields["commands_matched"], &d.commands_matched);
  r.Read(fields["commands_only_sim"], &d.commands_only_sim);
  r.Read(fields["commands_only_hw"], &d.commands_only_hw);
  r.ReadArray(fields["ops"], &d.ops, [&](element item, OpComparison* op) {
    r.Read(item["op"], &op->op);
    r.Read(item["sim_launches"], &op->sim_launches);
    r.Read(item["hw_launches"], &op->hw_launches);
    r.Read(item["matched"], &op->matched);
    r.Read(item["sim_without_device"], &op->sim_without_device);
    r.Read(item["hw_without_device"], &op->hw_without_device);
    r.Read(item["sim_device_ns"], &op->sim_device_ns);
    r.Read(item["hw_device_ns"], &op->hw_device_ns);
    r.Read(item["sim_latency"], &op->sim_latency);
    r.Read(item["hw_latency"], &op->hw_latency);
  });
  r.ReadArray(fields["classes"], &d.classes, [&](element item, ClassComparison* cls) {
    r.Read(item["class"], &cls->engine_class);
    r.Read(item["kind"], &cls->kind);
    r.Read(item["commands"], &cls->commands);
    r.Read(item["sim_ns"], &cls->sim_ns);
    r.Read(item["hw_ns"], &cls->hw_ns);
  });
  r.ReadArray(fields["lanes"], &d.lanes, [&](element item, LaneComparison* lane) {
    r.Read(item["lane"], &lane->lane);
    r.Read(item["kind"], &lane->kind);
    r.Read(item["sim_slices"], &lane->sim_slices);
    r.Read(item["hw_slices"], &lane->hw_slices);
    r.Read(item["sim_ns"], &lane->sim_ns);
    r.Read(item["hw_ns"], &lane->hw_ns);
  });
  r.Read(fields["latency"]["sim"], &d.sim_latency);
  r.Read(fields["latency"]["hw"], &d.hw_latency);
  r.ReadArray(fields["host_ops"], &d.host_ops, [&](element item, HostComparison* host) {
    r.Read(item["name"], &host->name);
    r.Read(item["sim_calls"], &host->sim_count);
    r.Read(item["hw_calls"], &host->hw_count);
    r.Read(item["sim_self_ns"], &host->sim_self_ns);
    r.Read(item["hw_self_ns"], &host->hw_self_ns);
  });
  r.Read(fields["device_events"]["sim"], &d.sim_device_events);
  r.Read(fields["device_events"]["hw"], &d.hw_device_events);
  ReadCounts(r, fields["event_names"], &d.event_names);
  ReadCounts(r, fields["fallbacks"], &d.fallbacks);
  ReadCounts(r, fields["recompiles"], &d.recompiles);
  r.Read(fields["error"]["op_device_mean_pct"], &d.error.op_device_mean_pct);
  r.Read(fields["error"]["op_device_max_pct"], &d.error.op_device_max_pct);
  r.Read(fields["error"]["class_device_mean_pct"], &d.error.class_device_mean_pct);
  r.Read(fields["error"]["latency_p50_pct"], &d.error.latency_p50_pct);
  r.Read(fields["error"]["host_self_pct"], &d.error.host_self_pct);
  r.ReadArray(fields["differences"], &d.differences, [&](element item, Difference* diff) {
    r.Read(item["kind"], &diff->kind);
    r.Read(item["what"], &diff->what);
    r.Read(item["sim"], &diff->sim);
    r.Read(item["hw"], &diff->hw);
  });
  if (r.error()) {
    return Status::Error(
        path + ": a compare field is missing or mistyped: " + simdjson::error_message(r.error()));
  }
  return d;
}

}  // namespace rblnsim::cli
