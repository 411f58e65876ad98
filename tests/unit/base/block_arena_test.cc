// BlockArena hands out aligned pieces one after another, gives a large piece a block of its own
// without giving up the block being filled, and keeps that block across Reset.
#include "base/block_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace rblnsim {
namespace {

TEST(BlockArenaTest, PiecesArePackedAlignedAndLargeOnesStandAlone) {
  BlockArena arena(1024, 8);
  EXPECT_EQ(arena.reserved_bytes(), 0u);
  char* first = arena.Allocate(3);
  char* second = arena.Allocate(9);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 8, 0u);
  EXPECT_EQ(second, first + 8);
  EXPECT_EQ(arena.reserved_bytes(), 1024u);
  // Over a quarter of a block and more than is left: a block of its own.
  char* large = arena.Allocate(1020);
  EXPECT_EQ(arena.reserved_bytes(), 1024u + 1024u);
  large[1023] = 'x';
  EXPECT_EQ(arena.Allocate(8), second + 16);  // the block being filled carries on
  // Filling it up starts another.
  for (int i = 0; i < 126; ++i)  // 24 + 1,008 bytes: past the first block
    arena.Allocate(8);
  EXPECT_EQ(arena.reserved_bytes(), 3 * 1024u);
}

TEST(BlockArenaTest, ResetKeepsOnlyTheBlockBeingFilledAndStartsItAgain) {
  BlockArena arena(64, 1);
  char* first = arena.Allocate(10);
  // 58 of the first block's 64 bytes used; then a piece that does not fit starts a second
  // block, and one over a quarter of a block gets a block of its own.
  for (int i = 0; i < 3; ++i)
    arena.Allocate(16);
  char* current = arena.Allocate(10);
  arena.Allocate(100);
  EXPECT_EQ(arena.reserved_bytes(), 64u + 64u + 100u);
  arena.Reset();
  EXPECT_EQ(arena.reserved_bytes(), 64u);
  EXPECT_EQ(arena.Allocate(5), current);
  EXPECT_NE(current, first);
  BlockArena moved = std::move(arena);
  EXPECT_EQ(moved.Allocate(1), current + 5);  // pieces and blocks survive a move
}

}  // namespace
}  // namespace rblnsim
