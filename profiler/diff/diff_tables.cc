#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "profiler/diff/diff_report.h"

namespace rblnsim::diff {

namespace {

std::string Value(Unit unit, double v) {
  switch (unit) {
    case Unit::kNs:
      return fmt::format("{:.3f}", v / 1e3);
    case Unit::kCount:
      return fmt::format("{:.0f}", v);
  }
  return "";
}

std::string Delta(Unit unit, double d) {
  if (d == 0)
    return "0";
  return (d > 0 ? "+" : "-") + Value(unit, std::fabs(d));
}

std::string Pct(const Metric& m) {
  if (!m.in_base)
    return "added";
  if (!m.in_new)
    return "removed";
  const std::optional<double> pct = m.delta_pct();
  if (!pct)
    return "new";
  return fmt::format("{:+.1f}%", *pct);
}

std::string Us(int64_t ns) {
  return Value(Unit::kNs, static_cast<double>(ns));
}

std::string Arrow(int64_t base, int64_t next) {
  return base == next ? std::to_string(base) : fmt::format("{} -> {}", base, next);
}

std::string Label(const Metric& m) {
  return m.unit == Unit::kNs ? m.key + " (us)" : m.key;
}

// Which table an overall metric (no brackets in its key) belongs to.
bool IsLaunchMetric(const std::string& key) {
  for (const char* prefix : {"launches", "latency.", "launch_delay.", "queue.", "device.busy",
                             "idle.", "paired_launches."}) {
    if (key.rfind(prefix, 0) == 0)
      return true;
  }
  return false;
}

bool IsOpLaunchMetric(const std::string& key) {
  return key.rfind("op[", 0) == 0 && (key.find("].latency.") != std::string::npos ||
                                      key.find("].launch_delay.") != std::string::npos);
}

void AddMetricRow(const Metric& m, DiffTable* table) {
  table->rows.push_back(
      {Label(m), Value(m.unit, m.base), Value(m.unit, m.next), Delta(m.unit, m.delta()), Pct(m)});
}

void Limit(size_t row_limit, DiffTable* table) {
  if (table->rows.size() > row_limit) {
    table->hidden_rows = table->rows.size() - row_limit;
    table->rows.resize(row_limit);
  }
}

DiffTable AlignmentTable(const TraceDiff& diff, size_t row_limit) {
  DiffTable t;
  t.title = "Alignment";
  t.notes.push_back(fmt::format(
      "host ops and launches matched by op sequence: {} of {} in base, {} of {} in new{}",
      diff.matched, diff.base_sequence, diff.matched, diff.new_sequence,
      diff.approximate ? " (partly approximate: the runs differ in too many places for an exact "
                         "match)"
                       : ""));
  t.notes.push_back(fmt::format(
      "paired launches: {}; submission latency moved in {} (|delta| p50 {} us, max {} us)",
      diff.paired_launches, diff.paired_latency_changed, Us(diff.paired_latency_delta.p50_ns),
      Us(diff.paired_latency_delta.max_ns)));
  if (diff.stretches.empty()) {
    t.notes.push_back("no unmatched stretch");
    return t;
  }
  t.notes.push_back(fmt::format("{} unmatched stretch{}", diff.stretches.size(),
                                diff.stretches.size() == 1 ? "" : "es"));
  t.header = {"after", "base only", "new only", "ops (- base only, + new only)"};
  constexpr size_t kShown = 4;
  for (const Stretch& s : diff.stretches) {
    std::string ops;
    size_t shown = 0;
    for (const auto& [sign, names] : {std::pair{"-", &s.base_ops}, std::pair{"+", &s.new_ops}}) {
      for (size_t i = 0; i < names->size() && shown < kShown; ++i, ++shown)
        ops += (ops.empty() ? "" : ", ") + std::string(sign) + (*names)[i];
    }
    if (s.run.base_count + s.run.new_count > shown)
      ops += ", ...";
    t.rows.push_back({s.after.empty() ? "(start)" : s.after, std::to_string(s.run.base_count),
                      std::to_string(s.run.new_count), ops});
  }
  Limit(row_limit, &t);
  return t;
}

DiffTable OperatorTable(const TraceDiff& diff, size_t row_limit) {
  DiffTable t;
  t.title = "Operators";
  const auto changed = std::count_if(diff.ops.begin(), diff.ops.end(),
                                     [](const OpDiff& op) { return op.changed(); });
  t.notes.push_back(fmt::format(
      "{} of {} operators changed, by |delta self CPU| + |delta device time|; device time is "
      "attributed to the launching op",
      changed, diff.ops.size()));
  t.notes.push_back("times in us");
  t.header = {"Name",  "Calls",   "Self CPU base",   "new",
              "delta", "delta %", "CPU total delta", "Device base",
              "new",   "delta",   "Launches",        "change"};
  for (const OpDiff& op : diff.ops) {
    if (!op.changed())
      continue;
    const Metric self{"",
                      Unit::kNs,
                      static_cast<double>(op.base.self_cpu_ns),
                      static_cast<double>(op.next.self_cpu_ns),
                      op.in_base,
                      op.in_new,
                      true};
    t.rows.push_back(
        {op.name, Arrow(op.base.calls, op.next.calls), Us(op.base.self_cpu_ns),
         Us(op.next.self_cpu_ns),
         Delta(Unit::kNs, static_cast<double>(op.next.self_cpu_ns - op.base.self_cpu_ns)),
         Pct(self),
         Delta(Unit::kNs, static_cast<double>(op.next.cpu_total_ns - op.base.cpu_total_ns)),
         Us(op.base.device_ns), Us(op.next.device_ns),
         Delta(Unit::kNs, static_cast<double>(op.next.device_ns - op.base.device_ns)),
         Arrow(op.base.launches, op.next.launches),
         !op.in_base  ? "added"
         : !op.in_new ? "removed"
                      : ""});
  }
  Limit(row_limit, &t);
  return t;
}

DiffTable MetricTable(const TraceDiff& diff, size_t row_limit) {
  DiffTable t;
  t.title = "Launches and device idle";
  t.header = {"metric", "base", "new", "delta", "delta %"};
  size_t not_compared = 0;
  for (const Metric& m : diff.metrics) {
    if (!IsLaunchMetric(m.key) && !IsOpLaunchMetric(m.key))
      continue;
    not_compared += m.comparable ? 0 : 1;
    if (m.changed())
      AddMetricRow(m, &t);
  }
  if (not_compared > 0) {
    t.notes.push_back(fmt::format(
        "launch delay not compared ({} figures): base is {}, new is {}, and the two dialects' "
        "launch markers differ in length",
        not_compared, trace::DialectName(diff.base_dialect), trace::DialectName(diff.new_dialect)));
  }
  if (t.rows.empty())
    t.notes.push_back("no launch figure changed");
  Limit(row_limit, &t);
  return t;
}

DiffTable TotalsTable(const TraceDiff& diff) {
  DiffTable t;
  t.title = "Totals";
  t.header = {"metric", "base", "new", "delta", "delta %"};
  for (const Metric& m : diff.metrics) {
    if (m.key.find('[') == std::string::npos && !IsLaunchMetric(m.key) && m.changed())
      AddMetricRow(m, &t);
  }
  if (t.rows.empty())
    t.notes.push_back("no total changed");
  return t;
}

DiffTable HiddenTable(const TraceDiff& diff, size_t row_limit) {
  DiffTable t;
  t.title = "Hidden host work";
  t.header = {"kind", "op", "reason", "base", "new", "delta"};
  for (const HiddenDiff& h : diff.hidden) {
    t.rows.push_back({HiddenKindName(h.key.kind), h.key.op,
                      h.key.reason.empty() ? "-" : h.key.reason, std::to_string(h.base),
                      std::to_string(h.next), fmt::format("{:+d}", h.next - h.base)});
  }
  if (t.rows.empty())
    t.notes.push_back("the same fallbacks, recompiles, round trips and NaN/Inf scans in both");
  Limit(row_limit, &t);
  return t;
}

DiffTable DeviceTable(const TraceDiff& diff, size_t row_limit) {
  DiffTable t;
  t.title = "Device";
  t.header = {"row", "slices", "base us", "new us", "delta", "delta %"};
  const auto add = [&](const char* kind, const std::vector<DeviceRowDiff>& rows) {
    for (const DeviceRowDiff& row : rows) {
      if (!row.changed())
        continue;
      const Metric m{"",
                     Unit::kNs,
                     static_cast<double>(row.base.ns),
                     static_cast<double>(row.next.ns),
                     row.base.slices > 0,
                     row.next.slices > 0,
                     true};
      t.rows.push_back({std::string(kind) + " " + row.name, Arrow(row.base.slices, row.next.slices),
                        Us(row.base.ns), Us(row.next.ns), Delta(Unit::kNs, m.delta()), Pct(m)});
    }
  };
  add("class", diff.device_classes);
  if (diff.same_dialect())
    add("lane", diff.device_lanes);
  else
    t.notes.push_back(
        "per-lane rows not compared: the dialects lay lanes out differently "
        "(engines vs activity kinds); the classes compare");
  add("family", diff.device_families);
  if (t.rows.empty())
    t.notes.push_back("the same device time per class, lane and command family");
  Limit(row_limit, &t);
  return t;
}

DiffTable GateTable(const GateResult& gate) {
  DiffTable t;
  t.title = "Gate";
  t.notes.push_back(fmt::format("{} rule{}, {} violated{}", gate.rules.size(),
                                gate.rules.size() == 1 ? "" : "s", gate.violated,
                                gate.not_comparable > 0
                                    ? fmt::format(", {} not comparable across the dialects "
                                                  "(not evaluated)",
                                                  gate.not_comparable)
                                    : ""));
  t.header = {"result", "rule", "base", "new", "delta", "limit"};
  for (const RuleResult& r : gate.rules) {
    const Unit unit = r.metric.unit;
    t.rows.push_back({!r.comparable ? "n/a"
                      : r.violated  ? "FAIL"
                                    : "ok",
                      r.rule.text, Value(unit, r.metric.base), Value(unit, r.metric.next),
                      Delta(unit, r.metric.delta()),
                      (r.rule.increase ? "+" : "-") + Value(unit, r.limit)});
  }
  return t;
}

}  // namespace

std::vector<DiffTable> DiffTables(const TraceDiff& diff, const GateResult* gate, size_t row_limit) {
  std::vector<DiffTable> tables;
  tables.push_back(AlignmentTable(diff, row_limit));
  tables.push_back(TotalsTable(diff));
  tables.push_back(OperatorTable(diff, row_limit));
  tables.push_back(MetricTable(diff, row_limit));
  tables.push_back(HiddenTable(diff, row_limit));
  tables.push_back(DeviceTable(diff, row_limit));
  if (gate != nullptr)
    tables.push_back(GateTable(*gate));
  return tables;
}

std::string DiffHeadline(const TraceDiff& diff, const GateResult* gate) {
  std::string text;
  if (!diff.HasDifferences()) {
    text = "no differences: the same operators, launches, hidden host work and device time";
  } else {
    const auto metrics = std::count_if(diff.metrics.begin(), diff.metrics.end(),
                                       [](const Metric& m) { return m.changed(); });
    const auto ops = std::count_if(diff.ops.begin(), diff.ops.end(),
                                   [](const OpDiff& op) { return op.changed(); });
    text = fmt::format("{} figure{} changed ({} operator{}), {} unmatched stretch{}", metrics,
                       metrics == 1 ? "" : "s", ops, ops == 1 ? "" : "s", diff.stretches.size(),
                       diff.stretches.size() == 1 ? "" : "es");
  }
  if (gate != nullptr) {
    text += gate->passed() ? fmt::format("; gate passed ({} rules)", gate->rules.size())
                           : fmt::format("; gate FAILED: {} of {} rules violated", gate->violated,
                                         gate->rules.size());
  }
  return text;
}

}  // namespace rblnsim::diff
