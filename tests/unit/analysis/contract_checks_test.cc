// The contract checks on the synthetic valid launch and on one mutation per rule. The trace is
// written as Kineto JSON, imported, then mutated in memory, so each test names exactly what it
// breaks.
#include "profiler/analysis/contract_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::analysis {
namespace {

using testing::ValidLaunch;
using trace::Category;
using trace::Event;
using trace::FlowRole;
using trace::Trace;
using Rules = std::set<std::string>;
constexpr int64_t kBase = testing::KinetoJsonBuilder::kBaseNs;

Trace Import(const std::string& json) {
  auto result = trace::ImportChromeTraceFromBuffer(json, "valid.json");
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? result->trace : Trace();
}

Trace ValidTrace() {
  return Import(testing::ValidLaunchBuilder().Build());
}

Event& Named(Trace& trace, const std::string& name) {
  auto it = std::find_if(trace.events.begin(), trace.events.end(),
                         [&](const Event& e) { return e.name == name; });
  EXPECT_NE(it, trace.events.end()) << name;
  return *it;
}
Event& Op(Trace& t) {
  return Named(t, "aten::mm");
}
Event& Marker(Trace& t) {
  return Named(t, "rbln_run");
}
Event& Kernel(Trace& t) {
  return Named(t, "i1_0_W0_mm_0");
}
Event& Copy(Trace& t) {
  return Named(t, "i1_0_W0_args_0_0");
}

Rules Failed(const Trace& trace, bool sync = false) {
  CheckOptions options;
  options.sync = sync;
  const CheckReport report = CheckContract(trace, options);
  Rules failed;
  for (const RuleResult& rule : report.rules) {
    if (!rule.passed)
      failed.insert(rule.id);
  }
  EXPECT_EQ(report.passed, failed.empty());
  return failed;
}

TEST(ContractChecksTest, ValidLaunchPassesEveryRule) {
  const Trace trace = ValidTrace();
  EXPECT_EQ(Failed(trace, /*sync=*/false), Rules{});
  EXPECT_EQ(Failed(trace, /*sync=*/true), Rules{});
  CheckOptions sync;
  sync.sync = true;
  const CheckReport report = CheckContract(trace, sync);
  ASSERT_EQ(report.rules.size(), 12u);
  for (const RuleResult& rule : report.rules)
    EXPECT_FALSE(rule.skipped) << rule.id;
}

// Many launches, each an op holding a marker and a kernel, one flow per launch: enough flow
// events that the flow rules run on a second thread.
Trace ManyLaunches(int launches) {
  using L = ValidLaunch;
  testing::KinetoJsonBuilder b;
  b.ProcessRows(L::kDevicePid, "RBLN", "RBLN 0", 5000000);
  b.ProcessRows(L::kHostPid, "python3", "CPU", L::kHostPid);
  b.ThreadRows(L::kHostPid, L::kHostPid, "thread 4321 (python3)");
  b.ThreadRows(L::kDevicePid, L::kLaneTid, "lane 7");
  for (int i = 1; i <= launches; ++i) {
    const int64_t at = 100'000 + int64_t{i} * 100'000;
    const std::string id = std::to_string(i);
    b.Complete("cpu_op", "aten::mm", L::kHostPid, L::kHostPid, at, 50'000,
               "\"External id\": " + id);
    b.Complete("privateuse1_runtime", "rbln_run", L::kHostPid, L::kHostPid, at + 10'000, 5'000,
               "\"launch_id\": " + id);
    b.Flow('s', static_cast<uint64_t>(i), L::kHostPid, L::kHostPid, at + 10'000);
    b.Complete("kernel", "i" + id + "_0_W0_mm_0", L::kDevicePid, L::kLaneTid, at + 20'000, 10'000,
               "\"launch_id\": " + id);
    b.Flow('f', static_cast<uint64_t>(i), L::kDevicePid, L::kLaneTid, at + 20'000);
  }
  b.Window(0, 100'000 + int64_t{launches + 1} * 100'000);
  return Import(b.Build());
}

TEST(ContractChecksTest, ManyFlowsAreCheckedOnASecondThreadInRuleOrder) {
  Trace t = ManyLaunches(2500);
  const CheckReport valid = CheckContract(t, {});
  const CheckReport small = CheckContract(ValidTrace(), {});
  ASSERT_EQ(valid.rules.size(), small.rules.size());
  for (size_t i = 0; i < valid.rules.size(); ++i)
    EXPECT_EQ(valid.rules[i].id, small.rules[i].id) << i;
  EXPECT_TRUE(valid.passed);
  // A flow rule and a rule of this thread fail together, each with its own example.
  Event& kernel = Named(t, "i1700_0_W0_mm_0");
  kernel.flow_role = FlowRole::kNone;
  kernel.flow_id = 0;
  Named(t, "i900_0_W0_mm_0").category = Category::kCpuOp;
  EXPECT_EQ(Failed(t), (Rules{"device-category", "flow-finish"}));
  const CheckReport report = CheckContract(t, {});
  const RuleResult* flow = report.Find("flow-finish");
  ASSERT_NE(flow, nullptr);
  ASSERT_EQ(flow->examples.size(), 1u);
  EXPECT_EQ(flow->examples[0].detail, "flow 1700 has no finish");
}

// Finishes are matched to their starts in trace order, one search per change of id: a finish
// that repeats the id before it, or names an id no start has, must still be judged on its own.
TEST(ContractChecksTest, FinishesMatchTheirOwnStartsWhateverCameBefore) {
  Trace t = ManyLaunches(2500);
  Named(t, "i1201_0_W0_mm_0").flow_id = 1200;  // the id of the finish just before it
  Named(t, "i1202_0_W0_mm_0").flow_id = 777777;
  const CheckReport report = CheckContract(t, {});
  const RuleResult* flow = report.Find("flow-finish");
  ASSERT_NE(flow, nullptr);
  std::vector<std::string> details;
  for (const auto& example : flow->examples)
    details.push_back(example.detail);
  EXPECT_EQ(details, (std::vector<std::string>{
                         "flow 1201 has no finish",
                         "flow 1202 has no finish",
                         "finish of flow 1200 lands on launch 1201, its start is on launch 1200",
                         "finish of flow 777777 has no start",
                     }));
}

TEST(ContractChecksTest, DeviceSliceBeforeItsMarker) {
  Trace t = ValidTrace();
  Kernel(t).ts_ns = Marker(t).ts_ns - 2'000;
  EXPECT_EQ(Failed(t), Rules{"device-after-marker"});
  const CheckReport report = CheckContract(t, {});
  const RuleResult* rule = report.Find("device-after-marker");
  ASSERT_NE(rule, nullptr);
  ASSERT_EQ(rule->examples.size(), 1u);
  EXPECT_EQ(rule->examples[0].name, "i1_0_W0_mm_0");
  EXPECT_EQ(rule->examples[0].cat, "kernel");
  EXPECT_EQ(rule->examples[0].pid, ValidLaunch::kDevicePid);
  EXPECT_EQ(rule->examples[0].tid, ValidLaunch::kLaneTid);
  EXPECT_EQ(rule->examples[0].launch_id, ValidLaunch::kLaunchId);
  EXPECT_EQ(rule->examples[0].detail, "starts 2000 ns before its marker");
}

TEST(ContractChecksTest, FlowFinishDeleted) {
  Trace t = ValidTrace();
  Copy(t).flow_role = FlowRole::kNone;
  Copy(t).flow_id = 0;
  EXPECT_EQ(Failed(t), Rules{});  // the kernel still finishes the flow
  Kernel(t).flow_role = FlowRole::kNone;
  Kernel(t).flow_id = 0;
  EXPECT_EQ(Failed(t), Rules{"flow-finish"});  // the start has no finish left
}

TEST(ContractChecksTest, DuplicatedFlowStart) {
  Trace t = ValidTrace();
  Op(t).flow_role = FlowRole::kStart;
  Op(t).flow_id = ValidLaunch::kFlowId;
  EXPECT_EQ(Failed(t), (Rules{"flow-start", "flow-unique"}));
  // The marker's start is the legitimate one; the op's is blamed.
  const CheckReport report = CheckContract(t, {});
  const RuleResult* unique = report.Find("flow-unique");
  ASSERT_EQ(unique->examples.size(), 1u);
  EXPECT_EQ(unique->examples[0].name, "aten::mm");
}

TEST(ContractChecksTest, FlowStartMissingOnMarker) {
  Trace t = ValidTrace();
  Marker(t).flow_role = FlowRole::kNone;
  Marker(t).flow_id = 0;
  // The finishes are now orphans too.
  EXPECT_EQ(Failed(t), (Rules{"flow-start", "flow-finish"}));
}

TEST(ContractChecksTest, DeviceCategoryChanged) {
  for (const char* cat : {"cpu_op", "foo", "privateuse1_runtime", "gpu_memset"}) {
    Trace t = ValidTrace();
    Kernel(t).category = trace::CategoryFromName(cat);
    Kernel(t).cat_text = Kernel(t).category == Category::kOther ? cat : "";
    EXPECT_EQ(Failed(t), Rules{"device-category"}) << cat;
  }
  Trace sync_slice = ValidTrace();
  Copy(sync_slice).category = Category::kPrivateUse1Driver;  // the SYNC kind's category
  EXPECT_EQ(Failed(sync_slice), Rules{});
}

TEST(ContractChecksTest, MarkerRemoved) {
  Trace t = ValidTrace();
  t.events.erase(std::find_if(t.events.begin(), t.events.end(),
                              [](const Event& e) { return e.name == "rbln_run"; }));
  // The flow start lived on the marker, so its finishes are orphaned as well.
  EXPECT_EQ(Failed(t), (Rules{"marker-per-launch", "flow-finish"}));
}

TEST(ContractChecksTest, MarkerWithoutLaunchId) {
  Trace t = ValidTrace();
  Marker(t).args.clear();
  EXPECT_EQ(Failed(t), Rules{"marker-per-launch"});
  const CheckReport report = CheckContract(t, {});
  const RuleResult* rule = report.Find("marker-per-launch");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->violation_count, 2);  // the marker without id, and launch 1 without marker
}

TEST(ContractChecksTest, DuplicateMarker) {
  Trace t = ValidTrace();
  Event second = Marker(t);
  second.ts_ns += 1'000;
  second.dur_ns = 1'000;
  second.flow_role = FlowRole::kNone;
  second.flow_id = 0;
  t.events.push_back(second);
  // The second marker also lacks its own flow start.
  EXPECT_EQ(Failed(t), (Rules{"marker-per-launch", "flow-start"}));
}

TEST(ContractChecksTest, MarkerOutsideEveryOp) {
  Trace t = ValidTrace();
  Marker(t).ts_ns = Op(t).ts_ns - 10'000;  // device work still follows it
  EXPECT_EQ(Failed(t), Rules{"marker-inside-op"});
}

TEST(ContractChecksTest, DeviceRowNamesRemoved) {
  Trace t = ValidTrace();
  std::erase_if(t.processes, [](const trace::ProcessRow& p) { return p.pid == 0; });
  EXPECT_EQ(Failed(t), Rules{"device-rows-named"});
  Trace u = ValidTrace();
  std::erase_if(u.threads, [](const trace::ThreadRow& r) { return r.pid == 0; });
  EXPECT_EQ(Failed(u), Rules{"device-rows-named"});
}

TEST(ContractChecksTest, NegativeDuration) {
  Trace t = ValidTrace();
  Copy(t).dur_ns = -1;
  EXPECT_EQ(Failed(t), Rules{"no-negative-durations"});
}

TEST(ContractChecksTest, SyncEndOutsideTheOpFailsOnlyWithSync) {
  Trace t = ValidTrace();
  Copy(t).ts_ns = Op(t).end_ns() - 1'000;  // ends 4 µs after aten::mm
  EXPECT_EQ(Failed(t, /*sync=*/false), Rules{});
  EXPECT_EQ(Failed(t, /*sync=*/true), Rules{"sync-end-inside-op"});
  const CheckReport report = CheckContract(t, {});
  EXPECT_TRUE(report.Find("sync-end-inside-op")->skipped);
}

TEST(ContractChecksTest, EventOutsideTheCaptureWindow) {
  Trace t = ValidTrace();
  Copy(t).ts_ns = t.capture_end_ns + 1;
  EXPECT_EQ(Failed(t), Rules{"inside-capture-window"});
}

TEST(ContractChecksTest, FinishOnAnotherLaunchesSlice) {
  Trace t = ValidTrace();
  Copy(t).args = {{"launch_id", int64_t{2}}};
  EXPECT_EQ(Failed(t), (Rules{"marker-per-launch", "flow-finish"}));
}

TEST(ContractChecksTest, GraphModeLauncherIsTheInnermostEnclosingSlice) {
  // "Torch-Compiled Region" (user_annotation) encloses aten::mm, which encloses the marker.
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  b.events.insert(b.events.begin() + 10,
                  "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                  "\"Torch-Compiled Region\", \"pid\": 4321, \"tid\": 4321, \"ts\": 50.000, "
                  "\"dur\": 500.000}");
  Trace t = Import(b.Build());
  EXPECT_EQ(Failed(t, /*sync=*/true), Rules{});
  Copy(t).ts_ns = Op(t).end_ns();  // inside the region, after aten::mm: the op is the launcher
  EXPECT_EQ(Failed(t, /*sync=*/true), Rules{"sync-end-inside-op"});
  Op(t).category = Category::kPythonFunction;  // now only the region encloses the marker
  EXPECT_EQ(Failed(t, /*sync=*/true), Rules{});
}

TEST(ContractChecksTest, FlowsTheImporterCouldNotAnchor) {
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  b.Flow('f', ValidLaunch::kFlowId, 0, 7, 999'000);  // no X event starts there
  b.Flow('s', 9, 4321, 4321, 1);
  auto imported = trace::ImportChromeTraceFromBuffer(b.Build(), "orphans.json");
  ASSERT_TRUE(imported.ok());
  ASSERT_EQ(imported->orphan_flows.size(), 2u);
  EXPECT_EQ(Failed(imported->trace), Rules{});  // the model cannot see them...
  CheckOptions options;
  for (const auto& o : imported->orphan_flows)
    options.unanchored_flows.push_back(o.flow);
  const CheckReport report = CheckContract(imported->trace, options);
  EXPECT_FALSE(report.Find("flow-finish")->passed);  // ...the options carry them in
  EXPECT_FALSE(report.Find("flow-start")->passed);
  EXPECT_EQ(report.Find("flow-finish")->examples[0].ts_ns, kBase + 999'000);
}

}  // namespace
}  // namespace rblnsim::analysis
