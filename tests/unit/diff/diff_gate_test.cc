// --fail-on rules: parsing, the limit a percentage or an amount sets, direction, resolution,
// dialect-dependent metrics, and rules that name nothing.
#include "profiler/diff/diff_gate.h"

#include <gtest/gtest.h>

namespace rblnsim::diff {
namespace {

TEST(DiffGate, ParsesRules) {
  auto pct = ParseGateRule("latency.p99:+10%");
  ASSERT_TRUE(pct.ok()) << pct.status().message();
  EXPECT_EQ(pct->metric, "latency.p99");
  EXPECT_TRUE(pct->increase);
  EXPECT_TRUE(pct->percent);
  EXPECT_DOUBLE_EQ(pct->amount, 10);

  auto op = ParseGateRule("op[aten::mm].self_cpu:+20%");
  ASSERT_TRUE(op.ok());
  EXPECT_EQ(op->metric, "op[aten::mm].self_cpu");

  auto time = ParseGateRule("device_time:-5us");
  ASSERT_TRUE(time.ok());
  EXPECT_FALSE(time->increase);
  EXPECT_TRUE(time->time_unit);
  EXPECT_DOUBLE_EQ(time->amount, 5000);

  auto zero = ParseGateRule("fallbacks:+0");
  ASSERT_TRUE(zero.ok());
  EXPECT_DOUBLE_EQ(zero->amount, 0);
  EXPECT_FALSE(zero->percent);
}

TEST(DiffGate, RefusesMalformedRulesNamingThem) {
  for (const char* bad : {"latency.p99", "latency.p99:10%", ":+1", "x:+", "x:+abc", "x:+5parsec",
                          "x:+-1", "x:+nan"}) {
    auto rule = ParseGateRule(bad);
    ASSERT_FALSE(rule.ok()) << bad;
    EXPECT_NE(rule.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << rule.status().message();
    EXPECT_EQ(rule.status().code(), StatusCode::kInvalidInput);
  }
}

Metric M(const char* key, Unit unit, double base, double next) {
  Metric m;
  m.key = key;
  m.unit = unit;
  m.base = base;
  m.next = next;
  return m;
}

TraceDiff DiffWith(std::vector<Metric> metrics) {
  TraceDiff diff;
  diff.metrics = std::move(metrics);
  return diff;
}

GateResult Evaluate(const TraceDiff& diff, std::vector<const char*> texts) {
  std::vector<GateRule> rules;
  for (const char* text : texts)
    rules.push_back(*ParseGateRule(text));
  auto result = EvaluateGate(rules, diff);
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? *result : GateResult{};
}

TEST(DiffGate, APercentageOfTheBaseBoundsTheChange) {
  const TraceDiff diff = DiffWith({M("latency.p99", Unit::kNs, 1000, 1100)});
  EXPECT_FALSE(Evaluate(diff, {"latency.p99:+10%"}).rules[0].violated);  // exactly 10 %
  EXPECT_TRUE(Evaluate(diff, {"latency.p99:+9.9%"}).rules[0].violated);
  EXPECT_FALSE(Evaluate(diff, {"latency.p99:-1%"}).rules[0].violated);  // it grew: no decrease
  EXPECT_DOUBLE_EQ(Evaluate(diff, {"latency.p99:+10%"}).rules[0].limit, 100);
  EXPECT_TRUE(Evaluate(diff, {"latency.p99:+0.05us"}).rules[0].violated);
  EXPECT_FALSE(Evaluate(diff, {"latency.p99:+100ns"}).rules[0].violated);
}

TEST(DiffGate, ZeroAllowsNoIncreaseAndAZeroBaseAllowsNoPercentage) {
  const TraceDiff diff = DiffWith({M("fallbacks", Unit::kCount, 0, 1)});
  const GateResult zero = Evaluate(diff, {"fallbacks:+0"});
  EXPECT_TRUE(zero.rules[0].violated);
  EXPECT_FALSE(zero.passed());
  EXPECT_TRUE(Evaluate(diff, {"fallbacks:+50%"}).rules[0].violated);
  EXPECT_FALSE(Evaluate(diff, {"fallbacks:+1"}).rules[0].violated);
  EXPECT_TRUE(Evaluate(DiffWith({M("fallbacks", Unit::kCount, 0, 0)}), {"fallbacks:+0"}).passed());
}

TEST(DiffGate, ADecreaseRuleFailsOnADrop) {
  const TraceDiff diff = DiffWith({M("device_time", Unit::kNs, 1000, 800)});
  EXPECT_TRUE(Evaluate(diff, {"device_time:-10%"}).rules[0].violated);
  EXPECT_FALSE(Evaluate(diff, {"device_time:-20%"}).rules[0].violated);
  EXPECT_FALSE(Evaluate(diff, {"device_time:+0"}).rules[0].violated);
}

TEST(DiffGate, AChangeWithinTheStampsResolutionIsNoChange) {
  Metric m = M("latency.p99", Unit::kNs, 1000, 1001);
  m.resolution = 1;
  EXPECT_FALSE(Evaluate(DiffWith({m}), {"latency.p99:+0"}).rules[0].violated);
  m.next = 1002;
  EXPECT_TRUE(Evaluate(DiffWith({m}), {"latency.p99:+0"}).rules[0].violated);
}

TEST(DiffGate, ALayoutMetricAcrossDialectsIsCountedNotEvaluated) {
  Metric m = M("launch_delay.p99", Unit::kNs, 1000, 9000);
  m.comparable = false;
  const GateResult result = Evaluate(DiffWith({m}), {"launch_delay.p99:+0"});
  EXPECT_FALSE(result.rules[0].violated);
  EXPECT_FALSE(result.rules[0].comparable);
  EXPECT_EQ(result.not_comparable, 1);
  EXPECT_TRUE(result.passed());
}

TEST(DiffGate, ARuleNamingNoMetricIsBadInput) {
  const TraceDiff diff = DiffWith({M("fallbacks", Unit::kCount, 0, 0)});
  auto result = EvaluateGate({*ParseGateRule("op[aten::mn].self_cpu:+1%")}, diff);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(result.status().message().find("op[aten::mn].self_cpu"), std::string::npos);
  auto unit = EvaluateGate({*ParseGateRule("fallbacks:+1us")}, diff);
  ASSERT_FALSE(unit.ok());
  EXPECT_NE(unit.status().message().find("not a time"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::diff
