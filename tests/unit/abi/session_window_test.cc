// The bounded wait: records past the bound are dropped and counted, never stamped ahead.
#include "profiler/abi/session_window.h"

#include <gtest/gtest.h>

#include "tests/unit/abi/fake_capture.h"

namespace rblnsim::abi {
namespace {

TEST(SessionWindowTest, LastRecordEndCoversSlicesAndMarkers) {
  ProducerCapture c = testing::TwoSliceCapture(1000, 40);
  const ClockFit fit(c.sync_points, 1.0);
  EXPECT_EQ(LastRecordEndNs(c, fit), 1040);
  c.markers[0].end_steady_ns = 5000;
  EXPECT_EQ(LastRecordEndNs(c, fit), 5000);
}

TEST(SessionWindowTest, DropsOnlyWhatEndsAfterTheDeadline) {
  ProducerCapture c = testing::TwoSliceCapture(1000, 40);
  const ClockFit fit(c.sync_points, 1.0);
  EXPECT_EQ(DropRecordsEndingAfter(&c, fit, 1040), 0u);
  EXPECT_EQ(DropRecordsEndingAfter(&c, fit, 1039), 1u);  // the compute slice
  EXPECT_EQ(c.slices.size(), 1u);
  EXPECT_EQ(c.markers.size(), 1u);
  EXPECT_EQ(DropRecordsEndingAfter(&c, fit, 0), 2u);
}

TEST(SessionWindowTest, WaitIsBoundedAndTheRestIsCounted) {
  const int64_t now = SteadyNowNs();
  // One record ends 5 ms from now, one 60 s from now; the bound is 20 ms.
  ProducerCapture c = testing::TwoSliceCapture(now, 5'000'000);
  c.slices[0].end_cycles = 60'000'000'000;
  const ClockFit fit(c.sync_points, 1.0);
  const SettleResult r = SettleOnSteadyClock(&c, fit, 20'000'000);
  EXPECT_GE(r.wait_ns, 20'000'000);
  EXPECT_LT(r.wait_ns, 10'000'000'000);
  EXPECT_EQ(r.records_dropped, 1u);
  ASSERT_EQ(c.slices.size(), 1u);
  EXPECT_LE(fit.ToSteadyNs(c.slices[0].end_cycles), SteadyNowNs());
}

TEST(SessionWindowTest, NothingInTheFutureMeansNoWait) {
  ProducerCapture c = testing::TwoSliceCapture(SteadyNowNs() - 1'000'000'000, 40);
  const ClockFit fit(c.sync_points, 1.0);
  const SettleResult r = SettleOnSteadyClock(&c, fit, 20'000'000);
  EXPECT_EQ(r.wait_ns, 0);
  EXPECT_EQ(r.records_dropped, 0u);
}

}  // namespace
}  // namespace rblnsim::abi
