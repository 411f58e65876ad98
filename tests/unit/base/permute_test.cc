#include "base/permute.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace rblnsim {
namespace {

// Every permutation of a few items, and random ones of many: position i ends up with what stood
// at source[i], in each of two arrays moved side by side (one of move-only-sized strings).
TEST(PermuteInPlace, PositionITakesWhatStoodAtItsSource) {
  std::vector<size_t> small(5);
  std::iota(small.begin(), small.end(), size_t{0});
  std::vector<std::vector<size_t>> sources;
  do {
    sources.push_back(small);
  } while (std::next_permutation(small.begin(), small.end()));
  std::mt19937 random(7);
  for (size_t n : {0, 1, 1000}) {
    std::vector<size_t> source(n);
    std::iota(source.begin(), source.end(), size_t{0});
    std::shuffle(source.begin(), source.end(), random);
    sources.push_back(source);
  }
  for (const std::vector<size_t>& source : sources) {
    const size_t n = source.size();
    std::vector<int> numbers(n);
    std::vector<std::string> names(n);
    for (size_t i = 0; i < n; ++i) {
      numbers[i] = static_cast<int>(i) * 3;
      names[i] = "item number " + std::to_string(i) + " with a name too long for SSO";
    }
    PermuteInPlace(
        n, [&](size_t i) { return source[i]; }, numbers, names);
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(numbers[i], static_cast<int>(source[i]) * 3);
      EXPECT_EQ(names[i],
                "item number " + std::to_string(source[i]) + " with a name too long for SSO");
    }
  }
}

}  // namespace
}  // namespace rblnsim
