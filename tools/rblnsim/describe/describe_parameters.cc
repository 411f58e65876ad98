#include "tools/rblnsim/describe/describe_parameters.h"

#include <cmath>

#include "scenario/registry.h"

namespace rblnsim::cli {

namespace {

using scenario::Param;
using scenario::ParamKind;
using scenario::ParamValue;

void WriteValue(trace::JsonWriter& json, const Param& param, const ParamValue& value) {
  if (std::holds_alternative<std::monostate>(value)) {
    json.Null();
  } else if (param.kind == ParamKind::kChoice) {
    json.String(param.choices.at(static_cast<size_t>(std::get<int64_t>(value))));
  } else if (param.kind == ParamKind::kChoiceSet) {
    json.BeginArray();
    for (size_t i = 0; i < param.choices.size(); ++i) {
      if ((std::get<int64_t>(value) >> i) & 1)
        json.String(param.choices[i]);
    }
    json.EndArray();
  } else if (param.kind == ParamKind::kUint64) {
    json.Uint(static_cast<uint64_t>(std::get<int64_t>(value)));
  } else if (const auto* whole = std::get_if<int64_t>(&value)) {
    json.Int(*whole);
  } else if (const auto* real = std::get_if<double>(&value)) {
    json.Double(*real);
  } else if (const auto* text = std::get_if<std::string>(&value)) {
    json.String(*text);
  } else if (const auto* costs = std::get_if<scenario::OpCostsNs>(&value)) {
    json.BeginObject();
    for (const auto& [name, ns] : *costs)
      json.Key(name).Double(ns);
    json.EndObject();
  } else if (const auto* counts = std::get_if<scenario::OpCounts>(&value)) {
    json.BeginObject();
    for (const auto& [name, count] : *counts)
      json.Key(name).Int(count);
    json.EndObject();
  }
}

const char* KindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kInt:
      return "integer";
    case ParamKind::kNumber:
      return "number";
    case ParamKind::kTime:
      return "time";
    case ParamKind::kTimeExact:
      return "time_exact";
    case ParamKind::kFrequency:
      return "frequency";
    case ParamKind::kSize:
      return "size";
    case ParamKind::kBandwidth:
      return "bandwidth";
    case ParamKind::kString:
      return "string";
    case ParamKind::kChoice:
      return "choice";
    case ParamKind::kChoiceSet:
      return "choice_list";
    case ParamKind::kName:
      return "name";
    case ParamKind::kUint64:
      return "unsigned";
    case ParamKind::kEnvVar:
      return "variable";
    case ParamKind::kOpCostMap:
      return "op_time_map";
    case ParamKind::kOpCountMap:
      return "op_count_map";
  }
  return "string";
}

void WriteBound(trace::JsonWriter& json, double bound) {
  if (std::isfinite(bound))
    json.Double(bound);
  else
    json.Null();
}

}  // namespace

void WriteParameterValues(trace::JsonWriter& json, const scenario::Scenario& s) {
  json.BeginObject();
  for (const Param& param : scenario::Parameters()) {
    json.Key(param.path);
    WriteValue(json, param, param.get(s));
  }
  json.EndObject();
}

std::string DescribeParametersJson() {
  trace::StringSink sink;
  trace::JsonWriter json(&sink, 2);
  json.BeginObject();
  json.Key("format").String(kParametersFormat);
  json.Key("parameters").BeginArray();
  for (const Param& param : scenario::Parameters()) {
    json.BeginObject();
    json.Key("path").String(param.path);
    json.Key("field").String(param.field);
    json.Key("kind").String(KindName(param.kind));
    json.Key("unit").String(param.unit);
    json.Key("range").BeginObject();
    json.Key("min");
    WriteBound(json, param.range.min);
    json.Key("max");
    WriteBound(json, param.range.max);
    json.Key("min_open").Bool(param.range.min_open);
    json.Key("max_open").Bool(param.range.max_open);
    json.Key("text").String(scenario::HumanRangeText(param));
    json.EndObject();
    json.Key("choices").BeginArray();
    for (std::string_view choice : param.choices)
      json.String(choice);
    json.EndArray();
    json.Key("default");
    WriteValue(json, param, scenario::DefaultValue(param));
    json.Key("help").String(param.help);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  json.Finish();
  return sink.text();
}

std::string DescribeParametersMarkdown() {
  std::string out;
  for (std::string_view section : scenario::RegistrySections()) {
    out += "<!-- registry: " + std::string(scenario::SectionLabel(section)) + " -->\n" +
           scenario::RegistryMarkdownTable(section) + "<!-- /registry -->\n";
  }
  return out;
}

}  // namespace rblnsim::cli
