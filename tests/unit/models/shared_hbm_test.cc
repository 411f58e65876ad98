// The shared HBM channel's fluid: max-min fair shares capped at each engine's pace, re-shared
// when a stream starts or ends, bytes conserved.
#include "models/rebel100/shared_hbm.h"

#include <gtest/gtest.h>

namespace rblnsim::rebel100 {
namespace {

// The projected end of |owner|'s stream; -1 when it has no bytes left (or no stream).
double EndOf(const SharedHbm& hbm, int owner) {
  double end_ns = -1;
  hbm.ForEachProjectedEnd([&](int o, double at_ns) {
    if (o == owner)
      end_ns = at_ns;
  });
  return end_ns;
}

TEST(SharedHbm, OneStreamRunsAtTheSmallerOfItsCapAndTheChannel) {
  SharedHbm hbm(1e12);  // 1000 bytes per ns
  hbm.Start(1, 0.0, 1'000'000, 0);
  EXPECT_DOUBLE_EQ(EndOf(hbm, 1), 1000.0);
  hbm.End(1, 1000.0);
  hbm.Start(2, 1000.0, 1'000'000, 250.0);  // an engine that takes 250 bytes per ns
  EXPECT_DOUBLE_EQ(EndOf(hbm, 2), 5000.0);
  EXPECT_EQ(hbm.bytes_moved(), 2'000'000);
}

TEST(SharedHbm, TwoUncappedStreamsSplitTheChannel) {
  SharedHbm hbm(1e12);
  hbm.Start(1, 0.0, 1'000'000, 0);
  hbm.Start(2, 0.0, 1'000'000, 0);
  EXPECT_DOUBLE_EQ(EndOf(hbm, 1), 2000.0);
  EXPECT_DOUBLE_EQ(EndOf(hbm, 2), 2000.0);
}

// A small transfer beside a large stream gets half the channel, not the back of the queue; when
// it ends, the large one has the channel to itself again.
TEST(SharedHbm, ASmallTransferDoesNotWaitBehindALargeStream) {
  SharedHbm hbm(1e12);
  hbm.Start(1, 0.0, 10'000'000, 0);  // 10 us alone
  hbm.Start(2, 1000.0, 100'000, 0);  // 0.1 us alone
  EXPECT_DOUBLE_EQ(EndOf(hbm, 2), 1200.0);
  hbm.End(2, 1200.0);
  // 1 MB moved alone, 0.1 MB beside the transfer, the remaining 8.9 MB alone again.
  EXPECT_DOUBLE_EQ(EndOf(hbm, 1), 1200.0 + 8'900.0);
}

// Water-filling: a stream capped below an equal split keeps its cap, the others share the rest.
TEST(SharedHbm, ACappedStreamLeavesTheRestToTheOthers) {
  SharedHbm hbm(1e12);
  hbm.Start(1, 0.0, 100'000, 100.0);  // capped at 100 B/ns
  hbm.Start(2, 0.0, 900'000, 0);
  hbm.Start(3, 0.0, 900'000, 0);
  EXPECT_DOUBLE_EQ(EndOf(hbm, 1), 1000.0);
  EXPECT_DOUBLE_EQ(EndOf(hbm, 2), 2000.0);  // 450 B/ns each
  EXPECT_DOUBLE_EQ(EndOf(hbm, 3), 2000.0);
}

// Rates are re-shared when a stream starts or ends: a stream whose bytes have moved but whose
// command has not ended (a die-to-die hop after its last byte) is skipped by the projection and
// takes nothing from the next re-share on.
TEST(SharedHbm, AFinishedStreamTakesNoShareFromTheNextReshare) {
  SharedHbm hbm(1e12);
  hbm.Start(1, 0.0, 1000, 0);
  hbm.Start(2, 0.0, 1'000'000, 0);
  hbm.Start(3, 10.0, 0, 0);
  EXPECT_EQ(EndOf(hbm, 1), -1);  // done: not projected
  EXPECT_EQ(hbm.active(), 3);
  // 10 ns at half the channel (5000 B), then the whole channel for the remaining 995000 B.
  EXPECT_DOUBLE_EQ(EndOf(hbm, 2), 10.0 + 995.0);
}

}  // namespace
}  // namespace rblnsim::rebel100
