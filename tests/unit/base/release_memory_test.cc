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

}  // namespace
}  // namespace rblnsim
