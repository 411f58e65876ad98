#include "base/release_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "base/chunked_vector.h"

namespace rblnsim {
namespace {

// What ReleaseMemory is for: `v = {}` empties a vector and keeps its storage.
TEST(ReleaseMemoryTest, GivesTheStorageBack) {
  std::vector<uint64_t> kept(1 << 16, 7);
  kept = {};
  EXPECT_TRUE(kept.empty());
  EXPECT_GE(kept.capacity(), size_t{1} << 16);

  std::vector<uint64_t> released(1 << 16, 7);
  ReleaseMemory(released);
  EXPECT_TRUE(released.empty());
  EXPECT_EQ(released.capacity(), 0u);
  released.push_back(1);  // still usable
  EXPECT_EQ(released.size(), 1u);
}

TEST(ReleaseMemoryTest, WorksOnChunkedVectors) {
  ChunkedVector<uint64_t> chunks;
  for (int i = 0; i < 100'000; ++i)
    chunks.push_back(static_cast<uint64_t>(i));
  ReleaseMemory(chunks);
  EXPECT_EQ(chunks.size(), 0u);
  chunks.push_back(3);
  EXPECT_EQ(chunks.size(), 1u);
}

// The consumed front of a block goes back page by page; what lies past it stays intact.
TEST(ReleaseMemoryTest, ReleasesOnlyTheConsumedWholePages) {
  constexpr size_t kValues = size_t{1} << 20;  // 8 MiB, far more than a page
  std::vector<uint64_t> values(kValues, 7);
  const size_t half_bytes = kValues / 2 * sizeof(uint64_t);
  ReleaseConsumedPages(values.data(), 0, half_bytes / 2);
  // A second call continues where the first stopped.
  ReleaseConsumedPages(values.data(), half_bytes / 2, half_bytes);
  for (size_t i = kValues / 2; i < kValues; ++i)
    ASSERT_EQ(values[i], 7u) << i;
  // Whole pages in the consumed half read as zeros: they were given back.
  size_t zeros = 0;
  for (size_t i = 0; i < kValues / 2; ++i)
    zeros += values[i] == 0;
  EXPECT_GT(zeros, kValues / 4);
  // Nothing consumed: nothing released.
  std::vector<uint64_t> kept(kValues, 9);
  ReleaseConsumedPages(kept.data(), 0, 0);
  ReleaseConsumedPages(kept.data(), 100, 100);
  EXPECT_EQ(kept.front(), 9u);
  EXPECT_EQ(kept[kValues / 2], 9u);
}

}  // namespace
}  // namespace rblnsim
