// Importing well-formed traces: the valid launch, and every layout drift the importer accepts.
#include "profiler/trace/import/chrome_trace_import.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::trace {
namespace {

using testing::KinetoJsonBuilder;
using testing::ValidLaunch;
using testing::ValidLaunchBuilder;
constexpr int64_t kBase = KinetoJsonBuilder::kBaseNs;

ImportResult MustImport(const std::string& json) {
  auto result = ImportChromeTraceFromBuffer(json, "test.json");
  EXPECT_TRUE(result.ok()) << result.status().message() << "\n" << json;
  return result.ok() ? std::move(result).value() : ImportResult();
}

const Event* FindEvent(const Trace& trace, std::string_view name) {
  for (const Event& e : trace.events) {
    if (e.name == name)
      return &e;
  }
  return nullptr;
}

TEST(ChromeTraceImportTest, ValidLaunch) {
  using L = ValidLaunch;
  const ImportResult r = MustImport(ValidLaunchBuilder().Build());
  const Trace& t = r.trace;
  EXPECT_EQ(r.events_read, 21);
  EXPECT_EQ(r.complete_events, 4);
  EXPECT_EQ(r.metadata_events, 10);
  EXPECT_EQ(r.flow_events, 3);
  EXPECT_EQ(r.orphan_flow_events, 0);
  EXPECT_EQ(r.span_events, 4);
  EXPECT_EQ(r.skipped_events, 0);
  EXPECT_TRUE(r.capture_window_from_trace);
  EXPECT_EQ(t.base_time_ns, kBase);
  EXPECT_EQ(t.capture_start_ns, kBase);
  EXPECT_EQ(t.capture_end_ns, kBase + L::kWindowEnd);
  EXPECT_EQ(t.trace_name, "test_trace.json");
  ASSERT_EQ(t.events.size(), 4u);

  const Event* op = FindEvent(t, "aten::mm");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->category, Category::kCpuOp);
  EXPECT_EQ(op->ts_ns, kBase + L::kOpTs);
  EXPECT_EQ(op->dur_ns, L::kOpDur);
  EXPECT_EQ(op->flow_role, FlowRole::kNone);
  EXPECT_EQ(op->IntArg("External id"), 12);

  const Event* marker = FindEvent(t, "rbln_run");
  ASSERT_NE(marker, nullptr);
  EXPECT_EQ(marker->category, Category::kPrivateUse1Runtime);
  EXPECT_EQ(marker->flow_role, FlowRole::kStart);
  EXPECT_EQ(marker->flow_id, L::kFlowId);
  EXPECT_EQ(marker->IntArg("launch_id"), L::kLaunchId);

  const Event* kernel = FindEvent(t, "i1_0_W0_mm_0");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->category, Category::kKernel);
  EXPECT_EQ(kernel->pid, L::kDevicePid);
  EXPECT_EQ(kernel->tid, L::kLaneTid);
  EXPECT_EQ(kernel->flow_role, FlowRole::kFinish);
  const Event* copy = FindEvent(t, "i1_0_W0_args_0_0");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->category, Category::kGpuMemcpy);
  EXPECT_EQ(copy->flow_role, FlowRole::kFinish);

  ASSERT_NE(t.FindProcess(0), nullptr);
  EXPECT_EQ(t.FindProcess(0)->name, "RBLN");
  EXPECT_EQ(t.FindProcess(0)->labels, "RBLN 0");
  EXPECT_EQ(t.FindProcess(0)->sort_index, 5000000);
  ASSERT_NE(t.FindThread(0, 7), nullptr);
  EXPECT_EQ(t.FindThread(0, 7)->name, "lane 7");
  EXPECT_EQ(t.FindThread(0, 7)->sort_index, 7);
  EXPECT_EQ(t.processes.size(), 2u);
  EXPECT_EQ(t.threads.size(), 2u);
}

TEST(ChromeTraceImportTest, ExactNanosecondsWithoutFloatingError) {
  // 5100000123.456 µs + base: a double holds ~16 digits, the sum needs 19.
  const ImportResult r = MustImport(
      "{\"baseTimeNanoseconds\": 1743521598000000000, \"traceEvents\": ["
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
      "\"ts\":5100000123.456,\"dur\":0.001},"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,"
      "\"ts\":5100000123.457,\"dur\":1.5e-3}]}");
  ASSERT_EQ(r.trace.events.size(), 2u);
  EXPECT_EQ(r.trace.events[0].ts_ns, 1743521598000000000 + 5100000123456);
  EXPECT_EQ(r.trace.events[0].dur_ns, 1);
  EXPECT_EQ(r.trace.events[1].ts_ns, 1743521598000000000 + 5100000123457);
  EXPECT_EQ(r.trace.events[1].dur_ns, 2);  // 1.5 ns rounds half away from zero
}

TEST(ChromeTraceImportTest, BareArrayWithAbsoluteEpochMicroseconds) {
  const ImportResult r = MustImport(
      "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
      "\"ts\":1743521598123456.789,\"dur\":2.5}]");
  ASSERT_EQ(r.trace.events.size(), 1u);
  EXPECT_EQ(r.trace.base_time_ns, 0);
  EXPECT_EQ(r.trace.events[0].ts_ns, 1743521598123456789);
  EXPECT_EQ(r.trace.events[0].dur_ns, 2500);
  EXPECT_FALSE(r.capture_window_from_trace);
  EXPECT_EQ(r.trace.capture_start_ns, 1743521598123456789);
  EXPECT_EQ(r.trace.capture_end_ns, 1743521598123459289);
}

TEST(ChromeTraceImportTest, TimesAndIdsAsStrings) {
  const ImportResult r = MustImport(
      "{\"traceEvents\": ["
      "{\"ph\":\"X\",\"cat\":\"privateuse1_runtime\",\"name\":\"rbln_run\",\"pid\":\"4321\","
      "\"tid\":\"99\",\"ts\":\"10.5\",\"dur\":\"2\",\"args\":{\"launch_id\":\"3\"}},"
      "{\"ph\":\"s\",\"id\":\"8\",\"pid\":\"4321\",\"tid\":\"99\",\"ts\":\"10.500\","
      "\"cat\":\"ac2g\"}]}");
  ASSERT_EQ(r.trace.events.size(), 1u);
  const Event& e = r.trace.events[0];
  EXPECT_EQ(e.pid, 4321);
  EXPECT_EQ(e.tid, 99);
  EXPECT_EQ(e.ts_ns, 10500);
  EXPECT_EQ(e.dur_ns, 2000);
  EXPECT_EQ(e.IntArg("launch_id"), 3);  // a quoted integer still reads as one
  EXPECT_EQ(e.flow_role, FlowRole::kStart);
  EXPECT_EQ(e.flow_id, 8u);
}

TEST(ChromeTraceImportTest, NumericRowsAndFlowIdsOfEveryForm) {
  // Plain integers take the reader's short path; the other number forms must read as they did
  // through simdjson: a pid written 4321.0 or 1e3 is no integer row, an id of -0 or -5 no id.
  const ImportResult r = MustImport(
      "{\"traceEvents\": ["
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":-0,\"tid\":-7,\"ts\":1,"
      "\"dur\":1},"
      "{\"ph\":\"s\",\"id\":-0,\"pid\":-0,\"tid\":-7,\"ts\":1,\"cat\":\"ac2g\"},"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":123456789012345678,"
      "\"tid\":0,\"ts\":2,\"dur\":1},"
      "{\"ph\":\"s\",\"id\":18446744073709551615,\"pid\":123456789012345678,\"tid\":0,"
      "\"ts\":2,\"cat\":\"ac2g\"},"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c\",\"pid\":4321.0,\"tid\":1,\"ts\":3,"
      "\"dur\":1},"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"d\",\"pid\":1e3,\"tid\":1,\"ts\":4,"
      "\"dur\":1},"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"e\",\"pid\":9223372036854775808,"
      "\"tid\":1,\"ts\":5,\"dur\":1}"
      "]}");
  ASSERT_EQ(r.trace.events.size(), 2u);
  EXPECT_EQ(r.trace.events[0].pid, 0);
  EXPECT_EQ(r.trace.events[0].tid, -7);
  EXPECT_EQ(r.trace.events[1].pid, 123456789012345678);
  EXPECT_EQ(r.trace.events[1].flow_role, FlowRole::kStart);
  EXPECT_EQ(r.trace.events[1].flow_id, 18446744073709551615u);
  EXPECT_EQ(r.non_numeric_pid_events, 3);  // 4321.0, 1e3 and one past INT64_MAX
}

TEST(ChromeTraceImportTest, MissingOptionalFields) {
  const ImportResult r = MustImport(
      "{\"traceEvents\": [{\"ph\":\"X\",\"name\":\"no cat, no args, no dur\",\"pid\":1,"
      "\"tid\":2,\"ts\":1},{\"ph\":\"i\",\"name\":\"[memory]\",\"pid\":1,\"tid\":2,\"ts\":3,"
      "\"s\":\"t\",\"cat\":\"cpu_instant_event\",\"args\":{\"Bytes\":64}}]}");
  ASSERT_EQ(r.trace.events.size(), 2u);
  EXPECT_EQ(r.trace.events[0].category, Category::kOther);
  EXPECT_EQ(r.trace.events[0].cat(), "");
  EXPECT_EQ(r.trace.events[0].dur_ns, 0);
  EXPECT_TRUE(r.trace.events[0].args.empty());
  EXPECT_EQ(r.trace.events[1].phase, Phase::kInstant);
  EXPECT_EQ(r.trace.events[1].cat(), "cpu_instant_event");
  EXPECT_EQ(r.instant_events, 1);
}

TEST(ChromeTraceImportTest, DisplayTimeUnitNanoseconds) {
  const ImportResult r = MustImport(
      "{\"displayTimeUnit\":\"ns\",\"baseTimeNanoseconds\":1000000,\"traceEvents\":["
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":1,\"ts\":1234,"
      "\"dur\":56.4}]}");
  ASSERT_EQ(r.trace.events.size(), 1u);
  EXPECT_EQ(r.trace.events[0].ts_ns, 1000000 + 1234);
  EXPECT_EQ(r.trace.events[0].dur_ns, 56);
}

TEST(ChromeTraceImportTest, UnitAndBaseAfterTraceEvents) {
  // Older Kineto wrote baseTimeNanoseconds after traceEvents; other exporters put any key last.
  const ImportResult r = MustImport(
      "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":1,"
      "\"ts\":1234,\"dur\":5}],\"baseTimeNanoseconds\":7000,\"displayTimeUnit\":\"ns\"}");
  ASSERT_EQ(r.trace.events.size(), 1u);
  EXPECT_EQ(r.trace.events[0].ts_ns, 7000 + 1234);
  EXPECT_EQ(r.trace.events[0].dur_ns, 5);
  EXPECT_EQ(r.trace.base_time_ns, 7000);
}

TEST(ChromeTraceImportTest, SecondTraceEventsArrayIsAnErrorNotMerged) {
  const std::string json =
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1}],"
      "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2}],"
      "\"displayTimeUnit\":\"ns\"}";
  auto r = ImportChromeTraceFromBuffer(json, "two.json");
  ASSERT_FALSE(r.ok());
  const size_t second = json.rfind("\"traceEvents\"");
  EXPECT_EQ(r.status().message(), "two.json: byte " + std::to_string(second) +
                                      ": duplicate key \"traceEvents\" at the top level (first "
                                      "at byte 1)");
}

TEST(ChromeTraceImportTest, TopLevelMetadataKeptAsRawJson) {
  KinetoJsonBuilder b = ValidLaunchBuilder();
  b.members_before.push_back({"host_name", "\"node-7\""});
  b.members_before.push_back({"rbln_bridge", "{\"version\": \"0.1\", \"drops\": 0}"});
  b.members_before.push_back({"distributedInfo", "{\"rank\": 0, \"world_size\": 1}"});
  b.members_after.push_back({"WARNING", "[\"GPU trace is empty!\"]"});
  std::string json = b.Build();
  const std::string empty_properties = "\"deviceProperties\": [\n  ]";
  json.replace(json.find(empty_properties), empty_properties.size(),
               "\"deviceProperties\": [{\"id\": 0, \"name\": \"RBL-CR\"}]");
  const ImportResult r = MustImport(json);
  const auto& m = r.trace.metadata;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].first, "host_name");
  EXPECT_EQ(m[0].second.text, "\"node-7\"");
  EXPECT_EQ(m[1].first, "rbln_bridge");
  EXPECT_EQ(m[1].second.text, "{\"version\":\"0.1\",\"drops\":0}");
  EXPECT_EQ(m[2].first, "distributedInfo");
  EXPECT_EQ(m[3].first, "WARNING");
  EXPECT_EQ(m[3].second.text, "[\"GPU trace is empty!\"]");
  ASSERT_EQ(r.trace.device_properties.size(), 1u);
  EXPECT_EQ(r.trace.device_properties[0].text, "{\"id\":0,\"name\":\"RBL-CR\"}");
}

TEST(ChromeTraceImportTest, ArgValueTypes) {
  const ImportResult r = MustImport(
      "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":1,"
      "\"ts\":1,\"dur\":1,\"args\":{\"i\":-7,\"d\":2.5,\"one\":1.0,\"s\":\"x\\\"y\",\"b\":true,"
      "\"n\":null,\"grid\":[1, 2, 3],\"occ\":{\"a\": {\"b\": [true, null]}},"
      "\"big\":18446744073709551615}}]}");
  ASSERT_EQ(r.trace.events.size(), 1u);
  const trace::ArgList& a = r.trace.events[0].args;
  ASSERT_EQ(a.size(), 9u);
  EXPECT_EQ(a[0].value, ArgValue(int64_t{-7}));
  EXPECT_EQ(a[1].value, ArgValue(2.5));
  EXPECT_EQ(a[2].value, ArgValue(1.0));
  EXPECT_EQ(a[3].value, ArgValue(std::string("x\"y")));
  EXPECT_EQ(a[4].value, ArgValue(true));
  EXPECT_EQ(a[5].value, ArgValue(RawJson{"null"}));
  EXPECT_EQ(a[6].value, ArgValue(RawJson{"[1,2,3]"}));
  EXPECT_EQ(a[7].value, ArgValue(RawJson{"{\"a\":{\"b\":[true,null]}}"}));
  EXPECT_EQ(a[8].value, ArgValue(RawJson{"18446744073709551615"}));
}

TEST(ChromeTraceImportTest, UnknownCategoryKeptWithItsText) {
  const ImportResult r = MustImport(
      "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"rbln_custom\",\"name\":\"k\",\"pid\":0,"
      "\"tid\":1,\"ts\":1,\"dur\":1}]}");
  ASSERT_EQ(r.trace.events.size(), 1u);
  EXPECT_EQ(r.trace.events[0].category, Category::kOther);
  EXPECT_EQ(r.trace.events[0].cat(), "rbln_custom");
}

TEST(ChromeTraceImportTest, EverythingDroppedIsCounted) {
  const ImportResult r = MustImport(
      "{\"traceEvents\":["
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"strange\",\"pid\":\"worker\",\"tid\":1,"
      "\"ts\":1,\"dur\":1},"
      "{\"ph\":\"B\",\"name\":\"begin\",\"pid\":1,\"tid\":1,\"ts\":1},"
      "{\"ph\":\"C\",\"name\":\"counter\",\"pid\":1,\"tid\":1,\"ts\":1},"
      "{\"ph\":\"M\",\"name\":\"process_uptime\",\"pid\":1,\"tid\":0,\"args\":{}},"
      "{\"ph\":\"s\",\"id\":5,\"pid\":1,\"tid\":1,\"ts\":1,\"cat\":\"fwdbwd\"},"
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"RBLN\"}},"
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"py\"}}"
      "]}");
  EXPECT_EQ(r.events_read, 7);
  EXPECT_EQ(r.non_numeric_pid_events, 1);
  EXPECT_EQ(r.unknown_phase_events, 1);    // "C"
  EXPECT_EQ(r.unmatched_begin_events, 1);  // the "B" no "E" closes
  EXPECT_EQ(r.unknown_metadata_events, 1);
  EXPECT_EQ(r.other_flow_events, 1);
  EXPECT_EQ(r.skipped_events, 5);
  EXPECT_EQ(r.conflicting_rows, 1);
  ASSERT_NE(r.trace.FindProcess(0), nullptr);
  EXPECT_EQ(r.trace.FindProcess(0)->name, "RBLN");  // the first name wins
  const std::string summary = FormatImportSummary(r);
  EXPECT_NE(summary.find("skipped_events: 5\n"), std::string::npos);
  EXPECT_NE(summary.find("unknown_phase_events: 1\n"), std::string::npos);
  EXPECT_NE(summary.find("unmatched_begin_events: 1\n"), std::string::npos);
}

TEST(ChromeTraceImportTest, FlowWrittenBeforeItsEventIsStillAnchored) {
  const ImportResult r = MustImport(
      "{\"traceEvents\":["
      "{\"ph\":\"f\",\"id\":4,\"pid\":0,\"tid\":7,\"ts\":20,\"cat\":\"ac2g\",\"bp\":\"e\"},"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"other\",\"pid\":0,\"tid\":7,\"ts\":30,"
      "\"dur\":1},"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":1}"
      "]}");
  EXPECT_EQ(r.flow_events, 1);
  EXPECT_EQ(r.orphan_flow_events, 0);
  const Event* k = FindEvent(r.trace, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->flow_role, FlowRole::kFinish);
  EXPECT_EQ(k->flow_id, 4u);
  EXPECT_EQ(FindEvent(r.trace, "other")->flow_role, FlowRole::kNone);
}

TEST(ChromeTraceImportTest, FlowPrefersThePrecedingEventAmongEqualStarts) {
  // Two X events start at the same ts on the same row; the flow follows the second one.
  const ImportResult r = MustImport(
      "{\"traceEvents\":["
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":5,"
      "\"dur\":10},"
      "{\"ph\":\"X\",\"cat\":\"privateuse1_runtime\",\"name\":\"rbln_run\",\"pid\":1,\"tid\":1,"
      "\"ts\":5,\"dur\":1},"
      "{\"ph\":\"s\",\"id\":2,\"pid\":1,\"tid\":1,\"ts\":5,\"cat\":\"ac2g\"}]}");
  EXPECT_EQ(FindEvent(r.trace, "rbln_run")->flow_role, FlowRole::kStart);
  EXPECT_EQ(FindEvent(r.trace, "outer")->flow_role, FlowRole::kNone);
}

TEST(ChromeTraceImportTest, OrphanFlowsAreListedWithTheirOffset) {
  const std::string json =
      "{\"traceEvents\":["
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":1},"
      "{\"ph\":\"f\",\"id\":4,\"pid\":0,\"tid\":7,\"ts\":21,\"cat\":\"ac2g\"},"
      "{\"ph\":\"s\",\"pid\":0,\"tid\":7,\"ts\":20,\"cat\":\"ac2g\"}]}";
  const ImportResult r = MustImport(json);
  EXPECT_EQ(r.orphan_flow_events, 2);
  ASSERT_EQ(r.orphan_flows.size(), 2u);
  EXPECT_EQ(r.orphan_flows[1].byte_offset, json.find("{\"ph\":\"f\""));
  EXPECT_EQ(r.orphan_flows[1].flow.flow_role, FlowRole::kFinish);
  EXPECT_EQ(r.orphan_flows[1].flow.ts_ns, 21000);
  EXPECT_EQ(r.orphan_flows[0].byte_offset, json.find("{\"ph\":\"s\""));
  EXPECT_NE(r.orphan_flows[0].reason.find("id"), std::string::npos);
}

TEST(ChromeTraceImportTest, CaptureWindowFromEventsWhenNoSpan) {
  const ImportResult r = MustImport(
      "{\"baseTimeNanoseconds\":1000,\"traceEvents\":["
      "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
      "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]}");
  EXPECT_FALSE(r.capture_window_from_trace);
  EXPECT_EQ(r.trace.capture_start_ns, 1000 + 1000);
  EXPECT_EQ(r.trace.capture_end_ns, 1000 + 5000);
}

TEST(ChromeTraceImportTest, EmptyEventsAndByteOrderMark) {
  const ImportResult r = MustImport("\xEF\xBB\xBF {\"traceEvents\": [ ] }\n");
  EXPECT_EQ(r.events_read, 0);
  EXPECT_TRUE(r.trace.events.empty());
}

}  // namespace
}  // namespace rblnsim::trace
