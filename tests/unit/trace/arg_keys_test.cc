#include "profiler/trace/arg_keys.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "profiler/trace/arg_list.h"
#include "profiler/trace/shared_text.h"

// Each test runs in a process of its own (gtest_discover_tests), so the process-wide table
// starts empty in every one.
namespace rblnsim::trace {
namespace {

TEST(ArgKeysTest, AKeyHasOneIdAndReadsBack) {
  EXPECT_FALSE(FindArgKey("External id (ids)").has_value());
  const std::optional<uint16_t> id = InternArgKey("External id (ids)");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(InternArgKey("External id (ids)"), id);
  EXPECT_EQ(FindArgKey("External id (ids)"), id);
  EXPECT_EQ(ArgKeyText(*id), "External id (ids)");
  const std::optional<uint16_t> other = InternArgKey("launch_id (ids)");
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(other, id);
  EXPECT_EQ(ArgKeyText(*other), "launch_id (ids)");
  EXPECT_FALSE(FindArgKey("External id").has_value());
  // The empty key is a key like any other, also as a view with no data pointer.
  EXPECT_FALSE(FindArgKey(std::string_view()).has_value());
  const std::optional<uint16_t> empty = InternArgKey(std::string_view());
  EXPECT_EQ(InternArgKey(""), empty);
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(ArgKeyText(*empty), "");
}

TEST(ArgKeysTest, AKeySeenAbsentIsFoundOnceInterned) {
  // The thread's cache remembers the absent answer; interning must not leave it stale.
  EXPECT_FALSE(FindArgKey("stream (absent)").has_value());
  EXPECT_FALSE(FindArgKey("stream (absent)").has_value());
  const std::optional<uint16_t> id = InternArgKey("stream (absent)");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(FindArgKey("stream (absent)"), id);
}

// Many keys, more than the thread's cache has room for, looked up in turns and in the pattern
// of a trace (host op keys, then device slice keys): every answer stays right as entries are
// replaced, absent ones included.
TEST(ArgKeysTest, KeysInTurnsKeepTheirIdsThroughTheCache) {
  std::vector<std::string> keys = {"External id", "Record function id", "Ev Idx",     "Input Dims",
                                   "Input type",  "launch_id",          "categories", "device",
                                   "stream",      "correlation"};
  for (int i = 0; i < 300; ++i)
    keys.push_back("key " + std::to_string(i));
  std::vector<uint16_t> ids;
  for (const std::string& key : keys) {
    const std::optional<uint16_t> id = InternArgKey(key);
    ASSERT_TRUE(id.has_value()) << key;
    ids.push_back(*id);
  }
  for (int round = 0; round < 50; ++round) {
    for (size_t i = 0; i < keys.size(); i += 1 + static_cast<size_t>(round % 7)) {
      ASSERT_EQ(FindArgKey(keys[i]), ids[i]) << keys[i];
      ASSERT_EQ(FindArgKey(keys[i % 10]), ids[i % 10]) << keys[i % 10];
      ASSERT_FALSE(FindArgKey(keys[i] + " (never interned)").has_value()) << keys[i];
    }
  }
}

TEST(ArgKeysTest, LongKeysAreNeverInterned) {
  const std::string longest(kMaxInternedArgKeyBytes, 'k');
  const std::string too_long(kMaxInternedArgKeyBytes + 1, 'k');
  EXPECT_TRUE(InternArgKey(longest).has_value());
  EXPECT_FALSE(InternArgKey(too_long).has_value());
  EXPECT_FALSE(FindArgKey(too_long).has_value());
}

TEST(ArgKeysTest, ThreadsInterningTheSameKeysAgreeOnTheirIds) {
  constexpr int kThreads = 4;
  constexpr int kKeys = 200;
  const uint32_t before = InternedArgKeyCount();
  std::vector<std::vector<uint16_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &ids] {
      // Each thread walks the keys from a different start, so first sightings race.
      for (int i = 0; i < kKeys; ++i) {
        const int k = (i + t * 37) % kKeys;
        const std::optional<uint16_t> id = InternArgKey("thread key " + std::to_string(k));
        ids[t].push_back(id.value_or(UINT16_MAX));
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(InternedArgKeyCount() - before, static_cast<uint32_t>(kKeys));
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kKeys; ++i) {
      const int k = (i + t * 37) % kKeys;
      ASSERT_NE(ids[t][i], UINT16_MAX);
      EXPECT_EQ(ArgKeyText(ids[t][i]), "thread key " + std::to_string(k));
      EXPECT_EQ(FindArgKey("thread key " + std::to_string(k)), ids[t][i]);
    }
  }
}

TEST(ArgKeysTest, AnArgKeyAddsAndFindsAsItsText) {
  const ArgKey key("correlation (key)");
  ASSERT_TRUE(key.id().has_value());
  EXPECT_EQ(key.id(), FindArgKey("correlation (key)"));
  const std::string long_text(kMaxInternedArgKeyBytes + 1, 'c');
  const ArgKey long_key(long_text);
  EXPECT_FALSE(long_key.id().has_value());
  ArgListBuilder builder;
  builder.Add(key, int64_t{5}).Add(long_key, std::string_view("v"));
  EXPECT_TRUE(builder.Has(key));
  EXPECT_TRUE(builder.Has(long_key));
  EXPECT_TRUE(builder.Has("correlation (key)"));
  EXPECT_FALSE(builder.Has(ArgKey("stream (key)")));
  const ArgList built = builder.Build();
  ArgList pushed;
  pushed.Add(key, int64_t{5});
  pushed.Add(long_text, std::string_view("v"));
  EXPECT_EQ(built, pushed);
  EXPECT_EQ(built.heap_bytes(), pushed.heap_bytes());
  EXPECT_EQ(built[0].key, "correlation (key)");
  ASSERT_TRUE(built.Find(key).has_value());
  EXPECT_EQ(std::get<int64_t>(built.Find(key)->value), 5);
  ASSERT_TRUE(built.Find(long_key).has_value());
  EXPECT_EQ(built.Find(long_key)->key, long_text);
  // A key only looked for is not interned by the look.
  const uint32_t before = InternedArgKeyCount();
  const ArgKey absent = ArgKey::Existing("never added (key)");
  EXPECT_FALSE(absent.id().has_value());
  EXPECT_FALSE(built.Find(absent).has_value());
  EXPECT_EQ(InternedArgKeyCount(), before);
  EXPECT_EQ(ArgKey::Existing("correlation (key)").id(), key.id());
}

// Last: it fills the table, for the rest of the process.
TEST(ArgKeysTest, AFullTableKeepsFurtherKeysAsTextInTheirLists) {
  const std::optional<uint16_t> early = InternArgKey("early");
  ASSERT_TRUE(early.has_value());
  // A crafted trace with a new key per event: the table stops at its bound.
  for (uint32_t i = 0; InternedArgKeyCount() < kMaxInternedArgKeys; ++i)
    ASSERT_TRUE(InternArgKey("key " + std::to_string(i)).has_value());
  EXPECT_FALSE(InternArgKey("late").has_value());
  EXPECT_FALSE(InternArgKey("later").has_value());
  EXPECT_EQ(InternedArgKeyCount(), kMaxInternedArgKeys);
  EXPECT_EQ(InternArgKey("early"), early);
  // Lists mixing interned and text keys read back, find and compare as before.
  ArgListBuilder builder;
  builder.Add("early", int64_t{1}).Add("late", std::string_view("text key"));
  const ArgList built = builder.Build();
  const ArgList owned = {{"early", int64_t{1}}, {"late", std::string("text key")}};
  EXPECT_EQ(built, owned);
  ASSERT_TRUE(built.Find("late").has_value());
  EXPECT_EQ(built.Find("late")->key, "late");
  EXPECT_EQ(std::get<std::string_view>(built.Find("late")->value), "text key");
  EXPECT_EQ(std::get<int64_t>(built.Find("early")->value), 1);
  EXPECT_FALSE(built.Find("later").has_value());
  EXPECT_EQ(built[1].key, "late");
}

// The shared value table (shared_text.h) is interned from the bridge and the host trace,
// possibly on a consumer's threads, and read by any thread through arg lists.
TEST(SharedTextTest, ThreadsInterningTheSameValuesAgreeOnTheirIds) {
  constexpr int kThreads = 4;
  constexpr int kValues = 300;
  const uint32_t before = SharedTextCount();
  std::vector<std::vector<uint32_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &ids] {
      for (int i = 0; i < kValues; ++i) {
        const int v = (i + t * 53) % kValues;
        const std::optional<SharedText> text =
            InternSharedText("Task DMA, chiplet " + std::to_string(v), /*raw=*/false);
        ids[t].push_back(text ? text->id : UINT32_MAX);
        // Read while other threads intern.
        if (text && SharedTextView(text->id) != "Task DMA, chiplet " + std::to_string(v))
          ids[t].back() = UINT32_MAX - 1;
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(SharedTextCount() - before, static_cast<uint32_t>(kValues));
  // Thread 0 interned value v as its v-th; every thread must have got the same ids.
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kValues; ++i) {
      const int v = (i + t * 53) % kValues;
      ASSERT_LT(ids[t][i], UINT32_MAX - 1);
      EXPECT_EQ(ids[t][i], ids[0][v]);
    }
  }
}

// Last in this file: it fills the process's table. A value past the bound stays text in its
// list and reads back the same.
TEST(SharedTextTest, AFullTableTakesNoMoreValues) {
  const std::optional<SharedText> early = InternSharedText("early value", /*raw=*/false);
  ASSERT_TRUE(early.has_value());
  for (uint32_t i = 0; SharedTextCount() < kMaxSharedTexts; ++i)
    ASSERT_TRUE(InternSharedText("value " + std::to_string(i), false).has_value());
  EXPECT_FALSE(InternSharedText("late value", false).has_value());
  EXPECT_EQ(SharedTextCount(), kMaxSharedTexts);
  const std::optional<SharedText> again = InternSharedText("early value", /*raw=*/true);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->id, early->id);
  EXPECT_TRUE(again->raw);
}

}  // namespace
}  // namespace rblnsim::trace
