// The bridge's copy of an export owns its text: views into the pool outlive the producer's
// buffers, survive moves, and a repeated producer pointer is copied once.
#include "profiler/bridge/text_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "profiler/bridge/export_copy.h"

namespace rblnsim::bridge {
namespace {

TEST(TextPoolTest, KeepCopiesTheTextAndViewsSurviveAMove) {
  TextPool pool;
  std::string source = "neural_engine";
  const std::string_view kept = pool.Keep(source);
  source.assign(source.size(), 'x');
  EXPECT_EQ(kept, "neural_engine");
  // Longer than a block, and enough of them to need many blocks.
  const std::string long_text(200'000, 'L');
  const std::string_view kept_long = pool.Keep(long_text);
  std::vector<std::string_view> many;
  for (int i = 0; i < 20'000; ++i)
    many.push_back(pool.Keep("launch " + std::to_string(i)));
  TextPool moved = std::move(pool);
  EXPECT_EQ(kept, "neural_engine");
  EXPECT_EQ(kept_long, long_text);
  EXPECT_EQ(many.front(), "launch 0");
  EXPECT_EQ(many.back(), "launch 19999");
  EXPECT_EQ(moved.Keep(""), "");
}

// A copy reads as a C string too: the held export keeps names as pointers alone.
TEST(TextPoolTest, CopiesAreNulTerminatedEvenWhenEmpty) {
  TextPool pool;
  const std::string source = "abc";
  const std::string_view kept = pool.Keep(source);
  EXPECT_EQ(*(kept.data() + kept.size()), '\0');  // one past the view: the copy's NUL
  const std::string_view empty = pool.Keep("");
  ASSERT_NE(empty.data(), nullptr);
  EXPECT_EQ(*empty.data(), '\0');
  EXPECT_STREQ(pool.KeepCString("matmul").data(), "matmul");
}

TEST(TextPoolTest, ARepeatedPointerIsCopiedOnceAndDistinctPointersEachGetTheirText) {
  TextPool pool;
  const char* name = "matmul_512";
  const std::string_view first = pool.KeepCString(name);
  const size_t after_first = pool.bytes();
  EXPECT_EQ(pool.KeepCString(name).data(), first.data());
  EXPECT_EQ(pool.bytes(), after_first);
  // Equal text at another address is still read from that address.
  std::vector<std::string> texts;
  for (int i = 0; i < 1000; ++i)
    texts.push_back("slice " + std::to_string(i));
  for (int i = 0; i < 1000; ++i)
    EXPECT_EQ(pool.KeepCString(texts[i].c_str()), texts[i]);
  EXPECT_EQ(pool.KeepCString(name), "matmul_512");
}

TEST(TextPoolTest, ACopiedExportOutlivesTheProducersStrings) {
  std::string name = "rbln_run";
  std::string key = "launch_id";
  std::string value = "42";
  std::string category = "runtime";
  const char* categories[] = {category.c_str(), nullptr};
  RblnKinetoAnnotation annotation{key.c_str(), value.c_str(), 0};
  RblnKinetoDevice device{1, name.c_str()};
  RblnKinetoSlice slice{};
  slice.device_pid = 1;
  slice.name = name.c_str();
  slice.categories = categories;
  slice.categories_count = 2;
  slice.annotations = &annotation;
  slice.annotations_count = 1;
  RblnKinetoExport exp{&device, 1, nullptr, 0, &slice, 1};
  CopiedExport copy = CopyExport(exp);
  for (std::string* s : {&name, &key, &value, &category})
    s->assign(s->size(), '?');
  const CopiedExport moved = std::move(copy);
  ASSERT_EQ(moved.slices.size(), 1u);
  EXPECT_EQ(moved.devices[0].name, "rbln_run");
  EXPECT_EQ(moved.slices[0].name, "rbln_run");
  ASSERT_EQ(moved.CategoriesOf(moved.slices[0]).size(), 1u);  // the null entry is skipped
  EXPECT_EQ(moved.CategoriesOf(moved.slices[0])[0], "runtime");
  ASSERT_EQ(moved.AnnotationsOf(moved.slices[0]).size(), 1u);
  EXPECT_EQ(moved.AnnotationsOf(moved.slices[0])[0].name, "launch_id");
  EXPECT_EQ(moved.AnnotationsOf(moved.slices[0])[0].value, "42");
}

}  // namespace
}  // namespace rblnsim::bridge
