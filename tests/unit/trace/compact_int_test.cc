// CompactInt: Event::pid and Event::tid in four bytes, every int64 read back exactly.
#include "profiler/trace/compact_int.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "profiler/trace/trace.h"

namespace rblnsim::trace {
namespace {

int32_t RawOf(CompactInt value) {
  int32_t raw = 0;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

TEST(CompactIntTest, EveryKindOfValueReadsBackExactly) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t inline_min = CompactInt::kInlineMin;
  for (const int64_t value :
       {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{4321}, int64_t{INT32_MAX},
        int64_t{INT32_MAX} + 1, inline_min, inline_min - 1, int64_t{INT32_MIN},
        int64_t{INT32_MIN} - 1, kMin, kMax, int64_t{123456789012345678}, -int64_t{1} << 40}) {
    const CompactInt compact(value);
    EXPECT_EQ(static_cast<int64_t>(compact), value);
    EXPECT_EQ(compact.value(), value);
    CompactInt assigned;
    assigned = value;
    EXPECT_EQ(assigned.value(), value);
  }
}

TEST(CompactIntTest, InlineValuesAreTheirOwnBitsAndWideOnesAPlaceInTheTable) {
  EXPECT_EQ(RawOf(CompactInt(INT32_MAX)), INT32_MAX);
  EXPECT_EQ(RawOf(CompactInt(CompactInt::kInlineMin)), CompactInt::kInlineMin);
  EXPECT_LT(RawOf(CompactInt(int64_t{INT32_MAX} + 1)), CompactInt::kInlineMin);
  // A wide value is kept once, however many events carry it.
  const int64_t wide = int64_t{77} << 40;
  EXPECT_EQ(RawOf(CompactInt(wide)), RawOf(CompactInt(wide)));
  EXPECT_NE(RawOf(CompactInt(wide)), RawOf(CompactInt(wide + 1)));
}

TEST(CompactIntTest, ComparesAsTheInt64ItHolds) {
  const CompactInt a(5);
  const CompactInt big(int64_t{1} << 50);
  EXPECT_TRUE(a == 5);
  EXPECT_TRUE(5 == a);
  EXPECT_TRUE(a != 6);
  EXPECT_TRUE(a < big);
  EXPECT_TRUE(big > int64_t{1} << 49);
  EXPECT_TRUE(CompactInt(-(int64_t{1} << 45)) < a);  // a wide negative value orders below
  EXPECT_TRUE(big == CompactInt(int64_t{1} << 50));
}

TEST(CompactIntTest, EventsKeepPidAndTidInEightBytes) {
  Event event;
  event.pid = int64_t{1} << 33;
  event.tid = -3;
  EXPECT_EQ(event.pid, int64_t{1} << 33);
  EXPECT_EQ(event.tid, -3);
  static_assert(sizeof(event.pid) + sizeof(event.tid) == 8);
}

// Event::flow_id: every uint64 reads back exactly; small ids and the bridges' flow-id block,
// just below 2^32, stay inline (no place in the table).
TEST(CompactFlowIdTest, EveryUint64ReadsBackAndTheFlowBlockStaysInline) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (const uint64_t value :
       {uint64_t{0}, uint64_t{1}, uint64_t{INT32_MAX}, uint64_t{1} << 31, uint64_t{0xBFFFFFFF},
        uint64_t{0xC0000000}, uint64_t{0xF0000000}, uint64_t{0xF0ABCDEF}, uint64_t{0xFFFFFFFF},
        uint64_t{1} << 32, uint64_t{1} << 63, kMax - (uint64_t{1} << 31), kMax - INT32_MAX, kMax,
        uint64_t{123456789012345678}}) {
    const CompactFlowId id(value);
    EXPECT_EQ(static_cast<uint64_t>(id), value) << value;
    EXPECT_TRUE(id == value) << value;
    CompactFlowId assigned;
    assigned = value;
    EXPECT_EQ(assigned.value(), value) << value;
  }
  auto raw_of = [](CompactFlowId id) {
    int32_t raw = 0;
    std::memcpy(&raw, &id, sizeof raw);
    return raw;
  };
  // Inline: the stored int32 is at least CompactInt::kInlineMin.
  for (const uint64_t value : {uint64_t{0}, uint64_t{7}, uint64_t{INT32_MAX}, uint64_t{0xC0000000},
                               uint64_t{0xF0000000}, uint64_t{0xF0FFFFFF}, uint64_t{0xFFFFFFFF}})
    EXPECT_GE(raw_of(CompactFlowId(value)), CompactInt::kInlineMin) << value;
  for (const uint64_t value : {uint64_t{1} << 31, uint64_t{1} << 32, kMax})
    EXPECT_LT(raw_of(CompactFlowId(value)), CompactInt::kInlineMin) << value;
  EXPECT_FALSE(CompactFlowId(5) == uint64_t{6});
  EXPECT_TRUE(CompactFlowId(kMax) == CompactFlowId(kMax));
}

TEST(CompactIntTest, EventsKeepTheirDurationInFourBytes) {
  Event event;
  event.dur_ns = int64_t{5} << 40;  // a duration of about 64 days: wide
  EXPECT_EQ(event.dur_ns, int64_t{5} << 40);
  event.ts_ns = 10;
  EXPECT_EQ(event.end_ns(), 10 + (int64_t{5} << 40));
  event.dur_ns = -1;
  EXPECT_EQ(event.dur_ns.value(), -1);
  static_assert(sizeof(event.dur_ns) == 4 && sizeof(event.flow_id) == 4);
}

// The importer parses windows on two threads, each setting pids: wide values interned from both
// at once each read back as themselves.
TEST(CompactIntTest, ThreadsEncodingWideValuesAtOnceReadBackTheirOwn) {
  constexpr int kPerThread = 20'000;
  auto encode = [](int64_t base, std::vector<CompactInt>* out) {
    for (int i = 0; i < kPerThread; ++i)
      out->emplace_back(base + (i % 5000) * 7);
  };
  std::vector<CompactInt> first, second;
  std::thread a(encode, int64_t{3} << 40, &first);
  std::thread b(encode, int64_t{3} << 40, &second);
  a.join();
  b.join();
  for (int i = 0; i < kPerThread; ++i) {
    const int64_t expected = (int64_t{3} << 40) + (i % 5000) * 7;
    ASSERT_EQ(first[i].value(), expected);
    ASSERT_EQ(second[i].value(), expected);
    ASSERT_EQ(RawOf(first[i]), RawOf(second[i]));
  }
}

// Reads take no lock: while two threads keep entering new wide values (past several of the
// table's chunks), each reads back every value it entered, at once and again at the end.
TEST(CompactIntTest, ValuesReadBackWhileTheTableGrowsUnderThem) {
  constexpr int kPerThread = 150'000;
  auto enter = [](int64_t base, bool* ok) {
    std::vector<CompactInt> mine;
    mine.reserve(kPerThread);
    for (int i = 0; i < kPerThread; ++i) {
      mine.emplace_back(base + i);
      if (mine.back().value() != base + i)
        *ok = false;
    }
    for (int i = 0; i < kPerThread; ++i) {
      if (mine[i].value() != base + i)
        *ok = false;
    }
  };
  bool first_ok = true;
  bool second_ok = true;
  std::thread a(enter, int64_t{5} << 40, &first_ok);
  std::thread b(enter, -(int64_t{5} << 40), &second_ok);
  a.join();
  b.join();
  EXPECT_TRUE(first_ok);
  EXPECT_TRUE(second_ok);
}

}  // namespace
}  // namespace rblnsim::trace
