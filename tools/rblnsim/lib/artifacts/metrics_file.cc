#include "tools/rblnsim/lib/artifacts/metrics_file.h"

#include <simdjson.h>

#include "profiler/trace/atomic_file.h"

namespace rblnsim::cli {

void WriteMetricsJson(const RunMetrics& m, trace::JsonWriter& json) {
  json.BeginObject();
  json.Key("format").String(kMetricsFormat);
  json.Key("scenario").String(m.scenario);
  json.Key("seed").Uint(m.seed);
  json.Key("end_to_end_ns").Double(m.end_to_end_ns);
  json.Key("launches").Int(m.launches);
  json.Key("launches_per_s").Double(m.launches_per_s);
  json.Key("device_events").Int(m.device_events);
  json.Key("self_rbln_total_ns").Int(m.self_rbln_total_ns);
  json.Key("latency_p50_ns").Double(m.latency_p50_ns);
  json.Key("latency_p90_ns").Double(m.latency_p90_ns);
  json.Key("latency_p99_ns").Double(m.latency_p99_ns);
  json.Key("latency_max_ns").Double(m.latency_max_ns);
  json.Key("fallbacks").Int(m.fallbacks);
  json.Key("recompiles").Int(m.recompiles);
  json.Key("records_dropped").Int(m.records_dropped);
  json.Key("commands_timed_out").Int(m.commands_timed_out);
  json.Key("max_ring_occupancy").Int(m.max_ring_occupancy);
  json.Key("engine_busy_pct").BeginObject();
  for (const auto& [engine, pct] : m.engine_busy_pct)
    json.Key(engine).Double(pct);
  json.EndObject();
  json.Key("device_busy_pct").Double(m.device_busy_pct);
  json.EndObject();
}

Status WriteMetricsFile(const std::string& path, const RunMetrics& metrics) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    trace::JsonWriter json(&sink, 1);
    WriteMetricsJson(metrics, json);
    json.Finish();
    sink.Append("\n");
    return sink.status();
  });
}

StatusOr<RunMetrics> ReadMetricsFile(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.load(path).get(root))
    return Status::Error(path + ": not a readable metrics file: " + simdjson::error_message(error));
  simdjson::dom::object fields;
  if (root.get_object().get(fields))
    return Status::Error(path + ": a metrics file holds one JSON object");
  std::string_view format;
  if (fields["format"].get_string().get(format))
    return Status::Error(path + ": no format field: not a metrics file of this rblnsim (expected " +
                         kMetricsFormat + ")");
  if (format != kMetricsFormat) {
    return Status::Error(path + ": metrics format is '" + std::string(format) +
                         "', this rblnsim reads " + kMetricsFormat);
  }
  RunMetrics m;
  std::string_view scenario;
  simdjson::dom::object busy;
  simdjson::error_code error = simdjson::SUCCESS;
  const auto need = [&](simdjson::error_code result) {
    if (!error)
      error = result;
  };
  need(fields["scenario"].get_string().get(scenario));
  need(fields["seed"].get_uint64().get(m.seed));
  need(fields["end_to_end_ns"].get_double().get(m.end_to_end_ns));
  need(fields["launches"].get_int64().get(m.launches));
  need(fields["launches_per_s"].get_double().get(m.launches_per_s));
  need(fields["device_events"].get_int64().get(m.device_events));
  need(fields["self_rbln_total_ns"].get_int64().get(m.self_rbln_total_ns));
  need(fields["latency_p50_ns"].get_double().get(m.latency_p50_ns));
  need(fields["latency_p90_ns"].get_double().get(m.latency_p90_ns));
  need(fields["latency_p99_ns"].get_double().get(m.latency_p99_ns));
  need(fields["latency_max_ns"].get_double().get(m.latency_max_ns));
  need(fields["fallbacks"].get_int64().get(m.fallbacks));
  need(fields["recompiles"].get_int64().get(m.recompiles));
  need(fields["records_dropped"].get_int64().get(m.records_dropped));
  need(fields["commands_timed_out"].get_int64().get(m.commands_timed_out));
  need(fields["max_ring_occupancy"].get_int64().get(m.max_ring_occupancy));
  need(fields["engine_busy_pct"].get_object().get(busy));
  need(fields["device_busy_pct"].get_double().get(m.device_busy_pct));
  if (error) {
    return Status::Error(
        path + ": a metrics field is missing or mistyped: " + simdjson::error_message(error));
  }
  m.scenario = std::string(scenario);
  for (const auto field : busy) {
    double pct = 0;
    if (field.value.get_double().get(pct))
      return Status::Error(path + ": engine_busy_pct." + std::string(field.key) +
                           " is not a number");
    m.engine_busy_pct.emplace_back(std::string(field.key), pct);
  }
  return m;
}

}  // namespace rblnsim::cli
