#include "profiler/trace/arg_list.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "profiler/trace/arg_keys.h"
#include "profiler/trace/arg_pool.h"
#include "profiler/trace/shared_text.h"

namespace rblnsim::trace {
namespace {

std::vector<Arg> Owned(const ArgList& list) {
  std::vector<Arg> out;
  for (const ArgView arg : list)
    out.push_back(arg.Owned());
  return out;
}

const std::vector<Arg>& EveryKind() {
  static const std::vector<Arg> args = {
      {"i", int64_t{-7}},
      {"max", std::numeric_limits<int64_t>::max()},
      {"min", std::numeric_limits<int64_t>::min()},
      // Either side of the four-byte integer form.
      {"i32max", int64_t{std::numeric_limits<int32_t>::max()}},
      {"i32over", int64_t{std::numeric_limits<int32_t>::max()} + 1},
      {"i32min", int64_t{std::numeric_limits<int32_t>::min()}},
      {"i32under", int64_t{std::numeric_limits<int32_t>::min()} - 1},
      // Either side of the one-byte integer form.
      {"i8max", int64_t{127}},
      {"i8over", int64_t{128}},
      {"i8min", int64_t{-128}},
      {"i8under", int64_t{-129}},
      {"zero", int64_t{0}},
      // Either side of the one-byte text length, and of the longest interned key.
      {std::string(64, 'a'), std::string(254, 'u')},
      {std::string(65, 'b'), std::string(255, 'w')},
      {"d", 2.5},
      {"t", true},
      {"f", false},
      {"s", std::string("x\"y")},
      {"empty", std::string()},
      {"raw", RawJson{"[1,2,3]"}},
      {std::string(300, 'k'), std::string(70'000, 'v')},  // past one-byte and two-byte lengths
      {"", RawJson{""}},
  };
  return args;
}

TEST(ArgListTest, EmptyListHoldsNothing) {
  ArgList list;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.size(), 0u);
  EXPECT_EQ(list.begin(), list.end());
  EXPECT_FALSE(list.Find("x").has_value());
  EXPECT_EQ(list.heap_bytes(), 0u);
  EXPECT_EQ(list, ArgList{});
}

TEST(ArgListTest, EveryValueKindReadsBackExactly) {
  const ArgList list(EveryKind());
  EXPECT_EQ(list.size(), EveryKind().size());
  EXPECT_EQ(Owned(list), EveryKind());
  for (size_t i = 0; i < EveryKind().size(); ++i) {
    EXPECT_EQ(list[i].key, EveryKind()[i].key);
    EXPECT_TRUE(list[i].value == EveryKind()[i].value) << i;
  }
}

TEST(ArgListTest, PushBackMatchesBuilderAndBuilderIsExact) {
  ArgList pushed;
  ArgListBuilder builder;
  for (const Arg& arg : EveryKind()) {
    pushed.push_back(arg);
    builder.Add(arg.key, ViewOf(arg.value));
  }
  const ArgList built = builder.Build();
  EXPECT_EQ(pushed, built);
  EXPECT_GE(pushed.heap_bytes(), built.heap_bytes());
  // The builder's list is one block of exactly the encoded size; a copy is exact too.
  const ArgList copy = pushed;
  EXPECT_EQ(copy.heap_bytes(), built.heap_bytes());
  EXPECT_EQ(Owned(copy), EveryKind());
}

// A list built into a pool reads as the heap-built one, owns no block (destroying it frees
// nothing: the sanitized run would report a bad free), and becomes a list of its own the moment
// it is changed, leaving the pool's block as it was.
TEST(ArgListTest, PooledListsReadTheSameAndCopyOnChange) {
  ArgPool pool;
  ArgListBuilder builder;
  for (const Arg& arg : EveryKind())
    builder.Add(arg.key, ViewOf(arg.value));
  const ArgList pooled = builder.Build(&pool);
  builder.Add("a", int64_t{1}).Add("b", std::string_view("two"));
  ArgList small = builder.Build(&pool);
  EXPECT_TRUE(pooled.pooled());
  EXPECT_EQ(pooled.heap_bytes(), 0u);
  EXPECT_EQ(Owned(pooled), EveryKind());
  EXPECT_GT(pool.reserved_bytes(), 70'000u);  // the long value's block went to the pool

  const ArgList copy = small;
  EXPECT_FALSE(copy.pooled());
  EXPECT_TRUE(copy == small);
  ArgList moved = std::move(small);
  EXPECT_TRUE(moved.pooled());
  moved.Set("a", int64_t{5});  // rebuilt: a block of its own
  EXPECT_FALSE(moved.pooled());
  EXPECT_EQ(std::get<int64_t>(moved.Find("a")->value), 5);
  EXPECT_EQ(std::get<int64_t>(copy.Find("a")->value), 1);  // what the pool holds is unchanged
  ArgList pooled_again = builder.Add("x", int64_t{1}).Build(&pool);
  pooled_again.Add("y", int64_t{2});  // appended: copied out of the pool first
  EXPECT_FALSE(pooled_again.pooled());
  EXPECT_EQ(Owned(pooled_again), (std::vector<Arg>{{"x", int64_t{1}}, {"y", int64_t{2}}}));
  pooled_again = builder.Add("z", int64_t{3}).Build(&pool);  // the own block is freed
  EXPECT_TRUE(pooled_again.pooled());
  pooled_again.clear();
  EXPECT_TRUE(pooled_again.empty());
}

TEST(ArgListTest, AddIntStoresWhatAddDoes) {
  const int64_t values[] = {0,
                            -1,
                            127,
                            128,
                            -128,
                            -129,
                            std::numeric_limits<int32_t>::max(),
                            int64_t{std::numeric_limits<int32_t>::max()} + 1,
                            std::numeric_limits<int32_t>::min(),
                            std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::max()};
  ArgListBuilder by_variant;
  ArgListBuilder by_int;
  for (const int64_t value : values) {
    by_variant.Add(ArgKey("n"), value);
    by_int.AddInt(ArgKey("n"), value);
  }
  const ArgList a = by_variant.Build();
  const ArgList b = by_int.Build();
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.heap_bytes(), b.heap_bytes());  // the same narrowest forms
  size_t i = 0;
  for (const ArgView arg : b)
    EXPECT_EQ(std::get<int64_t>(arg.value), values[i++]);
  EXPECT_EQ(i, std::size(values));
}

// A pool holds a block as its args' bytes and a four-byte header, packed at two-byte alignment:
// 150k device-slice-like lists (22 bytes of args each) fit in one of its blocks, where a
// twelve-byte header rounded to eight took two.
TEST(ArgListTest, PooledBlocksArePacked) {
  ArgPool pool;
  ArgListBuilder builder;
  std::vector<ArgList> lists;
  for (int64_t i = 0; i < 150'000; ++i) {
    builder.Add("launch_id", 100'000 + i).Add("device", int64_t{100}).Add("stream", int64_t{9});
    lists.push_back(builder.Add("correlation", 100'000 + i).Build(&pool));
  }
  EXPECT_EQ(pool.reserved_bytes(), ArgPool::kBlockBytes);
  EXPECT_EQ(std::get<int64_t>(lists.back().Find("correlation")->value), 249'999);
  EXPECT_EQ(lists[7].size(), 4u);
}

// A pooled block past a two-byte count takes the long header, and reads back the same.
TEST(ArgListTest, PooledBlockOfManyArgs) {
  ArgPool pool;
  ArgListBuilder builder;
  std::vector<Arg> expected;
  for (int64_t i = 0; i < 70'000; ++i) {
    builder.Add("n", i % 200 - 100);
    expected.push_back({"n", i % 200 - 100});
  }
  const ArgList many = builder.Build(&pool);
  EXPECT_TRUE(many.pooled());
  EXPECT_EQ(many.size(), 70'000u);
  EXPECT_EQ(Owned(many), expected);
  ArgList changed = many;  // copied into a block of its own, with the twelve-byte header
  changed.Add("last", int64_t{1});
  EXPECT_EQ(changed.size(), 70'001u);
  EXPECT_EQ(std::get<int64_t>(changed[70'000].value), 1);
}

// Members are destroyed in reverse order, so an event may go after the pool of its args: the
// list knows from its pointer, not its block, that the block is not its to free.
TEST(ArgListTest, PooledListMayBeDestroyedAfterItsPool) {
  ArgList list;
  {
    ArgPool pool;
    ArgListBuilder builder;
    list = builder.Add("a", int64_t{1}).Build(&pool);
    EXPECT_TRUE(list.pooled());
  }
  // Destroyed with the list below: nothing of the freed block may be read (a use after free
  // under the sanitizers).
}

TEST(ArgPoolTest, BlocksAreAlignedAndPacked) {
  ArgPool pool;
  EXPECT_EQ(pool.reserved_bytes(), 0u);
  char* first = pool.Allocate(13);
  char* second = pool.Allocate(8);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 2, 0u);
  EXPECT_EQ(second, first + 14);  // rounded to two (the list's tag bit), then packed
  EXPECT_EQ(pool.reserved_bytes(), ArgPool::kBlockBytes);
  // A block too big to share the pool's gets one of its own; small ones still follow on.
  char* big = pool.Allocate(ArgPool::kBlockBytes);
  EXPECT_EQ(pool.reserved_bytes(), 2 * ArgPool::kBlockBytes);
  EXPECT_EQ(pool.Allocate(8), second + 8);
  big[ArgPool::kBlockBytes - 1] = 1;  // all of it usable
  // A pool filled past one block starts the next one.
  for (size_t used = 0; used < ArgPool::kBlockBytes; used += 4096)
    pool.Allocate(4096);
  EXPECT_EQ(pool.reserved_bytes(), 3 * ArgPool::kBlockBytes);
}

TEST(ArgListTest, BuilderStartsAfreshAfterBuildAndClear) {
  ArgListBuilder builder;
  builder.Add("a", int64_t{1}).Add("b", std::string_view("two"));
  EXPECT_TRUE(builder.Has("b"));
  EXPECT_FALSE(builder.Has("c"));
  const ArgList first = builder.Build();
  EXPECT_EQ(builder.size(), 0u);
  EXPECT_FALSE(builder.Has("a"));
  builder.Add("stale", int64_t{0});
  builder.Clear();
  builder.Add("c", 3.0);
  const ArgList second = builder.Build();
  EXPECT_EQ(Owned(first), (std::vector<Arg>{{"a", int64_t{1}}, {"b", std::string("two")}}));
  EXPECT_EQ(Owned(second), (std::vector<Arg>{{"c", 3.0}}));
  EXPECT_TRUE(ArgListBuilder().Build().empty());
}

// A run of args encoded once and appended to later events: the same args as adding them anew,
// followed by whatever each event adds of its own, in a builder of any size.
TEST(ArgListTest, EncodedArgsAppendedAgainReadBackTheSame) {
  ArgListBuilder builder;
  for (const Arg& arg : EveryKind())
    builder.Add(arg.key, ViewOf(arg.value));
  const std::string run(builder.encoded());
  const auto count = static_cast<uint32_t>(builder.size());
  const ArgList direct = builder.Build();
  ArgListBuilder other;
  for (int event = 0; event < 3; ++event) {
    other.AppendEncoded(run, count).AddInt(ArgKey("own"), event);
    std::vector<Arg> expected = EveryKind();
    expected.push_back({"own", int64_t{event}});
    const ArgList list = other.Build();
    EXPECT_EQ(list.size(), expected.size());
    EXPECT_EQ(Owned(list), expected) << event;
  }
  EXPECT_EQ(Owned(direct), EveryKind());
  EXPECT_TRUE(ArgListBuilder().AppendEncoded("", 0).Build().empty());
}

TEST(ArgListTest, SharedKeysAreStoredAsIdsNotText) {
  // Any interned key costs two bytes in the block, whatever its length; a small integer four.
  const std::string key = "a key of forty-odd bytes, interned once per process";
  const ArgList list = {{key, int64_t{7}}, {key, int64_t{8}}};
  EXPECT_LT(list.heap_bytes(), key.size());
  EXPECT_EQ(list[0].key, key);
  EXPECT_EQ(std::get<int64_t>(list[1].value), 8);
  // A key past the interned length is kept as text, and still found.
  const std::string long_key(kMaxInternedArgKeyBytes + 1, 'k');
  const ArgList long_list = {{long_key, int64_t{7}}};
  EXPECT_GT(long_list.heap_bytes(), long_key.size());
  ASSERT_TRUE(long_list.Find(long_key).has_value());
  EXPECT_EQ(long_list.Find(long_key)->key, long_key);
}

// A value interned in the process's table costs four bytes in the block and reads back as the
// same string or raw JSON as the text would: found, iterated, copied, compared, rebuilt by Set.
TEST(ArgListTest, SharedValuesReadBackAsTheirText) {
  const std::string categories = "Neural Engine Clusters, chiplet 0 (a shared arg value)";
  const std::string dims = "[[256, 256], [256, 256]]";
  const std::optional<SharedText> text = InternSharedText(categories, /*raw=*/false);
  const std::optional<SharedText> raw = InternSharedText(dims, /*raw=*/true);
  ASSERT_TRUE(text && raw);
  EXPECT_FALSE(text->raw);
  EXPECT_TRUE(raw->raw);
  const std::optional<SharedText> again = InternSharedText(categories, /*raw=*/false);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, text->id);  // once per process
  EXPECT_EQ(SharedTextView(raw->id), dims);

  const ArgKey kCategories("categories");
  const ArgKey kDims("Input Dims");
  ArgListBuilder builder;
  builder.Add("n", int64_t{1}).Add(kCategories, *text).Add(kDims, *raw);
  const std::string long_key =
      "long key past the interned length: " + std::string(kMaxInternedArgKeyBytes, 'k');
  builder.Add(ArgKey(long_key), *text);
  builder.Add("last", int64_t{2});
  const ArgList shared = builder.Build();
  const ArgList inline_text = {{"n", int64_t{1}},
                               {"categories", categories},
                               {"Input Dims", RawJson{dims}},
                               {long_key, categories},
                               {"last", int64_t{2}}};
  EXPECT_EQ(Owned(shared), Owned(inline_text));
  EXPECT_TRUE(shared == inline_text);
  EXPECT_LT(shared.heap_bytes() + categories.size(), inline_text.heap_bytes());
  ASSERT_TRUE(shared.Find("categories").has_value());
  EXPECT_EQ(std::get<std::string_view>(shared.Find(kCategories)->value), categories);
  EXPECT_EQ(std::get<RawJsonView>(shared.Find(kDims)->value).text, dims);
  EXPECT_EQ(std::get<int64_t>(shared.Find("last")->value), 2);  // found past the ids
  EXPECT_TRUE(builder.Add(kCategories, *text).Has(kCategories));
  builder.Clear();

  ArgList copy = shared;
  EXPECT_TRUE(copy == shared);
  copy.Set("n", int64_t{3});
  EXPECT_EQ(std::get<int64_t>(copy.Find("n")->value), 3);
  EXPECT_EQ(std::get<std::string_view>(copy.Find(kCategories)->value), categories);

  // Values the table does not take: too long.
  EXPECT_FALSE(InternSharedText(std::string(kMaxSharedTextBytes + 1, 'v'), false).has_value());
  EXPECT_TRUE(InternSharedText(std::string(kMaxSharedTextBytes, 'v'), false).has_value());
}

TEST(ArgListTest, FindGivesTheListsOwnKeyNotTheCallers) {
  const ArgList list = {{"kept", int64_t{1}}, {std::string(100, 'x'), int64_t{2}}};
  std::optional<ArgView> found;
  {
    const std::string query = "kept";
    found = list.Find(query);
  }
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->key, "kept");
  {
    const std::string query(100, 'x');
    found = list.Find(query);
  }
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->key, std::string(100, 'x'));
}

TEST(ArgListTest, FindTakesTheFirstOfARepeatedKey) {
  const ArgList list = {{"k", int64_t{1}}, {"k", int64_t{2}}, {"j", std::string("x")}};
  ASSERT_TRUE(list.Find("k").has_value());
  EXPECT_EQ(std::get<int64_t>(list.Find("k")->value), 1);
  EXPECT_EQ(std::get<std::string_view>(list.Find("j")->value), "x");
  EXPECT_FALSE(list.Find("K").has_value());
}

TEST(ArgListTest, SetReplacesTheFirstOrAppends) {
  ArgList list = {{"a", int64_t{1}}, {"b", std::string("old")}, {"c", true}};
  list.Set("b", RawJsonView{"{}"});
  list.Set("d", 4.5);
  EXPECT_EQ(Owned(list),
            (std::vector<Arg>{{"a", int64_t{1}}, {"b", RawJson{"{}"}}, {"c", true}, {"d", 4.5}}));
}

TEST(ArgListTest, CopyMoveAndClearKeepOwnership) {
  ArgList a(EveryKind());
  ArgList b = a;
  ArgList c = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(b, c);
  a = c;
  c.clear();
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(Owned(a), EveryKind());
  c = {{"z", int64_t{0}}};
  EXPECT_EQ(c.size(), 1u);
}

TEST(ArgListTest, EqualityComparesValuesInOrder) {
  const ArgList a = {{"x", int64_t{1}}, {"y", int64_t{2}}};
  EXPECT_EQ(a, (ArgList{{"x", int64_t{1}}, {"y", int64_t{2}}}));
  EXPECT_NE(a, (ArgList{{"y", int64_t{2}}, {"x", int64_t{1}}}));
  EXPECT_NE(a, (ArgList{{"x", int64_t{1}}}));
  EXPECT_NE(a, (ArgList{{"x", 1.0}, {"y", int64_t{2}}}));  // a double is not an integer
  EXPECT_NE((ArgList{{"s", std::string("1")}}), (ArgList{{"s", RawJson{"1"}}}));
  const ArgList nan = {{"n", std::nan("")}};
  EXPECT_NE(nan, nan);  // as the variant compares NaN
}

TEST(ArgListTest, IntArgValueReadsNumbersAndDecimalText) {
  EXPECT_EQ(IntArgValue(ArgValueView(int64_t{5})), 5);
  EXPECT_EQ(IntArgValue(ArgValueView(std::string_view("-12"))), -12);
  EXPECT_EQ(IntArgValue(ArgValueView(RawJsonView{"42"})), 42);
  EXPECT_EQ(IntArgValue(ArgValueView(std::string_view("4x"))), std::nullopt);
  EXPECT_EQ(IntArgValue(ArgValueView(std::string_view(""))), std::nullopt);
  EXPECT_EQ(IntArgValue(ArgValueView(2.0)), std::nullopt);
  EXPECT_EQ(IntArgValue(ArgValueView(true)), std::nullopt);
  EXPECT_EQ(IntArgValue(ArgValue(std::string("7"))), 7);
}

}  // namespace
}  // namespace rblnsim::trace
