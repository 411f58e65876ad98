// The current contract (reference rbln-runtime-activities.md §4) on a valid synthetic trace and on
// one mutation per rule, plus the rules both dialects share: one process_name per pid (through
// the importer, as Kineto's default rows produce it) and device work inside the capture window.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "profiler/analysis/contract_checks.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/analysis/current_trace.h"
#include "tests/unit/import/kineto_json_builder.h"
#include "tests/unit/text_lines.h"

namespace rblnsim::analysis {
namespace {

using testing::CurrentMarker;
using testing::CurrentTrace;
using testing::FindEvent;
using testing::ValidCurrentTrace;
using trace::Event;
using trace::FlowRole;
using trace::Trace;
using Rules = std::set<std::string>;

CheckReport Check(const Trace& t, int64_t min_launches = 1) {
  CheckOptions options;
  options.min_launches = min_launches;
  return CheckContract(t, options);
}

Rules FailedRules(const CheckReport& report) {
  Rules failed;
  for (const RuleResult& rule : report.rules) {
    if (!rule.passed)
      failed.insert(rule.id);
  }
  EXPECT_EQ(report.passed, failed.empty());
  return failed;
}

Rules FailedRules(const Trace& t, int64_t min_launches = 1) {
  return FailedRules(Check(t, min_launches));
}

TEST(CurrentContractTest, ValidTracePassesEveryRuleInOrder) {
  const Trace t = ValidCurrentTrace(2);
  const CheckReport report = Check(t, /*min_launches=*/2);
  EXPECT_EQ(report.contract, Dialect::kCurrent);
  EXPECT_FALSE(report.contract_forced);
  EXPECT_TRUE(report.passed);
  std::vector<std::string> ids;
  for (const RuleResult& rule : report.rules) {
    ids.push_back(rule.id);
    EXPECT_TRUE(rule.passed) << rule.id;
    EXPECT_TRUE(rule.not_applicable.empty()) << rule.id << ": " << rule.not_applicable;
  }
  const std::vector<std::string> want = {"npu-row",
                                         "min-launches",
                                         "one-marker-per-launch",
                                         "marker-inside-host-op",
                                         "activity-besides-marker",
                                         "activity-on-matching-lane",
                                         "activity-after-marker",
                                         "kernel-launches",
                                         "flow-start-at-marker",
                                         "flow-ids-unique",
                                         "flow-finish-on-launch",
                                         "flow-finish-count",
                                         "no-orphan-finish",
                                         "one-process-name",
                                         "capture-window"};
  EXPECT_EQ(ids, want);
}

TEST(CurrentContractTest, MarkerRemoved) {
  Trace t = ValidCurrentTrace(2);
  const Event& marker = CurrentMarker(t, 0);
  t.events.erase(t.events.begin() + (&marker - t.events.data()));
  const Rules failed = FailedRules(t);
  EXPECT_TRUE(failed.count("one-marker-per-launch")) << ::testing::PrintToString(failed);
  // Its launch's finishes now have no start.
  EXPECT_TRUE(failed.count("no-orphan-finish"));
}

TEST(CurrentContractTest, ActivityOnTheWrongLane) {
  Trace t = ValidCurrentTrace(2);
  FindEvent(t, CurrentTrace::Kernel(1)).tid = 1;  // a kernel on the copy lane
  const CheckReport report = Check(t);
  EXPECT_EQ(FailedRules(report), Rules{"activity-on-matching-lane"});
  const RuleResult* rule = report.Find("activity-on-matching-lane");
  ASSERT_NE(rule, nullptr);
  ASSERT_EQ(rule->examples.size(), 1u);
  EXPECT_EQ(rule->examples[0].detail, "sits in lane \"copy\", its cat belongs in \"compute\"");
}

TEST(CurrentContractTest, ActivityOnAHostRow) {
  Trace t = ValidCurrentTrace(1);
  FindEvent(t, CurrentTrace::Copy(0)).pid = CurrentTrace::kHostPid;
  EXPECT_EQ(FailedRules(t), Rules{"activity-on-matching-lane"});
}

TEST(CurrentContractTest, FlowIdOutsideTheBlock) {
  Trace t = ValidCurrentTrace(2);
  // Launch 0's flow, start and finishes alike, moves out of the block: its marker then has no
  // start of ours, and the moved finishes are another producer's business.
  for (Event& e : t.events) {
    if (e.flow_id == CurrentTrace::kFlowBase)
      e.flow_id = 0xE0000000u;
  }
  const CheckReport report = Check(t);
  EXPECT_EQ(FailedRules(report), Rules{"flow-start-at-marker"});
  const RuleResult* rule = report.Find("flow-start-at-marker");
  ASSERT_EQ(rule->examples.size(), 1u);
  EXPECT_NE(rule->examples[0].detail.find("0xE0000000 lies outside the rbln block"),
            std::string::npos)
      << rule->examples[0].detail;
}

TEST(CurrentContractTest, OneFinishMissing) {
  Trace t = ValidCurrentTrace(2);
  Event& kernel = FindEvent(t, CurrentTrace::Kernel(0));
  kernel.flow_role = FlowRole::kNone;
  kernel.flow_id = 0;
  const CheckReport report = Check(t);
  EXPECT_EQ(FailedRules(report), Rules{"flow-finish-count"});
  const RuleResult* rule = report.Find("flow-finish-count");
  EXPECT_EQ(rule->examples[0].detail,
            "flow 0xF0000000 has 2 finishes for 3 activities of launch 1");
}

TEST(CurrentContractTest, FinishOnAnotherLaunchsSlice) {
  Trace t = ValidCurrentTrace(2);
  FindEvent(t, CurrentTrace::Kernel(1)).flow_id = CurrentTrace::kFlowBase;  // launch 0's flow
  const CheckReport report = Check(t);
  // Both flows' counts are off by one too.
  EXPECT_EQ(FailedRules(report), (Rules{"flow-finish-on-launch", "flow-finish-count"}));
  EXPECT_EQ(report.Find("flow-finish-on-launch")->examples[0].detail,
            "finish of flow 0xF0000000 lands on launch 2, its start is on launch 1");
  EXPECT_EQ(report.Find("flow-finish-count")->violation_count, 2);
}

TEST(CurrentContractTest, ActivityBeforeItsMarker) {
  Trace t = ValidCurrentTrace(2);
  Event& copy = FindEvent(t, CurrentTrace::Copy(1));
  copy.ts_ns = CurrentMarker(t, 1).ts_ns - 700;
  const CheckReport report = Check(t);
  EXPECT_EQ(FailedRules(report), Rules{"activity-after-marker"});
  EXPECT_EQ(report.Find("activity-after-marker")->examples[0].detail,
            "starts 700 ns before its marker");
}

TEST(CurrentContractTest, NoNpuRow) {
  Trace t = ValidCurrentTrace(2);
  t.processes[1].name = "GPU 0";
  const CheckReport report = Check(t);
  EXPECT_EQ(report.contract, Dialect::kCurrent);  // the rbln launch markers still tell
  const Rules failed = FailedRules(report);
  EXPECT_TRUE(failed.count("npu-row")) << ::testing::PrintToString(failed);
  EXPECT_TRUE(failed.count("activity-on-matching-lane"));  // nothing sits on an NPU row now
  EXPECT_FALSE(report.Find("npu-row")->examples[0].has_event);
}

TEST(CurrentContractTest, MarkerOutsideEveryHostOp) {
  Trace t = ValidCurrentTrace(2);
  FindEvent(t, CurrentTrace::Op(1)).ts_ns += 6'000;  // now starts after its marker
  EXPECT_EQ(FailedRules(t), Rules{"marker-inside-host-op"});
}

TEST(CurrentContractTest, GraphModeWantsTheCompiledRegion) {
  Trace t = ValidCurrentTrace(2);
  CheckOptions options;
  options.launcher_contains = "Torch-Compiled Region";
  // The eager ops enclose the markers, but no compiled region does.
  EXPECT_EQ(FailedRules(CheckContract(t, options)), Rules{"marker-inside-host-op"});
  for (int i = 0; i < 2; ++i) {
    Event region = FindEvent(t, CurrentTrace::Op(i));
    region.category = trace::Category::kUserAnnotation;
    region.name = "Torch-Compiled Region: 0/0";
    region.ts_ns -= 100;
    region.dur_ns += 200;
    t.events.push_back(region);
  }
  EXPECT_EQ(FailedRules(CheckContract(t, options)), Rules{});
}

TEST(CurrentContractTest, MarkerAtTheEdgeOfItsOpIsInside) {
  Trace t = ValidCurrentTrace(1);
  Event& op = FindEvent(t, CurrentTrace::Op(0));
  op.dur_ns = CurrentMarker(t, 0).ts_ns - op.ts_ns;  // the op ends exactly at the marker
  EXPECT_EQ(FailedRules(t), Rules{});
}

TEST(CurrentContractTest, MarkerWithoutActivity) {
  Trace t = ValidCurrentTrace(2);
  std::erase_if(t.events, [](const Event& e) {
    return e.name == CurrentTrace::Copy(0) || e.name == CurrentTrace::Kernel(0) ||
           e.name == CurrentTrace::HostStep(0);
  });
  const Rules failed = FailedRules(t);
  EXPECT_TRUE(failed.count("activity-besides-marker")) << ::testing::PrintToString(failed);
}

TEST(CurrentContractTest, TwoMarkersForOneLaunch) {
  Trace t = ValidCurrentTrace(1);
  Event extra = CurrentMarker(t, 0);
  extra.ts_ns += 100;
  extra.flow_role = FlowRole::kNone;
  extra.flow_id = 0;
  t.events.push_back(extra);
  // The second marker has no flow start either: the test wants one start per marker.
  EXPECT_EQ(FailedRules(t), (Rules{"one-marker-per-launch", "flow-start-at-marker"}));
}

TEST(CurrentContractTest, DuplicateFlowStart) {
  Trace t = ValidCurrentTrace(2);
  CurrentMarker(t, 1).flow_id = CurrentTrace::kFlowBase;  // launch 1 reuses launch 0's id
  const Rules failed = FailedRules(t);
  EXPECT_TRUE(failed.count("flow-ids-unique")) << ::testing::PrintToString(failed);
}

TEST(CurrentContractTest, StartOnAnEventThatIsNoMarker) {
  Trace t = ValidCurrentTrace(1);
  Event& op = FindEvent(t, CurrentTrace::Op(0));
  op.flow_id = CurrentTrace::kFlowBase + 7;
  op.flow_role = FlowRole::kStart;
  EXPECT_EQ(FailedRules(t), Rules{"flow-start-at-marker"});
}

TEST(CurrentContractTest, OrphanFinish) {
  Trace t = ValidCurrentTrace(1);
  Event& kernel = FindEvent(t, CurrentTrace::Kernel(0));
  kernel.flow_id = CurrentTrace::kFlowBase + 9;  // a flow nobody started
  const Rules failed = FailedRules(t);
  EXPECT_TRUE(failed.count("no-orphan-finish")) << ::testing::PrintToString(failed);
}

TEST(CurrentContractTest, FlowsOutsideTheBlockAreOtherProducers) {
  Trace t = ValidCurrentTrace(2);
  Event other = trace::Event();
  other.category = trace::Category::kCpuOp;
  other.name = "other producer";
  other.pid = CurrentTrace::kHostPid;
  other.tid = 99;
  other.ts_ns = CurrentTrace::kStartNs + 10;
  other.dur_ns = 10;
  other.flow_id = 0x1234;
  other.flow_role = FlowRole::kFinish;  // a finish with no start, but not in our block
  t.events.push_back(other);
  EXPECT_EQ(FailedRules(t), Rules{});
}

TEST(CurrentContractTest, UnanchoredStartWithinOneNsOfItsMarker) {
  Trace t = ValidCurrentTrace(1);
  Event& marker = CurrentMarker(t, 0);
  CheckOptions options;
  Event start;
  start.name = "ac2g";
  start.pid = marker.pid;
  start.tid = marker.tid;
  start.ts_ns = marker.ts_ns + 1;
  start.flow_id = marker.flow_id;
  start.flow_role = FlowRole::kStart;
  options.unanchored_flows.push_back(start);
  marker.flow_role = FlowRole::kNone;
  marker.flow_id = 0;
  EXPECT_EQ(FailedRules(CheckContract(t, options)), Rules{});
  options.unanchored_flows[0].ts_ns += 1;  // 2 ns off: no longer the marker's
  EXPECT_EQ(FailedRules(CheckContract(t, options)), Rules{"flow-start-at-marker"});
}

TEST(CurrentContractTest, MinLaunchesAndKernelLaunches) {
  Trace t = ValidCurrentTrace(1);
  EXPECT_EQ(FailedRules(t, /*min_launches=*/2), (Rules{"min-launches", "kernel-launches"}));
  std::erase_if(t.events, [](const Event& e) { return e.name == CurrentTrace::Kernel(0); });
  // Still one launch, but it ran no kernel (its finish went with it: the flow count holds).
  EXPECT_EQ(FailedRules(t, 1), Rules{"kernel-launches"});
}

TEST(CurrentContractTest, VacuousRulesAreNotApplicable) {
  const Trace t = ValidCurrentTrace(0);  // NPU row and lanes, no launch
  const CheckReport report = Check(t, /*min_launches=*/0);
  EXPECT_TRUE(report.passed);
  EXPECT_EQ(report.Find("flow-ids-unique")->not_applicable, "0 flow starts in the rbln block");
  EXPECT_EQ(report.Find("activity-on-matching-lane")->not_applicable, "0 activities");
  EXPECT_EQ(report.Find("capture-window")->not_applicable, "0 device activities");
  EXPECT_TRUE(report.Find("npu-row")->not_applicable.empty());
  const std::vector<std::string> lines = testing::SplitLines(FormatCheckReportText(report));
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "N/A flow-ids-unique: no two flow starts of the block share an id (n/a: 0 "
                      "flow starts in the rbln block)"),
            lines.end());
  EXPECT_EQ(lines.back(), "overall: PASS (4 rules checked, 11 n/a)");

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  const std::string json = FormatCheckReportJson(report);
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(doc["contract"]), "current");
  for (simdjson::dom::element rule : doc["rules"].get_array()) {
    if (std::string_view(rule["id"]) != "no-orphan-finish")
      continue;
    EXPECT_EQ(std::string_view(rule["status"]), "n/a");
    EXPECT_EQ(std::string_view(rule["reason"]), "0 flow finishes in the rbln block");
  }
}

TEST(CurrentContractTest, FailingTraceWideRuleFormatsWithoutAnEvent) {
  Trace t = ValidCurrentTrace(1);
  const std::string text = FormatCheckReportText(Check(t, /*min_launches=*/3));
  EXPECT_NE(text.find("FAIL min-launches: at least 3 launches (distinct launch_id on slices) (1 "
                      "violation)\n    1 launch (distinct launch_id on slices), at least 3 "
                      "expected\n"),
            std::string::npos)
      << text;
}

TEST(CurrentContractTest, DeviceWorkAfterTheWindow) {
  Trace t = ValidCurrentTrace(2);
  const Event& kernel = FindEvent(t, CurrentTrace::Kernel(1));
  t.capture_end_ns = kernel.end_ns() - 250;
  const CheckReport report = Check(t);
  EXPECT_EQ(FailedRules(report), Rules{"capture-window"});
  EXPECT_EQ(report.Find("capture-window")->examples[0].detail,
            "ends 250 ns after the capture window");
  // Without a window of the trace's own there is nothing to check.
  CheckOptions options;
  options.window_from_events = true;
  const CheckReport vacuous = CheckContract(t, options);
  EXPECT_TRUE(vacuous.passed);
  EXPECT_EQ(vacuous.Find("capture-window")->not_applicable, "the trace records no capture window");
}

TEST(CurrentContractTest, ForcedCAbiContractFailsACurrentTrace) {
  const Trace t = ValidCurrentTrace(2);
  CheckOptions options;
  options.contract = Dialect::kCAbi;
  const CheckReport report = CheckContract(t, options);
  EXPECT_EQ(report.contract, Dialect::kCAbi);
  EXPECT_TRUE(report.contract_forced);
  EXPECT_TRUE(FailedRules(report).count("marker-per-launch"));
}

// Kineto, not CPU-only and with no session returning a DeviceInfo, writes a default row for pids
// 0-15 named after the host process: pid 0 then has "NPU 0" and "python3".
std::string CurrentJsonWithDefaultRow(bool default_row) {
  testing::KinetoJsonBuilder b;
  b.ProcessRows(0, "NPU 0", "", 5000000);
  b.ThreadRows(0, 0, "compute");
  if (default_row)
    b.ProcessRows(0, "python3", "GPU 0", 5000000);
  b.ProcessRows(4321, "python3", "CPU", 4321);
  b.ThreadRows(4321, 4321, "thread 4321 (python3)");
  b.Complete("cpu_op", "aten::linear", 4321, 4321, 100'000, 20'000);
  b.Complete("privateuse1_runtime", "rbln launch", 4321, 4321, 105'000, 0, "\"launch_id\": 1");
  b.Flow('s', 0xF0000000u, 4321, 4321, 105'000);
  b.Complete("kernel", "i1_0_W0_mm_0", 0, 0, 106'000, 5'000, "\"launch_id\": 1");
  b.Flow('f', 0xF0000000u, 0, 0, 106'000);
  b.Window(0, 1'000'000);
  return b.Build();
}

TEST(CurrentContractTest, TwoProcessNamesForOnePidFailThroughTheImporter) {
  auto clean = trace::ImportChromeTraceFromBuffer(CurrentJsonWithDefaultRow(false), "ok.json");
  ASSERT_TRUE(clean.ok()) << clean.status().message();
  EXPECT_EQ(FailedRules(clean->trace), Rules{});

  auto doubled = trace::ImportChromeTraceFromBuffer(CurrentJsonWithDefaultRow(true), "two.json");
  ASSERT_TRUE(doubled.ok()) << doubled.status().message();
  const CheckReport report = Check(doubled->trace);
  EXPECT_EQ(report.contract, Dialect::kCurrent);
  EXPECT_EQ(FailedRules(report), Rules{"one-process-name"});
  EXPECT_EQ(report.Find("one-process-name")->examples[0].detail,
            "pid 0 has 2 different process_name rows: \"NPU 0\", \"python3\" (a viewer shows "
            "only one)");
}

TEST(CurrentContractTest, RenamedDeviceRowStillCountsAsNpu) {
  // The default row comes first: the kept name is the host's, the NPU name is the other one.
  Trace t = ValidCurrentTrace(1);
  t.processes[1].name = "python3";
  t.processes[1].other_names = {"NPU 0"};
  EXPECT_EQ(DetectDialect(t), Dialect::kCurrent);
  EXPECT_EQ(FailedRules(t), Rules{"one-process-name"});
}

TEST(CAbiContractTest, TwoProcessNamesForOnePidFail) {
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  b.ProcessRows(testing::ValidLaunch::kDevicePid, "python3", "GPU 0", 5000000);
  auto imported = trace::ImportChromeTraceFromBuffer(b.Build(), "c-abi.json");
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  const CheckReport report = Check(imported->trace);
  EXPECT_EQ(report.contract, Dialect::kCAbi);
  EXPECT_EQ(FailedRules(report), Rules{"one-process-name"});
}

TEST(CAbiContractTest, VacuousRulesAreNotApplicable) {
  auto imported =
      trace::ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "c-abi.json");
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  Trace t = imported->trace;
  for (Event& e : t.events) {
    e.flow_role = FlowRole::kNone;
    e.flow_id = 0;
  }
  CheckOptions options;
  options.window_from_events = true;
  const CheckReport report = CheckContract(t, options);
  EXPECT_EQ(report.Find("flow-finish")->not_applicable, "0 flows");
  EXPECT_EQ(report.Find("flow-unique")->not_applicable, "0 flow starts");
  EXPECT_EQ(report.Find("inside-capture-window")->not_applicable,
            "the trace records no capture window");
  // The marker still needs its start: that rule checked something and fails.
  EXPECT_EQ(FailedRules(report), Rules{"flow-start"});
  EXPECT_EQ(testing::SplitLines(FormatCheckReportText(report)).back(),
            "overall: FAIL (1 of 8 rules failed, 3 n/a, 1 skipped)");
}

}  // namespace
}  // namespace rblnsim::analysis
