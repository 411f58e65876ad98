#include "profiler/bridge/flows.h"

#include <cassert>
#include <charconv>
#include <string_view>
#include <utility>

#include "base/sorted_runs.h"

namespace rblnsim::bridge {

namespace {

// |text| as a positive integer, or 0 when it is none.
int64_t PositiveInteger(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty() && value > 0 ? value : 0;
}

}  // namespace

int64_t AnnotatedLaunchId(std::span<const CopiedAnnotation> annotations) {
  for (const CopiedAnnotation& annotation : annotations) {
    if (annotation.name != platform::kLaunchIdArg)
      continue;
    // Only the first "launch_id" counts, the same one the args keep.
    return annotation.value.has_value() ? PositiveInteger(*annotation.value) : 0;
  }
  return 0;
}

void AssignFlows(const LaunchTags& tags, std::vector<trace::Event>* events, BridgeStats* stats) {
  std::vector<trace::Event>& all = *events;
  assert(tags.is_marker.size() == all.size());
  assert(all.size() <= UINT32_MAX);
  // Launch ids are positive: flow_id holds them (LaunchTags), as int64 for the comparisons.
  auto launch_of = [&all](uint32_t position) {
    return static_cast<int64_t>(all[position].flow_id);
  };
  auto is_device = [&all](size_t i) { return IsLaunchDeviceCategory(all[i].category); };
  // Pass 1: the markers and device slices with a launch id, as event positions sorted by
  // (launch id, position): each launch's events are one run, in event order, and the first
  // marker of a launch leads its run. A capture holds a launch per op, so these are flat arrays
  // of 4-byte positions (the ABI counts slices in 32 bits), not a table of a list per launch;
  // both arrive in launch order already and sort in one pass.
  std::vector<uint32_t> markers;
  std::vector<uint32_t> slices;
  // Counted first: doubling, each array would be copied and its pages written twice.
  size_t marker_count = 0, slice_count = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].flow_id != 0) {
      marker_count += tags.is_marker[i] ? 1 : 0;
      slice_count += !tags.is_marker[i] && is_device(i) ? 1 : 0;
    }
  }
  markers.reserve(marker_count);
  slices.reserve(slice_count);
  for (size_t i = 0; i < all.size(); ++i) {
    const bool has_launch_id = all[i].flow_id != 0;
    if (tags.is_marker[i]) {
      if (!has_launch_id)
        ++stats->markers_without_device_work;  // nothing can ever correlate with it
      else
        markers.push_back(static_cast<uint32_t>(i));
    } else if (is_device(i)) {
      if (has_launch_id)
        slices.push_back(static_cast<uint32_t>(i));
      else
        ++stats->orphan_device_slices;
    }
  }
  const auto by_launch = [&launch_of](uint32_t a, uint32_t b) {
    return launch_of(a) != launch_of(b) ? launch_of(a) < launch_of(b) : a < b;
  };
  SortAlmostSorted(&markers, by_launch);
  SortAlmostSorted(&slices, by_launch);

  // Pass 2: a start only where at least one finish follows (the test wants every start to have
  // a finish), and finishes only under a start. The flow id is the launch id the event already
  // holds.
  size_t s = 0;
  for (size_t m = 0; m < markers.size();) {
    const int64_t launch_id = launch_of(markers[m]);
    const size_t marker = markers[m];
    ++stats->launches;
    for (++m; m < markers.size() && launch_of(markers[m]) == launch_id; ++m)
      ++stats->duplicate_markers;
    for (; s < slices.size() && launch_of(slices[s]) < launch_id; ++s)
      ++stats->orphan_device_slices;
    if (s == slices.size() || launch_of(slices[s]) != launch_id) {
      ++stats->markers_without_device_work;
      continue;
    }
    all[marker].flow_role = trace::FlowRole::kStart;
    ++stats->flows_started;
    for (; s < slices.size() && launch_of(slices[s]) == launch_id; ++s) {
      all[slices[s]].flow_role = trace::FlowRole::kFinish;
      ++stats->flows_finished;
    }
  }
  stats->orphan_device_slices += slices.size() - s;
  // The launch ids have served: an event without a flow has no flow id.
  for (trace::Event& event : all) {
    if (event.flow_role == trace::FlowRole::kNone)
      event.flow_id = 0;
  }
}

}  // namespace rblnsim::bridge
