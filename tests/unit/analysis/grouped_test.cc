// index::Grouped must read exactly like the std::map<Key, std::vector<Value>> it stands in for:
// groups in key order, each group's values in insertion order, the same find and count.
#include "profiler/index/grouped.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace rblnsim::index {
namespace {

TEST(GroupedTest, EmptyBeforeAndAfterSealing) {
  Grouped<uint64_t, int> groups;
  groups.Seal();
  EXPECT_TRUE(groups.empty());
  EXPECT_EQ(groups.find(3), groups.end());
  EXPECT_EQ(groups.count(3), 0u);
}

TEST(GroupedTest, MatchesAMapOfVectorsOnShuffledKeys) {
  std::mt19937 random(7);
  Grouped<uint64_t, std::string> groups;
  std::map<uint64_t, std::vector<std::string>> expected;
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t key = random() % 3'000;
    groups.Add(key, "v" + std::to_string(i));
    expected[key].push_back("v" + std::to_string(i));
  }
  groups.Seal();
  ASSERT_EQ(groups.size(), expected.size());
  auto want = expected.begin();
  for (const auto& [key, values] : groups) {
    ASSERT_EQ(key, want->first);
    ASSERT_EQ(std::vector<std::string>(values.begin(), values.end()), want->second);
    ++want;
  }
  for (uint64_t key = 0; key < 3'100; ++key) {
    const auto it = groups.find(key);
    ASSERT_EQ(groups.count(key), expected.count(key)) << key;
    if (it != groups.end()) {
      EXPECT_EQ(it->second.front(), expected[key].front());
    }
  }
}

// Keys that arrive in order (the usual case: launch ids grow through a trace) are grouped where
// they stand; the groups must be the same as after a sort.
TEST(GroupedTest, KeysInOrderAreGroupedAsTheyStand) {
  for (const std::vector<uint64_t>& keys :
       {std::vector<uint64_t>{1, 1, 2, 5, 5, 5, 9}, std::vector<uint64_t>{1, 1, 2, 5, 5, 5, 4}}) {
    Grouped<uint64_t, int> groups;
    std::map<uint64_t, std::vector<int>> expected;
    for (size_t i = 0; i < keys.size(); ++i) {
      groups.Add(keys[i], static_cast<int>(i));
      expected[keys[i]].push_back(static_cast<int>(i));
    }
    groups.Seal();
    ASSERT_EQ(groups.size(), expected.size());
    auto want = expected.begin();
    for (const auto& [key, values] : groups) {
      EXPECT_EQ(key, want->first);
      EXPECT_EQ(std::vector<int>(values.begin(), values.end()), want->second) << key;
      ++want;
    }
  }
}

TEST(GroupedTest, ACopyViewsItsOwnValues) {
  Grouped<int, int> groups;
  groups.Add(1, 10);
  groups.Add(2, 20);
  groups.Add(1, 11);
  groups.Seal();
  const Grouped<int, int> copy = groups;
  groups.at(1)[0] = 99;
  EXPECT_EQ(copy.at(1)[0], 10);
  EXPECT_EQ(copy.at(1)[1], 11);
  EXPECT_EQ(copy.at(2)[0], 20);
  EXPECT_THROW((void)copy.at(3), std::out_of_range);
}

TEST(GroupedTest, ValuesCanBeUpdatedInPlace) {
  Grouped<int, int> groups;
  groups.Add(2, 20);
  groups.Add(1, 10);
  groups.Add(2, 21);
  groups.Seal();
  for (const auto& [key, values] : groups) {
    for (int& v : values)
      v += 100;
  }
  EXPECT_EQ(groups.find(2)->second[0], 120);
  EXPECT_EQ(groups.find(2)->second[1], 121);
  EXPECT_EQ(groups.begin()->second[0], 110);
}

}  // namespace
}  // namespace rblnsim::index
