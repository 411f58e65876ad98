#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "profiler/trace/trace.h"

namespace rblnsim::trace {
namespace {

TEST(CategoryTextTest, ReadsBackWhatWasInternedAndSharesOneCopy) {
  const CategoryText a("cuda_runtime_test_category");
  const CategoryText b(std::string("cuda_runtime_test_category"));
  EXPECT_EQ(std::string_view(a), "cuda_runtime_test_category");
  EXPECT_EQ(std::string_view(a).data(), std::string_view(b).data());
  EXPECT_EQ(InternCategoryText("cuda_runtime_test_category").data(), std::string_view(a).data());
  EXPECT_FALSE(a.empty());
}

TEST(CategoryTextTest, EmptyAndDefaultReadAsEmpty) {
  EXPECT_TRUE(CategoryText().empty());
  EXPECT_EQ(std::string_view(CategoryText()), "");
  EXPECT_TRUE(CategoryText("").empty());
}

TEST(CategoryTextTest, AnEventOfAnUnknownCategoryKeepsItsText) {
  Event event;
  event.category = CategoryFromName("my_category");
  ASSERT_EQ(event.category, Category::kOther);
  event.cat_text = "my_category";
  EXPECT_EQ(event.cat(), "my_category");
  event.category = Category::kKernel;
  EXPECT_EQ(event.cat(), "kernel");
}

// Far more categories than the table's first array: one thread interns new texts while a second
// interns the same ones and a third reads every text handed to it so far. The growth never loses
// or moves a text under a reader, and each text is stored once.
TEST(CategoryTextTest, ManyCategoriesWhileOthersInternAndRead) {
  constexpr int kCount = 5000;
  auto text_of = [](int i) { return "grow_" + std::to_string(i); };
  std::vector<CategoryText> made(kCount);
  std::vector<CategoryText> again(kCount);
  std::atomic<int> ready{0};
  std::thread writer([&] {
    for (int i = 0; i < kCount; ++i) {
      made[i] = CategoryText(text_of(i));
      ready.store(i + 1, std::memory_order_release);
    }
  });
  std::thread second([&] {
    for (int i = kCount - 1; i >= 0; --i)
      again[i] = CategoryText(text_of(i));
  });
  std::thread reader([&] {
    int checked = 0;
    while (checked < kCount) {
      const int n = ready.load(std::memory_order_acquire);
      for (; checked < n; ++checked) {
        EXPECT_EQ(std::string_view(made[checked]), text_of(checked));
      }
    }
  });
  writer.join();
  second.join();
  reader.join();
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(std::string_view(made[i]).data(), std::string_view(again[i]).data()) << i;
  }
}

TEST(CategoryTextTest, EventsStaySixtyFourBytes) {
  EXPECT_EQ(sizeof(CategoryText), 4u);
  EXPECT_EQ(sizeof(Event), 64u);
}

}  // namespace
}  // namespace rblnsim::trace
