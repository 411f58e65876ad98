// A ProducerCapture as the activity API hands it over: kinds by engine class, one NPU 0 for the
// whole card, steady-ns times through the clock fit, launches from the markers.
#include "profiler/abi/activity_builder.h"

#include <gtest/gtest.h>

#include "tests/unit/abi/fake_capture.h"

namespace rblnsim::abi {
namespace {

using ::rbln::runtime::Activity;

TEST(ActivityBuilderTest, KindsFollowTheEngineClass) {
  EXPECT_EQ(ActivityKindFor(SliceKind::kCompute), Activity::Kind::kDevice);
  EXPECT_EQ(ActivityKindFor(SliceKind::kDma), Activity::Kind::kCopy);
  EXPECT_EQ(ActivityKindFor(SliceKind::kSync), Activity::Kind::kCollective);
  EXPECT_EQ(ActivityKindFor(SliceKind::kRuntime), Activity::Kind::kHost);
}

TEST(ActivityBuilderTest, ActivitiesAndLaunchesFromOneCapture) {
  ProducerCapture c = testing::TwoSliceCapture(1'000'000, 40);
  c.devices.push_back({101, "rbln0 chiplet 1"});
  c.slices.push_back({101, 9, 1, 1, 15, 30, 2, SliceKind::kSync});
  c.markers.push_back({7, 9, 1'000'012, 1'000'013, 2});
  const ::rbln::runtime::Activities got = BuildActivities(c, 1.0);
  ASSERT_EQ(got.activities.size(), 3u);
  // Start order: DMA at 10, sync at 15, compute at 20.
  EXPECT_EQ(got.activities[0].kind, Activity::Kind::kCopy);
  EXPECT_EQ(got.activities[0].name, "i1_0_W0_args_0_0");
  EXPECT_EQ(got.activities[0].start_ns, 1'000'010);
  EXPECT_EQ(got.activities[0].end_ns, 1'000'020);
  EXPECT_EQ(got.activities[0].launch, 1u);
  EXPECT_EQ(got.activities[1].kind, Activity::Kind::kCollective);
  EXPECT_EQ(got.activities[1].launch, 2u);
  EXPECT_EQ(got.activities[2].kind, Activity::Kind::kDevice);
  EXPECT_EQ(got.activities[2].name, "i1_0_W0_mm_0");
  for (const Activity& a : got.activities)
    EXPECT_EQ(a.device, 0u);  // every chiplet is NPU 0
  ASSERT_EQ(got.launches.size(), 2u);
  EXPECT_EQ(got.launches[0].id, 1u);
  EXPECT_EQ(got.launches[0].ns, 1'000'000);
  EXPECT_EQ(got.launches[0].pid, 7);
  EXPECT_EQ(got.launches[0].tid, 8);
  EXPECT_EQ(got.launches[1].id, 2u);
  EXPECT_EQ(got.launches[1].tid, 9);
}

}  // namespace
}  // namespace rblnsim::abi
