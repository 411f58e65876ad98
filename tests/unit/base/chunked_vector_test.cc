// ChunkedVector keeps every element where it was first put while it grows past many chunks, and
// reads back in insertion order like the std::vector it replaces.
#include "base/chunked_vector.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rblnsim {
namespace {

struct Item {
  int value = 0;
  std::string text;
};

TEST(ChunkedVectorTest, ElementsStayPutAndReadBackInOrder) {
  ChunkedVector<Item, 4> items;
  EXPECT_TRUE(items.empty());
  Item& first = items.emplace_back();
  first.value = -1;
  std::vector<const Item*> addresses = {&first};
  for (int i = 1; i < 1000; ++i) {
    Item& item = items.emplace_back();
    item.value = i;
    item.text = std::to_string(i);
    addresses.push_back(&item);
  }
  ASSERT_EQ(items.size(), 1000u);
  EXPECT_EQ(first.value, -1);  // never moved by the 249 chunks that followed
  for (size_t i = 0; i < items.size(); ++i)
    ASSERT_EQ(&items[i], addresses[i]);
  int expected = -1;
  for (const Item& item : items) {
    EXPECT_EQ(item.value, expected);
    expected = expected < 0 ? 1 : expected + 1;
  }
  const std::vector<Item> copied(items.begin(), items.end());
  EXPECT_EQ(copied.back().text, "999");
}

TEST(ChunkedVectorTest, ClearReusesStorageAndResetsElements) {
  ChunkedVector<Item, 4> items;
  for (int i = 0; i < 10; ++i)
    items.emplace_back().text = "old";
  items.clear();
  EXPECT_EQ(items.size(), 0u);
  EXPECT_EQ(items.begin(), items.end());
  Item& reused = items.emplace_back();
  EXPECT_EQ(reused.text, "");  // a fresh element, not the one cleared
  EXPECT_EQ(items.size(), 1u);
}

TEST(ChunkedVectorTest, PopFrontReleasesInOrderAndKeepsTheRestInPlace) {
  ChunkedVector<Item, 4> items;
  std::vector<const Item*> addresses;
  for (int i = 0; i < 10; ++i) {
    Item& item = items.emplace_back();
    item.value = i;
    // On the heap: a pop that skipped the destructor would leak it, and the sanitized run
    // reports leaks.
    item.text = std::string(40, static_cast<char>('a' + i));
    addresses.push_back(&item);
  }
  // Across a chunk boundary (4 per chunk): the first chunk goes, the others stay where they are.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(items.front().value, i);
    items.pop_front();
  }
  ASSERT_EQ(items.size(), 4u);
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(&items[i], addresses[6 + i]);
    EXPECT_EQ(items[i].value, static_cast<int>(6 + i));
  }
  // Appending after pops continues the sequence; iteration starts at the new front.
  for (int i = 10; i < 13; ++i)
    items.emplace_back().value = i;
  int expected = 6;
  for (const Item& item : items)
    EXPECT_EQ(item.value, expected++);
  EXPECT_EQ(expected, 13);
  // Emptied by pops, then cleared and refilled: it starts again at its first slot.
  while (!items.empty())
    items.pop_front();
  items.clear();
  items.emplace_back().value = 42;
  EXPECT_EQ(items.front().value, 42);
  EXPECT_EQ(items.size(), 1u);
}

TEST(ChunkedVectorTest, CopiesAreDeepAndMovesKeepTheElements) {
  ChunkedVector<Item, 3> items;
  for (int i = 0; i < 7; ++i)
    items.emplace_back().value = i;
  const Item* third = &items[2];
  ChunkedVector<Item, 3> copy = items;
  copy[2].value = 42;
  EXPECT_EQ(items[2].value, 2);
  ChunkedVector<Item, 3> moved = std::move(items);
  EXPECT_EQ(&moved[2], third);
  EXPECT_EQ(moved.size(), 7u);
  EXPECT_EQ(copy.size(), 7u);
}

// Counts the live instances, to see which slots of a chunk hold an element.
struct Counted {
  static inline int live = 0;
  Counted() { ++live; }
  Counted(const Counted&) { ++live; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --live; }
};

TEST(ChunkedVectorTest, OnlyAppendedElementsAreConstructed) {
  {
    ChunkedVector<Counted, 4> items;
    for (int i = 0; i < 5; ++i)
      items.emplace_back();
    // Two chunks of four slots: five elements, not eight. A chunk's unused slots stay raw memory,
    // so a short buffer writes only the pages its elements land on.
    EXPECT_EQ(Counted::live, 5);
    items.clear();
    EXPECT_EQ(Counted::live, 0);
    for (int i = 0; i < 6; ++i)
      items.emplace_back();
    ChunkedVector<Counted, 4> copy = items;
    EXPECT_EQ(Counted::live, 12);
    ChunkedVector<Counted, 4> moved = std::move(copy);
    EXPECT_EQ(Counted::live, 12);
    copy = std::move(moved);  // assigning over a moved-from vector
    EXPECT_EQ(Counted::live, 12);
  }
  EXPECT_EQ(Counted::live, 0);  // every element destroyed once
}

TEST(ChunkedVectorTest, DefaultChunksHoldMegabytesAndNeverOverrunThem) {
  struct Record {
    char bytes[48];
  };
  struct Odd {
    char bytes[224];  // 8 MiB is not a multiple of it
  };
  EXPECT_EQ(ChunkElementsFor<Record>(kDefaultChunkBytes), kDefaultChunkBytes / 48);
  // A chunk just over 8 MiB would take a whole huge page more for its last bytes.
  EXPECT_LE(ChunkElementsFor<Odd>(kDefaultChunkBytes) * sizeof(Odd), kDefaultChunkBytes);
  EXPECT_GT((ChunkElementsFor<Odd>(kDefaultChunkBytes) + 1) * sizeof(Odd), kDefaultChunkBytes);
  EXPECT_EQ(ChunkElementsFor<Record>(1), 1u);
}

}  // namespace
}  // namespace rblnsim
