// Events grouped by launch id: ids ascending, each group's events in trace order. It reads like
// the std::map<int64_t, std::vector<size_t>> it replaces (range-for over (id, events) pairs,
// find, at, count, size), but is flat arrays: a trace of hundreds of thousands of launches cost
// a map node and a vector allocation per launch in each of the launch table's two maps, tens of
// MB of a large import's peak.
#ifndef RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_
#define RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_

#include <cstddef>
#include <cstdint>

#include "profiler/index/grouped.h"

namespace rblnsim::index {

// Filled with Reserve, Add (in trace order) and Seal.
using LaunchGroups = Grouped<int64_t, uint32_t>;

}  // namespace rblnsim::index

#endif  // RBLNSIM_PROFILER_INDEX_LAUNCH_GROUPS_H_
