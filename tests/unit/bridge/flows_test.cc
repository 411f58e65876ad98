// ac2g flows: one start per launch on its rbln_run marker, finishes on its device slices, and
// the cases that must produce no flow at all.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "profiler/bridge/rbln_bridge.h"
#include "tests/unit/bridge/fake_producer.h"

namespace rblnsim::bridge {
namespace {

using fakes::FakeProducer;
using fakes::FakeSlice;
using fakes::kSteadyAnchorNs;
using fakes::RunFake;
using trace::FlowRole;

FakeSlice Marker(int64_t launch_id, int64_t start_ns) {
  FakeSlice slice;
  slice.device_pid = 100;
  slice.resource_tid = 100;
  slice.name = "rbln_run";
  slice.kind = RBLN_KINETO_KIND_RUNTIME;
  slice.start_steady_ns = kSteadyAnchorNs + start_ns;
  slice.end_steady_ns = slice.start_steady_ns + 2;
  slice.annotations = {{"launch_id", std::to_string(launch_id), 0}};
  return slice;
}

FakeSlice Device(int64_t launch_id, int32_t kind, int64_t start_ns) {
  FakeSlice slice;
  slice.device_pid = 1;
  slice.resource_tid = kind == RBLN_KINETO_KIND_COMPUTE ? 1 : 2;
  slice.name = "work";
  slice.kind = kind;
  slice.start_steady_ns = kSteadyAnchorNs + start_ns;
  slice.end_steady_ns = slice.start_steady_ns + 10;
  if (launch_id > 0)
    slice.annotations = {{"launch_id", std::to_string(launch_id), 0}};
  return slice;
}

// The invariants torch-rbln's alignment test checks, over a whole result: no two starts share an
// id, every start has a finish, every finish has a start.
void ExpectWellFormedFlows(const BridgeResult& result) {
  std::map<uint64_t, int> starts;
  std::map<uint64_t, int> finishes;
  for (const trace::Event& event : result.events) {
    if (event.flow_role == FlowRole::kStart)
      ++starts[event.flow_id];
    if (event.flow_role == FlowRole::kFinish)
      ++finishes[event.flow_id];
    if (event.flow_role != FlowRole::kNone) {
      EXPECT_GT(event.flow_id, 0u);
    }
  }
  for (const auto& [id, count] : starts) {
    EXPECT_EQ(count, 1) << "flow " << id;
    EXPECT_TRUE(finishes.contains(id)) << "start without finish " << id;
  }
  for (const auto& [id, count] : finishes)
    EXPECT_TRUE(starts.contains(id)) << "orphan " << id;
}

TEST(BridgeFlowsTest, OneStartOnTheMarkerAndAFinishOnEveryDeviceSliceOfTheLaunch) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Marker(11, 0),
                 Device(11, RBLN_KINETO_KIND_DMA, 5),
                 Device(11, RBLN_KINETO_KIND_COMPUTE, 20),
                 Device(11, RBLN_KINETO_KIND_SYNC, 40),
                 Marker(12, 50),
                 Device(12, RBLN_KINETO_KIND_COMPUTE, 60)};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 6u);
  EXPECT_EQ(result.events[0].flow_role, FlowRole::kStart);
  EXPECT_EQ(result.events[0].flow_id, 11u);
  for (int i : {1, 2, 3}) {
    EXPECT_EQ(result.events[i].flow_role, FlowRole::kFinish) << i;
    EXPECT_EQ(result.events[i].flow_id, 11u) << i;
  }
  EXPECT_EQ(result.events[4].flow_id, 12u);
  EXPECT_EQ(result.events[5].flow_id, 12u);
  EXPECT_EQ(result.stats.launches, 2u);
  EXPECT_EQ(result.stats.flows_started, 2u);
  EXPECT_EQ(result.stats.flows_finished, 4u);
  EXPECT_EQ(result.stats.orphan_device_slices, 0u);
  ExpectWellFormedFlows(result);
}

TEST(BridgeFlowsTest, DuplicateMarkerGetsNoSecondStart) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Marker(11, 0), Marker(11, 3), Device(11, RBLN_KINETO_KIND_COMPUTE, 5)};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 3u);
  EXPECT_EQ(result.events[0].flow_role, FlowRole::kStart);
  EXPECT_EQ(result.events[1].flow_role, FlowRole::kNone);
  EXPECT_EQ(result.events[2].flow_role, FlowRole::kFinish);
  EXPECT_EQ(result.stats.duplicate_markers, 1u);
  EXPECT_EQ(result.stats.flows_started, 1u);
  ExpectWellFormedFlows(result);
}

TEST(BridgeFlowsTest, DeviceSlicesWithoutAMarkerAreOrphansWithoutFlows) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Device(13, RBLN_KINETO_KIND_COMPUTE, 5),  // launch with no marker
                 Device(0, RBLN_KINETO_KIND_DMA, 6),       // no launch id, corr_id 0
                 Marker(14, 7)};                           // marker with no device work
  BridgeResult result = RunFake(&fake);
  for (const trace::Event& event : result.events)
    EXPECT_EQ(event.flow_role, FlowRole::kNone);
  EXPECT_EQ(result.stats.orphan_device_slices, 2u);
  EXPECT_EQ(result.stats.markers_without_device_work, 1u);
  EXPECT_EQ(result.stats.launches, 1u);
  EXPECT_EQ(result.stats.flows_started, 0u);
  EXPECT_EQ(result.stats.flows_finished, 0u);
}

TEST(BridgeFlowsTest, MarkerOutsideTheWindowLeavesItsDeviceSlicesOrphaned) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Marker(11, -100), Device(11, RBLN_KINETO_KIND_COMPUTE, 5)};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].flow_role, FlowRole::kNone);
  EXPECT_EQ(result.stats.dropped_out_of_window, 1u);
  EXPECT_EQ(result.stats.orphan_device_slices, 1u);
}

TEST(BridgeFlowsTest, CorrIdIsTheLaunchWhenThereIsNoLaunchIdAnnotation) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice marker = Marker(0, 0);
  marker.annotations.clear();
  marker.corr_id = 21;
  FakeSlice device = Device(0, RBLN_KINETO_KIND_COMPUTE, 5);
  device.corr_id = 21;
  // A quoted launch_id works too; a non-integer one falls back to corr_id.
  FakeSlice quoted = Device(0, RBLN_KINETO_KIND_DMA, 6);
  quoted.annotations = {{"launch_id", "21", 1}};
  FakeSlice garbage = Device(0, RBLN_KINETO_KIND_DMA, 7);
  garbage.annotations = {{"launch_id", "2.5", 0}};
  garbage.corr_id = 21;
  fake.slices = {marker, device, quoted, garbage};
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 4u);
  EXPECT_EQ(result.events[0].flow_role, FlowRole::kStart);
  EXPECT_EQ(result.events[0].flow_id, 21u);
  for (int i : {1, 2, 3})
    EXPECT_EQ(result.events[i].flow_role, FlowRole::kFinish) << i;
  ExpectWellFormedFlows(result);
}

TEST(BridgeFlowsTest, OnlyRuntimeSlicesNamedRblnRunAreMarkers) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  FakeSlice other_runtime = Marker(11, 0);
  other_runtime.name = "rbln_launch";
  FakeSlice device_named_like_marker = Device(11, RBLN_KINETO_KIND_COMPUTE, 5);
  device_named_like_marker.name = "rbln_run";
  fake.slices = {other_runtime, device_named_like_marker};
  BridgeResult result = RunFake(&fake);
  for (const trace::Event& event : result.events)
    EXPECT_EQ(event.flow_role, FlowRole::kNone);
  EXPECT_EQ(result.stats.launches, 0u);
  EXPECT_EQ(result.stats.orphan_device_slices, 1u);
}

// Under async dispatch a launch's device work overlaps the next launch's, so an export in start
// order interleaves launches, and markers may come in any launch order: every slice still finds
// its launch, and orphans and marker-only launches between them are counted once each.
TEST(BridgeFlowsTest, InterleavedLaunchesAndOrphansInAnyOrder) {
  FakeProducer fake;
  fakes::AddStandardRows(&fake);
  fake.slices = {Marker(30, 0),
                 Marker(20, 1),
                 Marker(25, 2),  // no device work
                 Marker(20, 3),  // a duplicate
                 Device(30, RBLN_KINETO_KIND_DMA, 4),
                 Device(20, RBLN_KINETO_KIND_DMA, 5),
                 Device(22, RBLN_KINETO_KIND_DMA, 6),  // no marker: an orphan
                 Device(30, RBLN_KINETO_KIND_COMPUTE, 7),
                 Device(20, RBLN_KINETO_KIND_COMPUTE, 8),
                 Device(99, RBLN_KINETO_KIND_COMPUTE, 9),    // beyond every marker: an orphan
                 Device(10, RBLN_KINETO_KIND_COMPUTE, 10)};  // before every marker: an orphan
  BridgeResult result = RunFake(&fake);
  ASSERT_EQ(result.events.size(), 11u);
  const FlowRole kNone = FlowRole::kNone;
  const FlowRole kStart = FlowRole::kStart;
  const FlowRole kFinish = FlowRole::kFinish;
  const std::pair<FlowRole, uint64_t> expected[] = {
      {kStart, 30}, {kStart, 20},  {kNone, 0},    {kNone, 0}, {kFinish, 30}, {kFinish, 20},
      {kNone, 0},   {kFinish, 30}, {kFinish, 20}, {kNone, 0}, {kNone, 0}};
  for (size_t i = 0; i < result.events.size(); ++i) {
    EXPECT_EQ(result.events[i].flow_role, expected[i].first) << i;
    if (expected[i].first != kNone) {
      EXPECT_EQ(result.events[i].flow_id, expected[i].second) << i;
    }
  }
  EXPECT_EQ(result.stats.launches, 3u);
  EXPECT_EQ(result.stats.duplicate_markers, 1u);
  EXPECT_EQ(result.stats.markers_without_device_work, 1u);
  EXPECT_EQ(result.stats.orphan_device_slices, 3u);
  EXPECT_EQ(result.stats.flows_started, 2u);
  EXPECT_EQ(result.stats.flows_finished, 4u);
  ExpectWellFormedFlows(result);
}

}  // namespace
}  // namespace rblnsim::bridge
