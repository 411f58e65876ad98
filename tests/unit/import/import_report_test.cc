// What an import drops or changes is counted by reason and said: "B"/"E" pairs become complete
// events, everything else that is not kept is counted under one reason, and the notice line and
// the JSON form say it all.
#include "profiler/trace/import/import_report.h"

#include <gtest/gtest.h>

#include <string>

#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/json_writer.h"
#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::trace {
namespace {

ImportResult MustImportReport(const std::string& json,
                              const ImportOptions& options = ImportOptions()) {
  auto result = ImportChromeTraceFromBuffer(json, "test.json", options);
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? std::move(result).value() : ImportResult();
}

// Every event read is kept, Kineto's bookkeeping, or skipped for one reason.
void ExpectEveryEventAccountedFor(const ImportResult& r) {
  EXPECT_EQ(r.events_read, r.complete_events + r.begin_end_pairs + r.instant_events +
                               r.metadata_events + r.flow_events + r.span_events +
                               r.skipped_events);
  EXPECT_EQ(r.skipped_events, r.non_numeric_pid_events + r.non_numeric_tid_events +
                                  r.unknown_phase_events + r.unknown_metadata_events +
                                  r.other_flow_events + r.flow_step_events + r.orphan_flow_events +
                                  r.unmatched_begin_events + r.unmatched_end_events +
                                  r.end_before_begin_events);
}

const Event* FindByName(const Trace& trace, const std::string& name) {
  for (const Event& e : trace.events) {
    if (e.name == name)
      return &e;
  }
  return nullptr;
}

std::string Wrap(const std::string& events) {
  return "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[" + events + "]}";
}

TEST(ImportReportTest, BeginEndPairsBecomeCompleteEvents) {
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"B\",\"cat\":\"cpu_op\",\"name\":\"outer\",\"pid\":1,\"tid\":2,\"ts\":100,"
           "\"args\":{\"a\":1,\"b\":\"from B\"}},"
           "{\"ph\":\"B\",\"name\":\"inner\",\"pid\":1,\"tid\":2,\"ts\":110},"
           "{\"ph\":\"B\",\"name\":\"other row\",\"pid\":1,\"tid\":3,\"ts\":115},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":120},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":125},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":150,\"args\":{\"b\":\"from E\",\"c\":true}}"));
  EXPECT_EQ(r.events_read, 6);
  EXPECT_EQ(r.begin_end_pairs, 3);
  EXPECT_EQ(r.complete_events, 3);
  EXPECT_EQ(r.skipped_events, 0);
  ExpectEveryEventAccountedFor(r);
  ASSERT_EQ(r.trace.events.size(), 3u);
  // In the order they begin, as X events are written.
  EXPECT_EQ(r.trace.events[0].name, "outer");
  EXPECT_EQ(r.trace.events[1].name, "inner");
  EXPECT_EQ(r.trace.events[2].name, "other row");
  const Event& outer = r.trace.events[0];
  EXPECT_EQ(outer.phase, Phase::kComplete);
  EXPECT_EQ(outer.category, Category::kCpuOp);
  EXPECT_EQ(outer.pid, 1);
  EXPECT_EQ(outer.tid, 2);
  EXPECT_EQ(outer.ts_ns, 100);
  EXPECT_EQ(outer.dur_ns, 50);              // the last "E" on its row closes it
  EXPECT_EQ(r.trace.events[1].dur_ns, 10);  // the innermost "B" closes first
  EXPECT_EQ(r.trace.events[2].dur_ns, 10);  // rows do not close each other's
  // Args of both; where both name one, the "E" value.
  ASSERT_EQ(outer.args.size(), 3u);
  EXPECT_EQ(outer.args[0].key, "a");
  EXPECT_EQ(outer.args[1].value, ArgValue(std::string("from E")));
  EXPECT_EQ(outer.args[2].key, "c");
  EXPECT_EQ(r.trace.capture_start_ns, 100);
  EXPECT_EQ(r.trace.capture_end_ns, 150);
  EXPECT_EQ(FormatImportNotice(r),
            "import: 0 events skipped; 3 \"B\"/\"E\" pairs read as "
            "complete events");
}

TEST(ImportReportTest, UnmatchedBeginsAndEndsAreCountedAndDropped) {
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5},"  // nothing open
           "{\"ph\":\"B\",\"name\":\"never closed\",\"pid\":1,\"tid\":1,\"ts\":10},"
           "{\"ph\":\"X\",\"name\":\"kept\",\"pid\":1,\"tid\":1,\"ts\":12,\"dur\":1},"
           "{\"ph\":\"B\",\"name\":\"closed late\",\"pid\":1,\"tid\":2,\"ts\":20},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":15},"  // before its B
           "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":30}"));
  EXPECT_EQ(r.unmatched_end_events, 1);
  EXPECT_EQ(r.unmatched_begin_events, 1);
  EXPECT_EQ(r.end_before_begin_events, 1);
  EXPECT_EQ(r.begin_end_pairs, 1);
  EXPECT_EQ(r.skipped_events, 3);
  ExpectEveryEventAccountedFor(r);
  ASSERT_EQ(r.trace.events.size(), 2u);
  EXPECT_EQ(r.trace.events[0].name, "kept");
  EXPECT_EQ(r.trace.events[1].name, "closed late");
  EXPECT_EQ(r.trace.events[1].dur_ns, 10);
  EXPECT_EQ(FormatImportNotice(r),
            "import: 3 events skipped (1 \"B\" without \"E\", 1 \"E\" without \"B\", 1 \"E\" "
            "before its \"B\"); 1 \"B\"/\"E\" pairs read as complete events");
}

TEST(ImportReportTest, FlowAfterABeginAnchorsOnItsCompleteEvent) {
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"X\",\"name\":\"before\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":100},"
           "{\"ph\":\"B\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":10},"
           "{\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":9,\"pid\":1,\"tid\":1,\"ts\":10},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":20}"));
  EXPECT_EQ(r.flow_events, 1);
  EXPECT_EQ(FindByName(r.trace, "launch")->flow_role, FlowRole::kStart);
  EXPECT_EQ(FindByName(r.trace, "before")->flow_role, FlowRole::kNone);
  ExpectEveryEventAccountedFor(r);
}

TEST(ImportReportTest, FlowOnABeginNeverClosedIsAnOrphan) {
  const std::string json = Wrap(
      "{\"ph\":\"B\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":10},"
      "{\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":9,\"pid\":1,\"tid\":1,\"ts\":10}");
  const ImportResult r = MustImportReport(json);
  EXPECT_EQ(r.flow_events, 0);
  EXPECT_EQ(r.orphan_flow_events, 1);
  EXPECT_EQ(r.unmatched_begin_events, 1);
  ASSERT_EQ(r.orphan_flows.size(), 1u);
  EXPECT_EQ(r.orphan_flows[0].flow.flow_id, 9u);
  EXPECT_EQ(r.orphan_flows[0].byte_offset, json.find("{\"ph\":\"B\""));
  EXPECT_TRUE(r.trace.events.empty());
  ExpectEveryEventAccountedFor(r);
}

TEST(ImportReportTest, KeepArgsAppliesToBothHalves) {
  ImportOptions options;
  options.keep_args = std::vector<std::string>{"launch_id"};
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{\"x\":1}},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":2,\"args\":{\"launch_id\":7,\"y\":2}}"),
      options);
  ASSERT_EQ(r.trace.events.size(), 1u);
  ASSERT_EQ(r.trace.events[0].args.size(), 1u);
  EXPECT_EQ(r.trace.events[0].args[0].value, ArgValue(int64_t{7}));
}

TEST(ImportReportTest, NonNumericRowsAreCountedByWhichIdIsNotANumber) {
  const ImportResult r = MustImportReport(Wrap(
      "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":\"main\",\"ts\":1,\"dur\":1},"
      "{\"ph\":\"i\",\"name\":\"b\",\"pid\":\"worker\",\"tid\":1,\"ts\":1},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":\"t\",\"args\":{\"name\":\"x\"}},"
      "{\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":1,\"pid\":1,\"tid\":\"t\",\"ts\":1},"
      "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":1},"
      "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":2}"));
  EXPECT_EQ(r.non_numeric_tid_events, 3);
  EXPECT_EQ(r.non_numeric_pid_events, 1);
  EXPECT_EQ(r.unknown_phase_events, 2);
  ASSERT_EQ(r.unknown_phases.size(), 1u);
  EXPECT_EQ(r.unknown_phases[0].ph, "C");
  EXPECT_EQ(r.unknown_phases[0].events, 2);
  EXPECT_TRUE(r.trace.events.empty());
  ExpectEveryEventAccountedFor(r);
  EXPECT_EQ(FormatImportNotice(r),
            "import: 6 events skipped (2 ph \"C\" unsupported, 1 non-numeric pid, 3 non-numeric "
            "tid)");
}

TEST(ImportReportTest, TheIssuesExampleLine) {
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":1},"
           "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":\"main\",\"ts\":1,\"dur\":1},"
           "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":2}"));
  EXPECT_EQ(FormatImportNotice(r),
            "import: 3 events skipped (2 ph \"C\" unsupported, 1 non-numeric tid)");
  // Naming the input, for commands that read several; a path cannot break the line.
  EXPECT_EQ(FormatImportNotice(r, "run\n1/capture.json"),
            "import: run?1/capture.json: 3 events skipped (2 ph \"C\" unsupported, 1 non-numeric "
            "tid)");
  EXPECT_EQ(FormatImportNotice(MustImportReport(Wrap("")), "clean.json"), "");
}

TEST(ImportReportTest, EveryOtherReasonHasItsWords) {
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"M\",\"name\":\"process_uptime\",\"pid\":1,\"tid\":0},"
           "{\"ph\":\"s\",\"cat\":\"fwdbwd\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1},"
           "{\"ph\":\"t\",\"cat\":\"ac2g\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1},"
           "{\"ph\":\"f\",\"cat\":\"ac2g\",\"id\":3,\"pid\":1,\"tid\":1,\"ts\":1},"
           "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"a\"}},"
           "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"b\"}},"
           "{\"ph\":\"X\",\"name\":\"q\",\"pid\":\"1\",\"tid\":1,\"ts\":\"5\",\"dur\":1},"
           "{\"ph\":\"\\u001b[31m\",\"pid\":1,\"tid\":1,\"ts\":1}"));
  ExpectEveryEventAccountedFor(r);
  EXPECT_EQ(r.unknown_metadata_events, 1);
  EXPECT_EQ(r.other_flow_events, 1);
  EXPECT_EQ(r.flow_step_events, 1);
  EXPECT_EQ(r.orphan_flow_events, 1);
  EXPECT_EQ(r.conflicting_rows, 1);
  EXPECT_EQ(r.quoted_number_events, 1);
  // A terminal escape in a ph stays escaped: the line is one printable line.
  EXPECT_EQ(FormatImportNotice(r),
            "import: 5 events skipped (1 ph \"\\u001b[31m\" unsupported, 1 \"M\" not "
            "process_*/thread_*, 1 flow not ac2g, 1 flow step \"t\", 1 ac2g flow anchored on no "
            "event); 1 second process/thread name ignored, 1 with numbers written as strings");
}

TEST(ImportReportTest, ManyDistinctPhasesAreListedUpToABound) {
  std::string events;
  for (size_t i = 0; i < kMaxListedPhases + 4; ++i) {
    events += std::string(i ? "," : "") + "{\"ph\":\"Z" + std::to_string(i) +
              "\",\"pid\":1,\"tid\":1,\"ts\":1}";
  }
  // A long ph is listed cut, so the list stays small whatever the file holds.
  events += ",{\"ph\":\"" + std::string(1000, 'L') + "\",\"pid\":1,\"tid\":1,\"ts\":1}";
  const ImportResult r = MustImportReport(Wrap(events));
  EXPECT_EQ(r.unknown_phase_events, static_cast<int64_t>(kMaxListedPhases) + 5);
  ASSERT_EQ(r.unknown_phases.size(), kMaxListedPhases);
  const std::string notice = FormatImportNotice(r);
  EXPECT_NE(notice.find("5 with other unsupported ph"), std::string::npos) << notice;
  EXPECT_LT(notice.size(), 1000u);
}

TEST(ImportReportTest, CleanKinetoTraceSaysNothing) {
  const ImportResult r = MustImportReport(testing::ValidLaunchBuilder().Build());
  ExpectEveryEventAccountedFor(r);
  EXPECT_GT(r.span_events, 0);  // Kineto's bookkeeping is expected, not a loss
  EXPECT_EQ(FormatImportNotice(r), "");
}

TEST(ImportReportTest, JsonFormHasEveryCounter) {
  const ImportResult r = MustImportReport(
      Wrap("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"tid\":1,\"ts\":1},"
           "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":\"main\",\"ts\":1,\"dur\":1},"
           "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":1},"
           "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3}"));
  StringSink sink;
  JsonWriter json(&sink);
  json.BeginObject().Key("import");
  WriteImportReportJson(r, json);
  json.EndObject();
  json.Finish();
  EXPECT_EQ(sink.text(),
            "{\"import\":{\"events_read\":4,\"complete_events\":1,\"begin_end_pairs\":1,"
            "\"instant_events\":0,\"metadata_events\":0,\"flow_events\":0,\"span_events\":0,"
            "\"skipped_events\":2,\"skipped\":{\"non_numeric_pid\":0,\"non_numeric_tid\":1,"
            "\"unsupported_metadata\":0,\"non_ac2g_flow\":0,\"flow_step\":0,\"orphan_flow\":0,"
            "\"unmatched_begin\":0,\"unmatched_end\":0,\"end_before_begin\":0,"
            "\"unsupported_ph\":{\"C\":1},\"unsupported_ph_unlisted\":0},"
            "\"coerced\":{\"conflicting_rows\":0,\"quoted_numbers\":0}}}\n");
}

}  // namespace
}  // namespace rblnsim::trace
