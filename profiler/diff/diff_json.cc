#include "profiler/diff/diff_report.h"

namespace rblnsim::diff {

namespace {

const char* UnitName(Unit unit) {
  switch (unit) {
    case Unit::kNs:
      return "ns";
    case Unit::kCount:
      return "count";
  }
  return "ns";
}

// Every figure is whole nanoseconds or a count.
void Number(double v, trace::JsonWriter* json) {
  json->Int(static_cast<int64_t>(v));
}

void Side(const std::string& path,
          trace::Dialect dialect,
          int64_t events,
          trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("path").String(path);
  json->Key("dialect").String(trace::DialectName(dialect));
  json->Key("events").Int(events);
  json->EndObject();
}

void Totals(const OpTotals& t, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("calls").Int(t.calls);
  json->Key("self_cpu_ns").Int(t.self_cpu_ns);
  json->Key("cpu_total_ns").Int(t.cpu_total_ns);
  json->Key("device_ns").Int(t.device_ns);
  json->Key("launches").Int(t.launches);
  json->EndObject();
}

void PercentilesJson(const analysis::Percentiles& p, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("count").Int(p.count);
  json->Key("p50_ns").Int(p.p50_ns);
  json->Key("p90_ns").Int(p.p90_ns);
  json->Key("p99_ns").Int(p.p99_ns);
  json->Key("max_ns").Int(p.max_ns);
  json->EndObject();
}

void Names(const std::vector<std::string>& names, trace::JsonWriter* json) {
  json->BeginArray();
  for (const std::string& name : names)
    json->String(name);
  json->EndArray();
}

void AlignmentJson(const TraceDiff& diff, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("base_elements").Uint(diff.base_sequence);
  json->Key("new_elements").Uint(diff.new_sequence);
  json->Key("matched").Uint(diff.matched);
  json->Key("approximate").Bool(diff.approximate);
  json->Key("paired_launches").Int(diff.paired_launches);
  json->Key("paired_latency_changed").Int(diff.paired_latency_changed);
  json->Key("paired_latency_abs_delta");
  PercentilesJson(diff.paired_latency_delta, json);
  json->Key("stretches").BeginArray();
  for (const Stretch& s : diff.stretches) {
    json->BeginObject();
    json->Key("after").String(s.after);
    json->Key("base_begin").Uint(s.run.base_begin);
    json->Key("base_count").Uint(s.run.base_count);
    json->Key("new_begin").Uint(s.run.new_begin);
    json->Key("new_count").Uint(s.run.new_count);
    json->Key("base_ops");
    Names(s.base_ops, json);
    json->Key("new_ops");
    Names(s.new_ops, json);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

void DeviceRows(const std::vector<DeviceRowDiff>& rows, trace::JsonWriter* json) {
  json->BeginArray();
  for (const DeviceRowDiff& row : rows) {
    json->BeginObject();
    json->Key("name").String(row.name);
    json->Key("base_slices").Int(row.base.slices);
    json->Key("new_slices").Int(row.next.slices);
    json->Key("base_ns").Int(row.base.ns);
    json->Key("new_ns").Int(row.next.ns);
    json->EndObject();
  }
  json->EndArray();
}

void Metrics(const std::vector<Metric>& metrics, trace::JsonWriter* json) {
  json->BeginArray();
  for (const Metric& m : metrics) {
    json->BeginObject();
    json->Key("key").String(m.key);
    json->Key("unit").String(UnitName(m.unit));
    json->Key("base");
    Number(m.base, json);
    json->Key("new");
    Number(m.next, json);
    json->Key("delta");
    Number(m.delta(), json);
    json->Key("delta_pct");
    if (const std::optional<double> pct = m.delta_pct())
      json->Double(*pct);
    else
      json->Null();
    json->Key("in_base").Bool(m.in_base);
    json->Key("in_new").Bool(m.in_new);
    json->Key("comparable").Bool(m.comparable);
    json->Key("changed").Bool(m.changed());
    json->EndObject();
  }
  json->EndArray();
}

void Gate(const GateResult& gate, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("passed").Bool(gate.passed());
  json->Key("violated").Int(gate.violated);
  json->Key("not_comparable").Int(gate.not_comparable);
  json->Key("rules").BeginArray();
  for (const RuleResult& r : gate.rules) {
    json->BeginObject();
    json->Key("rule").String(r.rule.text);
    json->Key("metric").String(r.rule.metric);
    json->Key("base");
    Number(r.metric.base, json);
    json->Key("new");
    Number(r.metric.next, json);
    json->Key("limit").Double(r.limit);
    json->Key("comparable").Bool(r.comparable);
    json->Key("violated").Bool(r.violated);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

}  // namespace

void WriteDiffJson(const TraceDiff& diff,
                   const DiffLabels& labels,
                   const GateResult* gate,
                   trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("format").Int(kDiffJsonFormat);
  json->Key("base");
  Side(labels.base_path, diff.base_dialect, diff.base_events, json);
  json->Key("new");
  Side(labels.new_path, diff.new_dialect, diff.new_events, json);
  json->Key("differences").Bool(diff.HasDifferences());
  json->Key("alignment");
  AlignmentJson(diff, json);
  json->Key("operators").BeginArray();
  for (const OpDiff& op : diff.ops) {
    json->BeginObject();
    json->Key("name").String(op.name);
    json->Key("in_base").Bool(op.in_base);
    json->Key("in_new").Bool(op.in_new);
    json->Key("changed").Bool(op.changed());
    json->Key("base");
    Totals(op.base, json);
    json->Key("new");
    Totals(op.next, json);
    json->EndObject();
  }
  json->EndArray();
  json->Key("hidden").BeginArray();
  for (const HiddenDiff& h : diff.hidden) {
    json->BeginObject();
    json->Key("kind").String(HiddenKindName(h.key.kind));
    json->Key("op").String(h.key.op);
    json->Key("reason").String(h.key.reason);
    json->Key("base").Int(h.base);
    json->Key("new").Int(h.next);
    json->EndObject();
  }
  json->EndArray();
  json->Key("device").BeginObject();
  json->Key("classes");
  DeviceRows(diff.device_classes, json);
  json->Key("lanes");
  DeviceRows(diff.device_lanes, json);
  json->Key("families");
  DeviceRows(diff.device_families, json);
  json->EndObject();
  json->Key("metrics");
  Metrics(diff.metrics, json);
  if (gate != nullptr) {
    json->Key("gate");
    Gate(*gate, json);
  }
  json->EndObject();
}

}  // namespace rblnsim::diff
