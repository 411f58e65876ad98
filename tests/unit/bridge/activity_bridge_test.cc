// The ActivityBridge session: the profiler flag gates everything, the clock anchor is taken at
// Start(), the producer sees begin/end exactly once per session, lifecycle errors, the optional
// stats extension, and the whole path into a trace.
#include "profiler/bridge/activity_bridge.h"

#include <gtest/gtest.h>

#include <utility>

#include "profiler/trace/dialect.h"
#include "tests/unit/bridge/fake_producer.h"

namespace rblnsim::bridge {
namespace {

using rbln::runtime::Activities;
using rbln::runtime::Activity;
using rbln::runtime::Launch;

// The producer behind plain function pointers has nowhere to keep state but a global; each test
// resets it through the fixture.
struct FakeRuntime {
  bool profiler = true;
  int flag_reads = 0;
  int begin_calls = 0;
  int end_calls = 0;
  int stats_calls = 0;
  RBLNRetCode stats_code = RBLN_KINETO_OK;
  Activities to_return;
};
FakeRuntime* g_runtime = nullptr;

bool FakeProfilerFlag() {
  ++g_runtime->flag_reads;
  return g_runtime->profiler;
}
void FakeBegin() {
  ++g_runtime->begin_calls;
}
Activities FakeEnd() {
  ++g_runtime->end_calls;
  return std::move(g_runtime->to_return);
}
RBLNRetCode FakeStats(RblnsimKinetoStats* out) {
  ++g_runtime->stats_calls;
  out->records_captured = 42;
  out->records_dropped = 3;
  out->launches = 2;
  return g_runtime->stats_code;
}

// A clock the test can move between calls.
class MovableClock final : public BridgeClock {
 public:
  MovableClock(int64_t steady_ns, int64_t system_ns) { Set(steady_ns, system_ns); }
  void Set(int64_t steady_ns, int64_t system_ns) {
    steady_ns_ = steady_ns;
    system_ns_ = system_ns;
  }
  int64_t SteadyNowNs() override { return steady_ns_; }
  int64_t SystemNowNs() override { return system_ns_; }

 private:
  int64_t steady_ns_ = 0;
  int64_t system_ns_ = 0;
};

class ActivityBridgeTest : public ::testing::Test {
 protected:
  void SetUp() override { g_runtime = &runtime_; }
  void TearDown() override { g_runtime = nullptr; }

  static ActivityApi Api(bool with_stats = false) {
    StatusOr<ActivityApi> api = ActivityApi::FromFunctions(&FakeProfilerFlag, &FakeBegin, &FakeEnd,
                                                           with_stats ? &FakeStats : nullptr);
    EXPECT_TRUE(api.ok());
    return *api;
  }

  // One launch with a kernel, |start|..|end| ns after the steady anchor.
  void OneKernel(int64_t start, int64_t end) {
    Activity kernel;
    kernel.kind = Activity::Kind::kDevice;
    kernel.device = 0;
    kernel.name = "i1_0_W0_mm_0";
    kernel.start_ns = fakes::kSteadyAnchorNs + start;
    kernel.end_ns = fakes::kSteadyAnchorNs + end;
    kernel.launch = 5;
    runtime_.to_return.activities = {kernel};
    runtime_.to_return.launches = {Launch{5, fakes::kSteadyAnchorNs + start - 1, 321, 322}};
  }

  FakeRuntime runtime_;
};

TEST_F(ActivityBridgeTest, FromFunctionsRejectsMissingEntryPoints) {
  EXPECT_FALSE(ActivityApi::FromFunctions(nullptr, &FakeBegin, &FakeEnd).ok());
  EXPECT_FALSE(ActivityApi::FromFunctions(&FakeProfilerFlag, nullptr, &FakeEnd).ok());
  StatusOr<ActivityApi> no_end = ActivityApi::FromFunctions(&FakeProfilerFlag, &FakeBegin, nullptr);
  ASSERT_FALSE(no_end.ok());
  EXPECT_NE(no_end.status().message().find("endActivities"), std::string::npos);
  EXPECT_TRUE(ActivityApi::FromFunctions(&FakeProfilerFlag, &FakeBegin, &FakeEnd).ok());
}

TEST_F(ActivityBridgeTest, ProfilerOffMakesNoSessionAndNeverBeginsOrEnds) {
  runtime_.profiler = false;
  OneKernel(10, 20);
  MovableClock clock(fakes::kSteadyAnchorNs, fakes::kSystemAnchorNs);
  ActivityBridge bridge(Api(true), &clock);
  StatusOr<bool> active = bridge.Configure();
  ASSERT_TRUE(active.ok());
  EXPECT_FALSE(*active);
  EXPECT_FALSE(bridge.has_session());
  ASSERT_TRUE(bridge.Start().ok());
  StatusOr<BridgeResult> result =
      bridge.Stop(fakes::kSystemAnchorNs, fakes::kSystemAnchorNs + fakes::kWindowNs);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(runtime_.flag_reads, 1);
  EXPECT_EQ(runtime_.begin_calls, 0);
  EXPECT_EQ(runtime_.end_calls, 0);
  EXPECT_EQ(runtime_.stats_calls, 0);
  EXPECT_TRUE(result->processes.empty());
  EXPECT_TRUE(result->threads.empty());
  EXPECT_TRUE(result->events.empty());
}

TEST_F(ActivityBridgeTest, TheFlagIsReadAtEveryConfigureNotOnce) {
  MovableClock clock(0, 0);
  ActivityBridge bridge(Api(), &clock);
  runtime_.profiler = false;
  EXPECT_FALSE(*bridge.Configure());
  runtime_.profiler = true;
  EXPECT_TRUE(*bridge.Configure());
  EXPECT_EQ(runtime_.flag_reads, 2);
}

TEST_F(ActivityBridgeTest, AnchorTakenAtStartShiftsEveryTime) {
  OneKernel(1'234, 5'678);
  // The clock moves after Start(): only the pair read at Start() may be used.
  MovableClock clock(fakes::kSteadyAnchorNs, fakes::kSystemAnchorNs);
  ActivityBridge bridge(Api(), &clock);
  ASSERT_TRUE(*bridge.Configure());
  ASSERT_TRUE(bridge.Start().ok());
  EXPECT_EQ(runtime_.begin_calls, 1);
  clock.Set(fakes::kSteadyAnchorNs + 999, fakes::kSystemAnchorNs + 5);
  StatusOr<BridgeResult> result =
      bridge.Stop(fakes::kSystemAnchorNs, fakes::kSystemAnchorNs + fakes::kWindowNs);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(runtime_.end_calls, 1);
  ASSERT_EQ(result->events.size(), 2u);
  EXPECT_EQ(result->events[0].ts_ns, fakes::kSystemAnchorNs + 1'234);
  EXPECT_EQ(result->events[0].dur_ns, 4'444);
  EXPECT_EQ(result->events[1].name, trace::kCurrentMarkerName);
  EXPECT_EQ(result->events[1].ts_ns, fakes::kSystemAnchorNs + 1'233);
  EXPECT_EQ(result->events[1].pid, 321);
  EXPECT_EQ(result->events[1].tid, 322);
}

TEST_F(ActivityBridgeTest, LifecycleErrors) {
  MovableClock clock(0, 0);
  ActivityBridge bridge(Api(), &clock);
  ASSERT_TRUE(*bridge.Configure());
  EXPECT_FALSE(bridge.Stop(0, 1).ok());  // Stop() before Start()
  ASSERT_TRUE(bridge.Start().ok());
  EXPECT_FALSE(bridge.Start().ok());
  EXPECT_FALSE(bridge.Configure().ok());
  EXPECT_FALSE(bridge.Stop(10, 5).ok());  // window ends before it starts
  EXPECT_EQ(runtime_.end_calls, 0);
  ASSERT_TRUE(bridge.Stop(0, 10).ok());
  EXPECT_EQ(runtime_.begin_calls, 1);
  EXPECT_EQ(runtime_.end_calls, 1);
}

TEST_F(ActivityBridgeTest, SessionsRepeatAndEachTakesItsOwnAnchor) {
  MovableClock clock(fakes::kSteadyAnchorNs, fakes::kSystemAnchorNs);
  ActivityBridge bridge(Api(), &clock);
  ASSERT_TRUE(*bridge.Configure());
  for (int session = 0; session < 3; ++session) {
    const int64_t shift = session * 1'000'000;
    clock.Set(fakes::kSteadyAnchorNs + shift, fakes::kSystemAnchorNs + 2 * shift);
    OneKernel(shift + 100, shift + 200);
    ASSERT_TRUE(bridge.Start().ok());
    StatusOr<BridgeResult> result = bridge.Stop(fakes::kSystemAnchorNs + 2 * shift,
                                                fakes::kSystemAnchorNs + 2 * shift + 10'000);
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result->events.size(), 2u) << session;
    EXPECT_EQ(result->events[0].ts_ns, fakes::kSystemAnchorNs + 2 * shift + 100) << session;
  }
  EXPECT_EQ(runtime_.begin_calls, 3);
  EXPECT_EQ(runtime_.end_calls, 3);
}

TEST_F(ActivityBridgeTest, ProducerStatsExtensionIsUsedWhenItAnswers) {
  OneKernel(10, 20);
  MovableClock clock(fakes::kSteadyAnchorNs, fakes::kSystemAnchorNs);
  ActivityBridge bridge(Api(true), &clock);
  ASSERT_TRUE(*bridge.Configure());
  ASSERT_TRUE(bridge.Start().ok());
  StatusOr<BridgeResult> result =
      bridge.Stop(fakes::kSystemAnchorNs, fakes::kSystemAnchorNs + fakes::kWindowNs);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->stats.has_producer_stats);
  EXPECT_EQ(result->stats.producer.records_captured, 42u);
  EXPECT_EQ(result->stats.producer.records_dropped, 3u);

  runtime_.stats_code = RBLN_KINETO_ERR_RUNTIME;
  ASSERT_TRUE(bridge.Start().ok());
  result = bridge.Stop(fakes::kSystemAnchorNs, fakes::kSystemAnchorNs + fakes::kWindowNs);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->stats.has_producer_stats);
}

TEST_F(ActivityBridgeTest, ResultAppendsToATraceInTheCurrentDialect) {
  OneKernel(10, 20);
  MovableClock clock(fakes::kSteadyAnchorNs, fakes::kSystemAnchorNs);
  ActivityBridge bridge(Api(), &clock);
  ASSERT_TRUE(*bridge.Configure());
  ASSERT_TRUE(bridge.Start().ok());
  StatusOr<BridgeResult> result =
      bridge.Stop(fakes::kSystemAnchorNs, fakes::kSystemAnchorNs + fakes::kWindowNs);
  ASSERT_TRUE(result.ok());
  trace::Trace trace;
  trace.processes.push_back({321, "python3", "", 321});  // the host side's own row
  std::move(*result).AppendTo(&trace);
  EXPECT_EQ(trace::DetectDialect(trace), trace::Dialect::kCurrent);
  ASSERT_EQ(trace.processes.size(), 2u);
  EXPECT_EQ(trace.processes[0].name, "python3");
  EXPECT_EQ(trace.processes[1].name, "NPU 0");
  ASSERT_NE(trace.FindThread(0, 0), nullptr);
  EXPECT_EQ(trace.FindThread(0, 0)->name, "compute");
}

}  // namespace
}  // namespace rblnsim::bridge
