// The spare block kept for the next large allocation (tools/rblnsim/spare_block.h): reused only
// by an allocation it fits without leaving more than a quarter unused, never held beside a block
// allocated because it did not fit, and never kept past its bound.
#include "tools/rblnsim/spare_block.h"

#include <gtest/gtest.h>

#include <cstddef>

namespace rblnsim {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(SpareBlock, AFreedBlockServesTheNextAllocationItFits) {
  SpareBlock spare(64 * kMiB);
  char a[1];
  void* unfit = &a;
  EXPECT_EQ(spare.Take(8 * kMiB, &unfit), nullptr);  // nothing kept yet
  EXPECT_EQ(unfit, nullptr);
  EXPECT_EQ(spare.Keep(&a, 32 * kMiB), nullptr);  // kept: nothing to free
  EXPECT_EQ(spare.Take(30 * kMiB, &unfit), &a);
  EXPECT_EQ(unfit, nullptr);
  EXPECT_EQ(spare.Take(30 * kMiB, &unfit), nullptr);  // handed out once
}

TEST(SpareBlock, ABlockThatDoesNotFitIsGivenUpBeforeTheAllocation) {
  SpareBlock spare(64 * kMiB);
  char a[1];
  void* unfit = nullptr;
  spare.Keep(&a, 32 * kMiB);
  EXPECT_EQ(spare.Take(33 * kMiB, &unfit), nullptr);  // too small
  EXPECT_EQ(unfit, &a);
  spare.Keep(&a, 32 * kMiB);
  EXPECT_EQ(spare.Take(23 * kMiB, &unfit), nullptr);  // 9 of 32 MiB would lie unused
  EXPECT_EQ(unfit, &a);
  spare.Keep(&a, 32 * kMiB);
  EXPECT_EQ(spare.Take(24 * kMiB, &unfit), &a);  // a quarter unused is still a fit
  EXPECT_EQ(unfit, nullptr);
  EXPECT_EQ(spare.Take(24 * kMiB, &unfit), nullptr);
  EXPECT_EQ(unfit, nullptr);
}

TEST(SpareBlock, OnlyTheLastBlockIsKeptAndNoneBeyondTheBound) {
  SpareBlock spare(64 * kMiB);
  char a[1];
  char b[1];
  char c[1];
  EXPECT_EQ(spare.Keep(&a, 16 * kMiB), nullptr);
  EXPECT_EQ(spare.Keep(&b, 64 * kMiB), &a);      // the previous spare is the caller's to free
  EXPECT_EQ(spare.Keep(&c, 64 * kMiB + 1), &c);  // past the bound: freed, the spare stays
  void* unfit = nullptr;
  EXPECT_EQ(spare.Take(60 * kMiB, &unfit), &b);
  EXPECT_EQ(spare.Keep(nullptr, 8 * kMiB), nullptr);
  EXPECT_EQ(spare.Take(8 * kMiB, &unfit), nullptr);
  EXPECT_EQ(unfit, nullptr);
}

}  // namespace
}  // namespace rblnsim
