#include "tools/rblnsim/lib/sweep/sweep_point_file.h"

#include <simdjson.h>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::cli {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

Status JsonError(const std::string& path, simdjson::error_code error, const char* what) {
  return Status::Error(path + ": " + what + ": " + simdjson::error_message(error));
}

// Re-serializes a parsed value with the project's writer, so numbers keep one spelling.
void CopyJson(element value, trace::JsonWriter& json) {
  switch (value.type()) {
    case element_type::ARRAY: {
      json.BeginArray();
      simdjson::dom::array array;
      if (!value.get_array().get(array)) {
        for (element item : array)
          CopyJson(item, json);
      }
      json.EndArray();
      return;
    }
    case element_type::OBJECT: {
      json.BeginObject();
      object fields;
      if (!value.get_object().get(fields)) {
        for (const auto field : fields) {
          json.Key(field.key);
          CopyJson(field.value, json);
        }
      }
      json.EndObject();
      return;
    }
    case element_type::INT64:
      json.Int(static_cast<int64_t>(value));
      return;
    case element_type::UINT64:
      json.Uint(static_cast<uint64_t>(value));
      return;
    case element_type::DOUBLE:
      json.Double(static_cast<double>(value));
      return;
    case element_type::STRING:
      json.String(static_cast<std::string_view>(value));
      return;
    case element_type::BOOL:
      json.Bool(static_cast<bool>(value));
      return;
    case element_type::NULL_VALUE:
      json.Null();
      return;
  }
}

std::string Compact(element value) {
  trace::StringSink sink;
  trace::JsonWriter json(&sink, 0);
  CopyJson(value, json);
  return sink.text();
}

// A number as the writer spells it, or nullopt for a non-number.
std::optional<Metric> AsMetric(std::string name, element value) {
  switch (value.type()) {
    case element_type::INT64:
      return Metric{std::move(name), std::to_string(static_cast<int64_t>(value)),
                    static_cast<double>(static_cast<int64_t>(value))};
    case element_type::UINT64:
      return Metric{std::move(name), std::to_string(static_cast<uint64_t>(value)),
                    static_cast<double>(static_cast<uint64_t>(value))};
    case element_type::DOUBLE:
      return Metric{std::move(name), trace::FormatJsonDouble(static_cast<double>(value)),
                    static_cast<double>(value)};
    default:
      return std::nullopt;
  }
}

}  // namespace

bool IsPointKey(const std::string& text) {
  if (text.size() != 16)
    return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  }
  return true;
}

Status WritePointRecord(const std::string& path, const PointRecord& record) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    trace::JsonWriter json(&sink, 1);
    json.BeginObject();
    json.Key("format").String(kPointFormat);
    json.Key("key").String(record.key);
    json.Key("index").Int(record.index);
    json.Key("points_total").Int(record.points_total);
    json.Key("sweep_id").String(record.sweep_id);
    json.Key("scenario").String(record.scenario);
    json.Key("params").BeginObject();
    for (const auto& [path_key, value] : record.params)
      json.Key(path_key).String(value);
    json.EndObject();
    json.Key("seed").Uint(record.seed);
    json.Key("workload").BeginObject();
    json.Key("matmul_flops").Double(record.matmul_flops);
    json.Key("peak_flops_per_s").Double(record.peak_flops_per_s);
    json.EndObject();
    json.Key("derived").BeginObject();
    if (record.device_active_ns >= 0)
      json.Key("device_active_ns").Double(record.device_active_ns);
    json.EndObject();
    json.Key("status").String(record.ok ? "ok" : "failed");
    json.Key("error");
    if (record.ok)
      json.Null();
    else
      json.String(record.error);
    json.Key("metrics").Raw(record.metrics_json);
    json.EndObject();
    json.Finish();
    return sink.status();
  });
}

StatusOr<PointRecord> ReadPointRecord(const std::string& path) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = parser.load(path).get(root))
    return JsonError(path, error, "not a readable point file");
  object fields;
  if (auto error = root.get_object().get(fields))
    return JsonError(path, error, "a point file holds one object");
  PointRecord record;
  std::string_view format, key, sweep_id, scenario, status;
  element params, workload, metrics;
  simdjson::error_code error = simdjson::SUCCESS;
  const auto need = [&](simdjson::error_code result) {
    if (!error)
      error = result;
  };
  need(fields["format"].get_string().get(format));
  need(fields["key"].get_string().get(key));
  need(fields["index"].get_int64().get(record.index));
  need(fields["points_total"].get_int64().get(record.points_total));
  need(fields["sweep_id"].get_string().get(sweep_id));
  need(fields["scenario"].get_string().get(scenario));
  need(fields["params"].get(params));
  need(fields["seed"].get_uint64().get(record.seed));
  need(fields["workload"].get(workload));
  need(fields["status"].get_string().get(status));
  need(fields["metrics"].get(metrics));
  if (error)
    return JsonError(path, error, "a field of the point record is missing or mistyped");
  if (format != kPointFormat)
    return Status::Error(path + ": format is '" + std::string(format) + "', not " + kPointFormat);
  record.key = std::string(key);
  record.sweep_id = std::string(sweep_id);
  record.scenario = std::string(scenario);
  record.ok = status == "ok";
  object params_object;
  if (auto e = params.get_object().get(params_object))
    return JsonError(path, e, "params");
  for (const auto field : params_object) {
    std::string_view value;
    if (auto e = field.value.get_string().get(value))
      return JsonError(path, e, "a parameter value");
    record.params.emplace_back(std::string(field.key), std::string(value));
  }
  // The workload figures are optional: without them merge has no achieved TFLOPS, nothing else.
  if (workload["matmul_flops"].get_double().get(record.matmul_flops))
    record.matmul_flops = 0;
  if (workload["peak_flops_per_s"].get_double().get(record.peak_flops_per_s))
    record.peak_flops_per_s = 0;
  double active_ns = 0;
  if (!fields["derived"]["device_active_ns"].get_double().get(active_ns))
    record.device_active_ns = active_ns;
  std::string_view message;
  if (!record.ok && !fields["error"].get_string().get(message))
    record.error = std::string(message);
  if (metrics.type() != element_type::OBJECT)
    return Status::Error(path + ": metrics is not an object");
  record.metrics_json = Compact(metrics);
  return record;
}

StatusOr<std::vector<Metric>> FlattenMetrics(const std::string& metrics_json) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = parser.parse(metrics_json).get(root))
    return JsonError("metrics", error, "invalid JSON");
  std::vector<Metric> metrics;
  object fields;
  if (auto error = root.get_object().get(fields))
    return JsonError("metrics", error, "not an object");
  for (const auto field : fields) {
    const std::string name(field.key);
    if (auto metric = AsMetric(name, field.value)) {
      metrics.push_back(std::move(*metric));
      continue;
    }
    object nested;
    if (field.value.get_object().get(nested))
      continue;
    for (const auto inner : nested) {
      if (auto metric = AsMetric(name + "." + std::string(inner.key), inner.value))
        metrics.push_back(std::move(*metric));
    }
  }
  return metrics;
}

}  // namespace rblnsim::cli
