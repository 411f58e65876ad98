// Text and JSON renderings of a CheckReport.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <sstream>
#include <string>
#include <vector>

#include "profiler/analysis/contract_checks.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/import/kineto_json_builder.h"
#include "tests/unit/text_lines.h"

namespace rblnsim::analysis {
namespace {

trace::Trace ValidLaunchTrace() {
  auto result = trace::ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "v");
  EXPECT_TRUE(result.ok());
  return result.ok() ? result->trace : trace::Trace();
}

TEST(CheckReportFormatTest, TextForAPassingTrace) {
  const std::vector<std::string> lines =
      testing::SplitLines(FormatCheckReportText(CheckContract(ValidLaunchTrace(), {})));
  ASSERT_EQ(lines.size(), 13u);
  EXPECT_EQ(lines[0],
            "PASS device-category: device slices use cat kernel, gpu_memcpy or "
            "privateuse1_driver");
  EXPECT_EQ(lines[4].rfind("SKIP sync-end-inside-op: ", 0), 0u);
  EXPECT_EQ(lines[11], "PASS one-process-name: every pid has exactly one process_name");
  EXPECT_EQ(lines[12], "overall: PASS (11 rules checked, 1 skipped)");
}

TEST(CheckReportFormatTest, TextShowsFiveExamplesAndTheRest) {
  trace::Trace t = ValidLaunchTrace();
  for (trace::Event& e : t.events)
    e.dur_ns = -1;  // 4 events
  for (int i = 0; i < 3; ++i)
    t.events.push_back(t.events[0]);
  CheckOptions options;
  options.sync = true;
  const std::string text = FormatCheckReportText(CheckContract(t, options));
  const std::vector<std::string> lines = testing::SplitLines(text);
  auto fail = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.rfind("FAIL no-negative-durations", 0) == 0;
  });
  ASSERT_NE(fail, lines.end()) << text;
  EXPECT_EQ(*fail, "FAIL no-negative-durations: no event has a negative duration (7 violations)");
  EXPECT_EQ(fail[1], "    cpu_op \"aten::mm\" pid 4321 tid 4321 ts 100.000us: dur is -1 ns");
  EXPECT_EQ(fail[3].find("launch_id 1: dur is -1 ns") != std::string::npos, true) << fail[3];
  EXPECT_EQ(fail[6], "    ... and 2 more");
  EXPECT_EQ(lines.back().rfind("overall: FAIL (", 0), 0u);
}

TEST(CheckReportFormatTest, JsonIsValidAndComplete) {
  trace::Trace t = ValidLaunchTrace();
  t.events[0].name = "weird \"name\"\n\x01";
  t.events[0].dur_ns = -5;
  CheckOptions options;
  options.max_examples = 1;
  t.events.push_back(t.events[0]);
  const std::string json = FormatCheckReportJson(CheckContract(t, options));
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(bool(doc["passed"]), false);
  EXPECT_EQ(bool(doc["sync"]), false);
  simdjson::dom::array rules = doc["rules"];
  ASSERT_EQ(rules.size(), 12u);
  bool found = false;
  for (simdjson::dom::element rule : rules) {
    if (std::string_view(rule["id"]) != "no-negative-durations")
      continue;
    found = true;
    EXPECT_EQ(std::string_view(rule["status"]), "fail");
    EXPECT_EQ(int64_t(rule["violation_count"]), 2);
    simdjson::dom::array examples = rule["examples"];
    ASSERT_EQ(examples.size(), 1u);  // capped, the count is not
    simdjson::dom::element e = examples.at(0);
    EXPECT_EQ(std::string_view(e["name"]), "weird \"name\"\n\x01");
    EXPECT_EQ(int64_t(e["ts_ns"]), t.events[0].ts_ns);
    EXPECT_TRUE(e["launch_id"].is_null());
    EXPECT_EQ(std::string_view(e["detail"]), "dur is -5 ns");
  }
  EXPECT_TRUE(found);
  // The text form keeps each offender on one line whatever the name holds.
  for (const std::string& line :
       testing::SplitLines(FormatCheckReportText(CheckContract(t, options)))) {
    EXPECT_EQ(line.find('\x01'), std::string::npos);
  }
}

}  // namespace
}  // namespace rblnsim::analysis
