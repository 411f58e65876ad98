// The op-sequence alignment: exact (a longest common subsequence) on small differences, greedy
// and flagged on large ones, and always a cover of both sequences.
#include "profiler/diff/sequence_align.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace rblnsim::diff {
namespace {

size_t LcsLength(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j)
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  }
  return t[a.size()][b.size()];
}

// Runs follow each other without gaps over both sequences, and matched runs hold equal elements.
void ExpectCover(const Alignment& al,
                 const std::vector<uint32_t>& a,
                 const std::vector<uint32_t>& b) {
  size_t i = 0, j = 0, matched = 0;
  for (const AlignedRun& run : al.runs) {
    EXPECT_EQ(run.base_begin, i);
    EXPECT_EQ(run.new_begin, j);
    if (run.matched) {
      ASSERT_EQ(run.base_count, run.new_count);
      for (size_t k = 0; k < run.base_count; ++k)
        EXPECT_EQ(a[i + k], b[j + k]);
      matched += run.base_count;
    } else {
      EXPECT_GT(run.base_count + run.new_count, 0u);
    }
    i += run.base_count;
    j += run.new_count;
  }
  EXPECT_EQ(i, a.size());
  EXPECT_EQ(j, b.size());
  EXPECT_EQ(matched, al.matched);
}

TEST(SequenceAlign, IdenticalSequencesAreOneMatchedRun) {
  const std::vector<uint32_t> a = {1, 2, 3, 2, 1};
  const Alignment al = AlignSequences(a, a);
  ASSERT_EQ(al.runs.size(), 1u);
  EXPECT_TRUE(al.runs[0].matched);
  EXPECT_EQ(al.matched, a.size());
  EXPECT_FALSE(al.approximate);
}

TEST(SequenceAlign, AnInsertionIsOneUnmatchedStretchAtItsPlace) {
  const std::vector<uint32_t> a = {1, 2, 3, 4};
  const std::vector<uint32_t> b = {1, 2, 9, 9, 3, 4};
  const Alignment al = AlignSequences(a, b);
  ASSERT_EQ(al.runs.size(), 3u);
  EXPECT_FALSE(al.runs[1].matched);
  EXPECT_EQ(al.runs[1].base_count, 0u);
  EXPECT_EQ(al.runs[1].new_begin, 2u);
  EXPECT_EQ(al.runs[1].new_count, 2u);
  EXPECT_EQ(al.matched, 4u);
  ExpectCover(al, a, b);
}

TEST(SequenceAlign, ADeletionAndAReplacement) {
  const std::vector<uint32_t> a = {1, 5, 2, 3, 7, 4};
  const std::vector<uint32_t> b = {1, 2, 3, 8, 4};
  const Alignment al = AlignSequences(a, b);
  ExpectCover(al, a, b);
  EXPECT_EQ(al.matched, 4u);
  size_t unmatched = 0;
  for (const AlignedRun& run : al.runs)
    unmatched += run.matched ? 0 : 1;
  EXPECT_EQ(unmatched, 2u);  // {5} gone, {7} replaced by {8}
}

TEST(SequenceAlign, EmptySides) {
  const std::vector<uint32_t> a = {1, 2};
  const std::vector<uint32_t> none;
  const Alignment gone = AlignSequences(a, none);
  ASSERT_EQ(gone.runs.size(), 1u);
  EXPECT_EQ(gone.runs[0].base_count, 2u);
  EXPECT_EQ(gone.matched, 0u);
  EXPECT_TRUE(AlignSequences(none, none).runs.empty());
}

TEST(SequenceAlign, MatchesALongestCommonSubsequenceOnRandomPairs) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint32_t> a(rng() % 40), b;
    for (uint32_t& x : a)
      x = rng() % 5;
    // b: a with random edits, so the pair shares a long subsequence as real runs do.
    for (uint32_t x : a) {
      const uint32_t roll = rng() % 10;
      if (roll == 0)
        continue;
      if (roll == 1)
        b.push_back(rng() % 5);
      b.push_back(x);
    }
    const Alignment al = AlignSequences(a, b);
    EXPECT_FALSE(al.approximate);
    EXPECT_EQ(al.matched, LcsLength(a, b)) << "trial " << trial;
    ExpectCover(al, a, b);
  }
}

TEST(SequenceAlign, BeyondTheEditBudgetTheGreedyMatchKeepsPeriodicInsertions) {
  // 200 iterations of {op, launch}; the new run inserts a two-op download in each: 400 edits.
  std::vector<uint32_t> a, b;
  for (int i = 0; i < 200; ++i) {
    a.insert(a.end(), {1, 0});
    b.insert(b.end(), {1, 7, 8, 0});
  }
  AlignOptions options;
  options.max_edits = 16;
  const Alignment al = AlignSequences(a, b, options);
  EXPECT_TRUE(al.approximate);
  EXPECT_EQ(al.matched, a.size());  // every base element still pairs
  ExpectCover(al, a, b);
  // Within the budget the same pair is exact, with the same result.
  options.max_edits = 1000;
  const Alignment exact = AlignSequences(a, b, options);
  EXPECT_FALSE(exact.approximate);
  EXPECT_EQ(exact.matched, a.size());
}

}  // namespace
}  // namespace rblnsim::diff
