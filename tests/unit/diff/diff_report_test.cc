// The diff's renderings: the terminal text, the markdown summary, the JSON and the plots agree on
// what changed, and say so when nothing did.
#include "profiler/diff/diff_report.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

namespace rblnsim::diff {
namespace {

// A summary of three launches of one op, with |self_ns| of host self time.
TraceSummary Summary(int64_t self_ns, int64_t fallbacks = 0) {
  TraceSummary s;
  s.op_names = {"aten::mm", "aten::a|b"};
  OpTotals mm;
  mm.calls = 3;
  mm.self_cpu_ns = self_ns;
  mm.cpu_total_ns = self_ns;
  mm.device_ns = 6000;
  mm.device_slices = 3;
  mm.launches = 3;
  OpTotals other;
  other.calls = 1;
  other.self_cpu_ns = 100 + self_ns;
  other.cpu_total_ns = 100 + self_ns;
  s.ops = {mm, other};
  s.launches = 3;
  s.submission = {3, 500, 500, 500, 500};
  s.submission_sorted_ns = {500, 500, 500};
  s.device_classes["compute"] = {3, 6000};
  s.device = {3, 6000};
  if (fallbacks > 0) {
    s.hidden[{HiddenKind::kFallback, "aten::mm", "dtype-not-fp16"}] = fallbacks;
    s.fallbacks = fallbacks;
  }
  s.sequence_names = {std::string(kLaunchElement), "aten::mm"};
  s.sequence = {1, 0, 1, 0, 1, 0};
  s.sequence_launch_latency_ns = {500, 500, 500};
  return s;
}

GateResult Gate(const TraceDiff& diff, const char* rule) {
  return *EvaluateGate({*ParseGateRule(rule)}, diff);
}

const DiffLabels kLabels{"base.json", "new.json"};

TEST(DiffReport, NoDifferencesIsOneHeadline) {
  const TraceDiff diff = DiffSummaries(Summary(1000), Summary(1000));
  const std::string text = FormatDiffText(diff, kLabels, nullptr, 20);
  EXPECT_NE(text.find("no differences"), std::string::npos) << text;
  EXPECT_EQ(text.find("Operators"), std::string::npos) << text;
}

TEST(DiffReport, TextAndMarkdownTableTheSameChange) {
  const TraceDiff diff = DiffSummaries(Summary(1000), Summary(1600, 1));
  const GateResult gate = Gate(diff, "fallbacks:+0");
  ASSERT_FALSE(gate.passed());
  const std::string text = FormatDiffText(diff, kLabels, &gate, 20);
  EXPECT_NE(text.find("aten::mm"), std::string::npos);
  EXPECT_NE(text.find("+0.600"), std::string::npos) << text;  // Δ self CPU in us
  EXPECT_NE(text.find("dtype-not-fp16"), std::string::npos);
  EXPECT_NE(text.find("FAIL"), std::string::npos);
  EXPECT_NE(text.find("gate FAILED: 1 of 1 rules violated"), std::string::npos);

  const std::string md = FormatDiffMarkdown(diff, kLabels, &gate, 20);
  EXPECT_EQ(md.rfind("## rblnsim diff: gate failed", 0), 0u) << md;
  EXPECT_NE(md.find("| aten::mm |"), std::string::npos) << md;
  EXPECT_NE(md.find("aten::a\\|b"), std::string::npos);  // a pipe in a name stays in its cell
  EXPECT_NE(md.find("| FAIL | fallbacks:+0 |"), std::string::npos) << md;
}

TEST(DiffReport, RowLimitSaysWhatItLeftOut) {
  const TraceDiff diff = DiffSummaries(Summary(1000), Summary(1600));
  const std::string text = FormatDiffText(diff, kLabels, nullptr, 1);
  EXPECT_NE(text.find("1 more row"), std::string::npos) << text;
}

TEST(DiffReport, JsonCarriesEveryMetricAndTheGate) {
  const TraceDiff diff = DiffSummaries(Summary(1000), Summary(1600, 1));
  const GateResult gate = Gate(diff, "op[aten::mm].self_cpu:+50%");
  trace::StringSink sink;
  trace::JsonWriter json(&sink, 1);
  WriteDiffJson(diff, kLabels, &gate, &json);
  json.Finish();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(sink.text()).get(doc), simdjson::SUCCESS) << sink.text();
  EXPECT_EQ(int64_t(doc["format"]), kDiffJsonFormat);
  EXPECT_TRUE(bool(doc["differences"]));
  bool found = false;
  for (simdjson::dom::element m : doc["metrics"].get_array()) {
    if (std::string_view(m["key"]) != "op[aten::mm].self_cpu")
      continue;
    found = true;
    EXPECT_EQ(int64_t(m["base"]), 1000);
    EXPECT_EQ(int64_t(m["new"]), 1600);
    EXPECT_EQ(int64_t(m["delta"]), 600);
    EXPECT_DOUBLE_EQ(double(m["delta_pct"]), 60.0);
    EXPECT_TRUE(bool(m["changed"]));
  }
  EXPECT_TRUE(found);
  EXPECT_FALSE(bool(doc["gate"]["passed"]));
  EXPECT_EQ(std::string_view(doc["hidden"].at(0)["reason"]), "dtype-not-fp16");
}

TEST(DiffReport, PlotsDrawSignedOpDeltasAndBothCdfs) {
  const TraceDiff diff = DiffSummaries(Summary(1600), Summary(1000));  // self time fell
  const DiffPlots plots = RenderDiffPlots(diff, 20);
  EXPECT_NE(plots.op_delta_svg.find("aten::mm"), std::string::npos);
  EXPECT_NE(plots.op_delta_svg.find("class=\"zero\""), std::string::npos);  // negative bars
  EXPECT_EQ(plots.op_delta_svg.find("missing values"), std::string::npos);
  EXPECT_NE(plots.latency_cdf_svg.find(">base<"), std::string::npos);
  EXPECT_NE(plots.latency_cdf_svg.find(">new<"), std::string::npos);
  EXPECT_NE(plots.device_svg.find("compute"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::diff
