#include "profiler/diff/diff_gate.h"

#include <charconv>
#include <cmath>

namespace rblnsim::diff {

namespace {

Status RuleError(std::string_view text, const std::string& what) {
  return Status::Error("--fail-on '" + std::string(text) + "': " + what);
}

}  // namespace

StatusOr<GateRule> ParseGateRule(std::string_view text) {
  GateRule rule;
  rule.text = std::string(text);
  // Op names hold colons ("aten::mm"): the limit follows the last one.
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0)
    return RuleError(text, "expected METRIC:+LIMIT or METRIC:-LIMIT, e.g. latency.p99:+10%");
  rule.metric = std::string(text.substr(0, colon));
  std::string_view limit = text.substr(colon + 1);
  if (limit.empty() || (limit[0] != '+' && limit[0] != '-'))
    return RuleError(text, "the limit must start with + (an increase) or - (a decrease)");
  rule.increase = limit[0] == '+';
  limit.remove_prefix(1);
  const char* begin = limit.data();
  const char* end = limit.data() + limit.size();
  const auto [ptr, ec] = std::from_chars(begin, end, rule.amount);
  if (ec != std::errc() || ptr == begin || !std::isfinite(rule.amount) || rule.amount < 0)
    return RuleError(text, "the limit is not a non-negative number");
  const std::string_view unit(ptr, static_cast<size_t>(end - ptr));
  if (unit == "%") {
    rule.percent = true;
  } else if (unit == "ns" || unit == "us" || unit == "ms" || unit == "s") {
    rule.time_unit = true;
    rule.amount *= unit == "ns" ? 1.0 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : 1e9;
  } else if (!unit.empty()) {
    return RuleError(text, "unknown unit '" + std::string(unit) + "' (use %, ns, us, ms or s)");
  }
  return rule;
}

StatusOr<GateResult> EvaluateGate(const std::vector<GateRule>& rules, const TraceDiff& diff) {
  GateResult result;
  for (const GateRule& rule : rules) {
    const Metric* metric = diff.Find(rule.metric);
    if (metric == nullptr) {
      return RuleError(rule.text, "no metric '" + rule.metric +
                                      "' in either trace (see the metric names in diff --json)");
    }
    if (rule.time_unit && metric->unit != Unit::kNs)
      return RuleError(rule.text, "'" + rule.metric + "' is not a time; give a count or a %");
    RuleResult r;
    r.rule = rule;
    r.metric = *metric;
    r.limit = rule.percent ? rule.amount / 100.0 * std::fabs(metric->base) : rule.amount;
    r.comparable = metric->comparable;
    const double change = rule.increase ? metric->delta() : -metric->delta();
    // A change within what the stamps resolve is no change, whatever the limit.
    r.violated = r.comparable && change > r.limit &&
                 MovedBeyond(metric->base, metric->next, metric->resolution);
    result.violated += r.violated ? 1 : 0;
    result.not_comparable += r.comparable ? 0 : 1;
    result.rules.push_back(std::move(r));
  }
  return result;
}

}  // namespace rblnsim::diff
