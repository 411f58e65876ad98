// The session protocol: is_active gating, the clock anchor, the sink contract and its
// violations, lifecycle errors and the producer stats extension.
#include <gtest/gtest.h>

#include "profiler/bridge/rbln_bridge.h"
#include "tests/unit/bridge/fake_producer.h"

namespace rblnsim::bridge {
namespace {

using fakes::FakeClock;
using fakes::FakeProducer;
using fakes::FakeSlice;
using fakes::kSteadyAnchorNs;
using fakes::kSystemAnchorNs;
using fakes::kWindowNs;
using fakes::RunOneSession;
using fakes::SinkBehavior;

FakeSlice Kernel(int64_t start_offset_ns, int64_t end_offset_ns) {
  FakeSlice slice;
  slice.device_pid = 1;
  slice.resource_tid = 1;
  slice.name = "i1_0_W0_mm_0";
  slice.kind = RBLN_KINETO_KIND_COMPUTE;
  slice.start_steady_ns = kSteadyAnchorNs + start_offset_ns;
  slice.end_steady_ns = kSteadyAnchorNs + end_offset_ns;
  return slice;
}

TEST(BridgeSessionTest, InactiveProfilerMakesNoSessionAndNeverBeginsOrExports) {
  FakeProducer fake;
  fake.active = 0;
  fakes::AddStandardRows(&fake);
  fake.slices = {Kernel(10, 20)};
  FakeClock clock(kSteadyAnchorNs, kSystemAnchorNs);
  RblnBridge bridge(fake.Api(), &clock);

  StatusOr<bool> active = bridge.Configure();
  ASSERT_TRUE(active.ok()) << active.status().message();
  EXPECT_FALSE(*active);
  EXPECT_FALSE(bridge.has_session());
  ASSERT_TRUE(bridge.Start().ok());
  StatusOr<BridgeResult> result = bridge.Stop(kSystemAnchorNs, kSystemAnchorNs + kWindowNs);
  ASSERT_TRUE(result.ok()) << result.status().message();

  EXPECT_EQ(fake.is_active_calls, 1);
  EXPECT_EQ(fake.begin_calls, 0);
  EXPECT_EQ(fake.end_calls, 0);
  EXPECT_EQ(fake.sink_calls, 0);
  EXPECT_TRUE(result->processes.empty());
  EXPECT_TRUE(result->threads.empty());
  EXPECT_TRUE(result->events.empty());
}

TEST(BridgeSessionTest, IsActiveFailureIsAnErrorNotInactive) {
  FakeProducer fake;
  fake.is_active_code = RBLN_KINETO_ERR_RUNTIME;
  FakeClock clock(0, 0);
  RblnBridge bridge(fake.Api(), &clock);
  StatusOr<bool> active = bridge.Configure();
  ASSERT_FALSE(active.ok());
  EXPECT_NE(active.status().message().find("RBLN_KINETO_ERR_RUNTIME"), std::string::npos);
}

TEST(BridgeSessionTest, OnlyExactlyOneCountsAsActive) {
  FakeProducer fake;
  fake.active = 2;
  FakeClock clock(0, 0);
  RblnBridge bridge(fake.Api(), &clock);
  StatusOr<bool> active = bridge.Configure();
  ASSERT_TRUE(active.ok());
  EXPECT_FALSE(*active);
}

TEST(BridgeSessionTest, ClockOffsetIsAppliedExactly) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Kernel(1'234, 5'678)};
  // Steady and system deliberately far apart and not round, so any mix-up shows.
  const int64_t steady_ns = 987'654'321;
  const int64_t system_ns = 1'712'345'678'901'234'567;
  fake.slices[0].start_steady_ns = steady_ns + 1'234;
  fake.slices[0].end_steady_ns = steady_ns + 5'678;
  FakeClock clock(steady_ns, system_ns);
  RblnBridge bridge(fake.Api(), &clock);
  ASSERT_TRUE(*bridge.Configure());
  ASSERT_TRUE(bridge.Start().ok());
  StatusOr<BridgeResult> result = bridge.Stop(system_ns, system_ns + kWindowNs);
  ASSERT_TRUE(result.ok()) << result.status().message();

  ASSERT_EQ(result->events.size(), 1u);
  EXPECT_EQ(result->events[0].ts_ns, system_ns + 1'234);
  EXPECT_EQ(result->events[0].dur_ns, 5'678 - 1'234);
  EXPECT_EQ(fake.begin_calls, 1);
  EXPECT_EQ(fake.end_calls, 1);
  EXPECT_EQ(fake.sink_calls, 1);
}

TEST(BridgeSessionTest, NothingCapturedMeansNoSinkCallAndAnEmptyResult) {
  FakeProducer fake;  // no devices, lanes or slices: the fake reports exported_out 0
  StatusOr<BridgeResult> result = RunOneSession(&fake);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(fake.sink_calls, 0);
  EXPECT_TRUE(result->events.empty());
  EXPECT_TRUE(result->processes.empty());
  EXPECT_EQ(result->stats.sink_calls, 0u);
  EXPECT_EQ(result->stats.ProtocolErrors(), 0u);
}

TEST(BridgeSessionTest, CopiesEverythingBeforeTheProducerFreesIt) {
  // The fake overwrites and frees every buffer when the sink returns (ASan run catches reads).
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice slice = Kernel(10, 20);
  slice.categories = {"matmul", "fp16"};
  slice.annotations = {{"launch_id", "7", 0}, {"program", "mm", 1}};
  fake.slices = {slice};
  StatusOr<BridgeResult> result = RunOneSession(&fake);
  ASSERT_TRUE(result.ok()) << result.status().message();

  ASSERT_EQ(result->processes.size(), 2u);
  EXPECT_EQ(result->processes[0].name, "RBLN 0");
  EXPECT_EQ(result->threads[1].name, "dma");
  ASSERT_EQ(result->events.size(), 1u);
  const trace::Event& event = result->events[0];
  EXPECT_EQ(event.name, "i1_0_W0_mm_0");
  ASSERT_TRUE(event.FindArg("program").has_value());
  EXPECT_EQ(event.FindArg("program")->value, trace::ArgValue(std::string("mm")));
  EXPECT_EQ(event.FindArg("categories")->value, trace::ArgValue(std::string("matmul, fp16")));
  EXPECT_EQ(event.IntArg("launch_id"), 7);
}

TEST(BridgeSessionTest, SinkCalledTwiceKeepsTheFirstExportAndCounts) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Kernel(10, 20)};
  fake.behavior = SinkBehavior::kCallTwice;
  StatusOr<BridgeResult> result = RunOneSession(&fake);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->events.size(), 1u);  // not merged twice
  EXPECT_EQ(result->stats.sink_calls, 2u);
  EXPECT_EQ(result->stats.protocol_sink_repeated, 1u);
  EXPECT_EQ(result->stats.ProtocolErrors(), 1u);
}

TEST(BridgeSessionTest, ExportedWithoutSinkCallIsAProtocolError) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.behavior = SinkBehavior::kReportWithoutCall;
  StatusOr<BridgeResult> result = RunOneSession(&fake);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->events.empty());
  EXPECT_EQ(result->stats.protocol_sink_missing, 1u);
  EXPECT_EQ(result->stats.ProtocolErrors(), 1u);
}

TEST(BridgeSessionTest, SinkCalledButNotReportedIsAProtocolErrorButKeepsTheData) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Kernel(10, 20)};
  fake.behavior = SinkBehavior::kCallButReportNotExported;
  StatusOr<BridgeResult> result = RunOneSession(&fake);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->events.size(), 1u);
  EXPECT_EQ(result->stats.protocol_sink_unreported, 1u);
  EXPECT_EQ(result->stats.ProtocolErrors(), 1u);
}

TEST(BridgeSessionTest, NullExportAndUnwrittenExportedOutAreCounted) {
  {
    FakeProducer fake;
    fakes::AddStandardRows(&fake);
    fake.behavior = SinkBehavior::kNullExport;
    StatusOr<BridgeResult> result = RunOneSession(&fake);
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->stats.protocol_null_export, 1u);
    EXPECT_TRUE(result->processes.empty());
  }
  {
    FakeProducer fake;
    fakes::AddStandardRows(&fake);
    fake.behavior = SinkBehavior::kLeaveExportedUnset;
    StatusOr<BridgeResult> result = RunOneSession(&fake);
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->stats.protocol_exported_out_invalid, 1u);
    EXPECT_EQ(result->processes.size(), 2u);
  }
}

TEST(BridgeSessionTest, ProducerErrorsBecomeStatusErrors) {
  {
    FakeProducer fake;
    fake.begin_code = RBLN_KINETO_ERR_SESSION_ACTIVE;
    StatusOr<BridgeResult> result = RunOneSession(&fake);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().message().find("begin_session"), std::string::npos);
  }
  {
    FakeProducer fake;
    fake.end_code = RBLN_KINETO_ERR_NO_SESSION;
    StatusOr<BridgeResult> result = RunOneSession(&fake);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().message().find("RBLN_KINETO_ERR_NO_SESSION (3)"), std::string::npos);
  }
}

TEST(BridgeSessionTest, LifecycleMisuseIsAnError) {
  FakeProducer fake;
  FakeClock clock(0, 0);
  RblnBridge bridge(fake.Api(), &clock);
  ASSERT_TRUE(*bridge.Configure());
  EXPECT_FALSE(bridge.Stop(0, 1).ok());  // before Start
  ASSERT_TRUE(bridge.Start().ok());
  EXPECT_FALSE(bridge.Start().ok());      // twice
  EXPECT_FALSE(bridge.Configure().ok());  // while running
  EXPECT_FALSE(bridge.Stop(10, 5).ok());  // inverted window
  EXPECT_TRUE(bridge.Stop(0, 10).ok());
  // The session is reusable, as the ABI resets it after the export.
  ASSERT_TRUE(bridge.Start().ok());
  EXPECT_TRUE(bridge.Stop(0, 10).ok());
  EXPECT_EQ(fake.begin_calls, 2);
  EXPECT_EQ(fake.end_calls, 2);
}

TEST(BridgeSessionTest, ProducerStatsExtensionIsReadWhenPresent) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.stats = {100, 3, 6, 1, 0, 0};
  StatusOr<BridgeResult> with = RunOneSession(&fake, /*with_stats=*/true);
  ASSERT_TRUE(with.ok());
  EXPECT_TRUE(with->stats.has_producer_stats);
  EXPECT_EQ(with->stats.producer.records_captured, 100u);
  EXPECT_EQ(with->stats.producer.records_dropped, 3u);
  EXPECT_EQ(with->stats.producer.commands_timed_out, 1u);

  StatusOr<BridgeResult> without = RunOneSession(&fake, /*with_stats=*/false);
  ASSERT_TRUE(without.ok());
  EXPECT_FALSE(without->stats.has_producer_stats);

  fake.stats_code = RBLN_KINETO_ERR_RUNTIME;
  StatusOr<BridgeResult> failed = RunOneSession(&fake, /*with_stats=*/true);
  ASSERT_TRUE(failed.ok());
  EXPECT_FALSE(failed->stats.has_producer_stats);
}

}  // namespace
}  // namespace rblnsim::bridge
