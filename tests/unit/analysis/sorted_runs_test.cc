// SortAlmostSorted must give exactly std::sort's order whatever the input: sorted, two sorted
// runs (host ops then markers), or anything else.
#include "base/sorted_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace rblnsim::index {
namespace {

using Item = std::pair<int, int>;  // (key, index): a strict total order, as the analyses use

std::vector<Item> Sorted(std::vector<Item> items) {
  std::sort(items.begin(), items.end());
  return items;
}

TEST(SortAlmostSortedTest, MatchesStdSort) {
  std::mt19937 rng(7);
  std::vector<std::vector<Item>> inputs = {{}, {{1, 0}}, {{2, 0}, {1, 1}}};
  std::vector<Item> sorted;
  for (int i = 0; i < 500; ++i)
    sorted.push_back({i / 3, i});
  inputs.push_back(sorted);
  // Two runs: ops in start order, then markers in start order, interleaving in time.
  std::vector<Item> two_runs;
  for (int i = 0; i < 300; ++i)
    two_runs.push_back({i * 2, i});
  for (int i = 0; i < 200; ++i)
    two_runs.push_back({i * 3 + 1, 300 + i});
  inputs.push_back(two_runs);
  // Three runs and random order take the full sort.
  std::vector<Item> three_runs = two_runs;
  three_runs.push_back({-1, 999});
  inputs.push_back(three_runs);
  std::vector<Item> shuffled = sorted;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  inputs.push_back(shuffled);

  for (const std::vector<Item>& input : inputs) {
    std::vector<Item> items = input;
    SortAlmostSorted(&items);
    EXPECT_EQ(items, Sorted(input)) << "size " << input.size();
  }
}

}  // namespace
}  // namespace rblnsim::index
