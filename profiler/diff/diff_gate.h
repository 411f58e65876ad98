// `--fail-on` rules: a regression gate over the diff's metrics.
//
//   RULE   := METRIC ":" SIGN NUMBER [ "%" | "ns" | "us" | "ms" | "s" ]
//   METRIC := a TraceDiff metric key: "latency.p99", "fallbacks", "op[aten::mm].self_cpu", ...
//
// "+" bounds an increase, "-" a decrease: `latency.p99:+10%` fails when the new p99 exceeds the
// base's by more than 10 % of it, `fallbacks:+0` when there is any new fallback, and
// `device_time:+5us` when device time grew by more than 5 µs. A percentage of a zero base
// allows no change at all. Time units apply to time metrics only; a bare number is in the
// metric's own unit (ns for times).
#ifndef RBLNSIM_PROFILER_DIFF_DIFF_GATE_H_
#define RBLNSIM_PROFILER_DIFF_DIFF_GATE_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "profiler/diff/trace_diff.h"

namespace rblnsim::diff {

struct GateRule {
  std::string text;  // as given
  std::string metric;
  bool increase = true;  // "+": an increase beyond the limit fails; "-": a decrease
  double amount = 0;
  bool percent = false;
  bool time_unit = false;  // the amount carried a time unit (converted to ns)
};

// Parses one rule; errors name the rule and what is wrong with it.
StatusOr<GateRule> ParseGateRule(std::string_view text);

struct RuleResult {
  GateRule rule;
  Metric metric;
  double limit = 0;  // the allowed change, in the metric's unit (0 for a zero-base percentage)
  bool comparable = true;  // false: the metric depends on the dialects' layout (not evaluated)
  bool violated = false;
};

struct GateResult {
  std::vector<RuleResult> rules;
  int64_t violated = 0;
  int64_t not_comparable = 0;
  bool passed() const { return violated == 0; }
};

// Evaluates |rules| against |diff|. A rule naming a metric neither trace has (a misspelt op, a
// lane of neither run) is bad input, not a pass: kInvalidArgument naming the rule.
StatusOr<GateResult> EvaluateGate(const std::vector<GateRule>& rules, const TraceDiff& diff);

}  // namespace rblnsim::diff

#endif  // RBLNSIM_PROFILER_DIFF_DIFF_GATE_H_
