// The memo hands back a conversion only for annotations equal in content to the ones it was
// made from, and only when the slice's own keys cannot change it.
#include "profiler/bridge/annotation_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rblnsim::bridge {
namespace {

void StoreOne(AnnotationMemo* memo,
              const std::vector<CopiedAnnotation>& annotations,
              uint32_t own_keys) {
  memo->Store(annotations, own_keys, "encoded", 1, 7, {.null_strings = 2});
}

TEST(AnnotationMemoTest, NothingIsFoundBeforeAStore) {
  AnnotationMemo memo;
  const std::vector<CopiedAnnotation> none;
  EXPECT_EQ(memo.Find(none, 0), nullptr);
}

TEST(AnnotationMemoTest, EqualContentElsewhereIsFoundWithWhatWasStored) {
  std::string name = "launch_id", value = "12";
  AnnotationMemo memo;
  StoreOne(&memo, {{name, value, 0}}, kOwnCorrelation);
  const std::string other_name = name, other_value = value;
  const std::vector<CopiedAnnotation> again = {{other_name, other_value, 0}};
  const AnnotationMemo::Converted* found = memo.Find(again, kOwnDeviceStreamCorrelation);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->encoded_args, "encoded");
  EXPECT_EQ(found->arg_count, 1u);
  EXPECT_EQ(found->launch_id, 7);
  EXPECT_EQ(found->counts.null_strings, 2u);
}

TEST(AnnotationMemoTest, TheSameBufferWithNewContentIsNotFound) {
  std::string name = "launch_id", value = "12";
  AnnotationMemo memo;
  const std::vector<CopiedAnnotation> annotations = {{name, value, 0}};
  StoreOne(&memo, annotations, 0);
  value[1] = '3';  // the caller reused its buffer: same address and size, another launch
  EXPECT_EQ(memo.Find(annotations, 0), nullptr);
}

TEST(AnnotationMemoTest, NullnessQuotingAndCountMustMatch) {
  AnnotationMemo memo;
  StoreOne(&memo, {{"k", "", 1}}, 0);
  EXPECT_NE(memo.Find(std::vector<CopiedAnnotation>{{"k", "", 1}}, 0), nullptr);
  EXPECT_EQ(memo.Find(std::vector<CopiedAnnotation>{{"k", std::nullopt, 1}}, 0), nullptr);
  EXPECT_EQ(memo.Find(std::vector<CopiedAnnotation>{{"k", "", 0}}, 0), nullptr);
  EXPECT_EQ(memo.Find(std::vector<CopiedAnnotation>{{std::nullopt, "", 1}}, 0), nullptr);
  EXPECT_EQ(memo.Find(std::vector<CopiedAnnotation>{{"k", "", 1}, {"k", "", 1}}, 0), nullptr);
  EXPECT_EQ(memo.Find(std::vector<CopiedAnnotation>{}, 0), nullptr);
}

TEST(AnnotationMemoTest, AnAnnotationNamedLikeAnOwnKeyTiesTheMemoToTheOwnKeys) {
  AnnotationMemo memo;
  StoreOne(&memo, {{"stream", "1", 0}}, kOwnCorrelation);
  EXPECT_NE(memo.Find(std::vector<CopiedAnnotation>{{"stream", "1", 0}}, kOwnCorrelation), nullptr);
  EXPECT_EQ(
      memo.Find(std::vector<CopiedAnnotation>{{"stream", "1", 0}}, kOwnDeviceStreamCorrelation),
      nullptr);
}

}  // namespace
}  // namespace rblnsim::bridge
