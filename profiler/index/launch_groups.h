// Events grouped by launch id: ids ascending, each group's events in trace order. It reads like
// the std::map<int64_t, std::vector<size_t>> it replaces (range-for over (id, events) pairs,
// find, at, count, size), but is flat arrays: a trace of hundreds of thousands of launches cost
// a map node and a vector allocation per launch in each of the launch table's two maps, tens of
// MB of a large import's peak.
#ifndef RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_
#define RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "profiler/index/grouped.h"

namespace rblnsim::index {

class LaunchGroups : public Grouped<int64_t, size_t> {
 public:
  // |entries|: (launch id, event) in trace order. Replaces whatever was built before.
  void Build(const std::vector<std::pair<int64_t, size_t>>& entries) {
    Grouped<int64_t, size_t> groups;
    groups.Reserve(entries.size());
    for (const auto& [id, event] : entries)
      groups.Add(id, event);
    groups.Seal();
    Grouped<int64_t, size_t>::operator=(std::move(groups));
  }
};

}  // namespace rblnsim::index

#endif  // RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_
