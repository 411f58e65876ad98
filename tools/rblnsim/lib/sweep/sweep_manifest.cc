#include "tools/rblnsim/lib/sweep/sweep_manifest.h"

#include <simdjson.h>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::cli {
namespace {

Status Invalid(const std::string& path, const std::string& what) {
  return Status::Error(path + ": not a sweep manifest (" + what + ")");
}

}  // namespace

Status WriteManifest(const std::string& path, const SweepPlan& plan) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    trace::JsonWriter json(&sink, 2);
    json.BeginObject();
    json.Key("format").String(kManifestFormat);
    json.Key("scenario").String(plan.scenario_name);
    json.Key("sweep_id").String(plan.sweep_id);
    json.Key("axes").BeginArray();
    for (const std::string& axis : plan.axes)
      json.String(axis);
    json.EndArray();
    json.Key("points_total").Int(static_cast<int64_t>(plan.points.size()));
    json.Key("points").BeginArray();
    for (const SweepPoint& point : plan.points) {
      json.BeginObject();
      json.Key("index").Int(static_cast<int64_t>(point.index));
      json.Key("key").String(point.key);
      json.Key("params").BeginObject();
      for (const auto& [axis, value] : point.params)
        json.Key(axis).String(value);
      json.EndObject();
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    json.Finish();
    return sink.status();
  });
}

StatusOr<Manifest> ReadManifest(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::object root;
  if (auto error = parser.load(path).get_object().get(root))
    return Invalid(path, simdjson::error_message(error));
  std::string_view format, scenario, sweep_id;
  simdjson::dom::array axes, points;
  if (root["format"].get_string().get(format) || format != kManifestFormat ||
      root["scenario"].get_string().get(scenario) || root["sweep_id"].get_string().get(sweep_id) ||
      root["axes"].get_array().get(axes) || root["points"].get_array().get(points)) {
    return Invalid(path, "missing or mistyped format, scenario, sweep_id, axes or points");
  }
  Manifest manifest;
  manifest.scenario = std::string(scenario);
  manifest.sweep_id = std::string(sweep_id);
  for (simdjson::dom::element axis : axes) {
    std::string_view text;
    if (axis.get_string().get(text))
      return Invalid(path, "an axis is not a string");
    manifest.axes.emplace_back(text);
  }
  for (simdjson::dom::element item : points) {
    ManifestPoint point;
    std::string_view key;
    int64_t index = 0;
    simdjson::dom::object params;
    if (item["key"].get_string().get(key) || item["index"].get_int64().get(index) ||
        item["params"].get_object().get(params) ||
        index != static_cast<int64_t>(manifest.points.size())) {
      return Invalid(path, "point " + std::to_string(manifest.points.size()) + " is malformed");
    }
    point.key = std::string(key);
    for (const auto field : params) {
      std::string_view value;
      if (field.value.get_string().get(value))
        return Invalid(path, "a parameter value is not a string");
      point.params.emplace_back(std::string(field.key), std::string(value));
    }
    manifest.points.push_back(std::move(point));
  }
  return manifest;
}

}  // namespace rblnsim::cli
