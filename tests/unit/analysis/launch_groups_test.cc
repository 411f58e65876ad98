// The launch table's grouping by launch id: the std::map<id, vector> it replaced, as flat arrays.
#include "profiler/index/launch_groups.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

namespace rblnsim::index {
namespace {

LaunchGroups Group(std::initializer_list<std::pair<int64_t, size_t>> entries) {
  LaunchGroups groups;
  groups.Reserve(entries.size());
  for (const auto& [id, event] : entries)
    groups.Add(id, event);
  groups.Seal();
  return groups;
}

TEST(LaunchGroups, GroupsByIdAscendingKeepingTraceOrderWithinAGroup) {
  const LaunchGroups groups = Group({{7, 0}, {3, 1}, {7, 2}, {-1, 3}, {3, 4}, {7, 5}});
  ASSERT_EQ(groups.size(), 3u);
  std::vector<int64_t> ids;
  std::vector<std::vector<size_t>> events;
  for (const auto& [id, group] : groups) {
    ids.push_back(id);
    events.emplace_back(group.begin(), group.end());
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{-1, 3, 7}));
  EXPECT_EQ(events, (std::vector<std::vector<size_t>>{{3}, {1, 4}, {0, 2, 5}}));
}

TEST(LaunchGroups, FindAtAndCountAsAMapWould) {
  const LaunchGroups groups = Group({{10, 4}, {12, 5}, {10, 6}});
  const auto found = groups.find(10);
  ASSERT_NE(found, groups.end());
  EXPECT_EQ(found->first, 10);
  ASSERT_EQ(found->second.size(), 2u);
  EXPECT_EQ(found->second[1], 6u);
  EXPECT_EQ(groups.find(11), groups.end());
  EXPECT_EQ(groups.count(12), 1u);
  EXPECT_EQ(groups.count(13), 0u);
  EXPECT_EQ(groups.at(12).size(), 1u);
  EXPECT_THROW((void)groups.at(13), std::out_of_range);
}

TEST(LaunchGroups, Empty) {
  const LaunchGroups groups = Group({});
  EXPECT_TRUE(groups.empty());
  EXPECT_EQ(groups.begin(), groups.end());
  EXPECT_EQ(groups.find(0), groups.end());
}

}  // namespace
}  // namespace rblnsim::index
