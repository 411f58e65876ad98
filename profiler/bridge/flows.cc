#include "profiler/bridge/flows.h"

#include <cassert>
#include <charconv>
#include <string_view>
#include <utility>

#include "base/sorted_runs.h"

namespace rblnsim::bridge {

namespace {

std::optional<int64_t> ParseInteger(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty())
    return std::nullopt;
  return value;
}

std::optional<int64_t> Positive(std::optional<int64_t> id) {
  return id.has_value() && *id > 0 ? id : std::nullopt;
}

}  // namespace

std::optional<int64_t> LaunchIdOf(const CopiedExport& exp, const CopiedSlice& slice) {
  for (const CopiedAnnotation& annotation : exp.AnnotationsOf(slice)) {
    if (annotation.name != platform::kLaunchIdArg)
      continue;
    // Only the first "launch_id" counts, the same one the args keep; if it is not a positive
    // integer the slice falls back to its corr_id like a slice without one.
    if (annotation.value.has_value()) {
      if (std::optional<int64_t> id = Positive(ParseInteger(*annotation.value)))
        return id;
    }
    break;
  }
  return Positive(slice.corr_id);
}

void AssignFlows(const std::vector<LaunchTag>& tags,
                 std::vector<trace::Event>* events,
                 BridgeStats* stats) {
  assert(tags.size() == events->size());
  assert(tags.size() <= UINT32_MAX);
  // Pass 1: the markers and device slices with a launch id, as event positions sorted by
  // (launch id, position): each launch's events are one run, in event order, and the first
  // marker of a launch leads its run. A capture holds a launch per op, so these are flat arrays
  // of 4-byte positions (the ABI counts slices in 32 bits), not a table of a list per launch;
  // both arrive in launch order already and sort in one pass.
  std::vector<uint32_t> markers;
  std::vector<uint32_t> slices;
  // Counted first: doubling, each array would be copied and its pages written twice.
  size_t marker_count = 0, slice_count = 0;
  for (const LaunchTag& tag : tags) {
    if (tag.has_launch_id()) {
      marker_count += tag.is_marker ? 1 : 0;
      slice_count += !tag.is_marker && tag.is_device ? 1 : 0;
    }
  }
  markers.reserve(marker_count);
  slices.reserve(slice_count);
  for (size_t i = 0; i < tags.size(); ++i) {
    const LaunchTag& tag = tags[i];
    if (tag.is_marker) {
      if (!tag.has_launch_id())
        ++stats->markers_without_device_work;  // nothing can ever correlate with it
      else
        markers.push_back(static_cast<uint32_t>(i));
    } else if (tag.is_device) {
      if (tag.has_launch_id())
        slices.push_back(static_cast<uint32_t>(i));
      else
        ++stats->orphan_device_slices;
    }
  }
  const auto by_launch = [&tags](uint32_t a, uint32_t b) {
    return tags[a].launch_id != tags[b].launch_id ? tags[a].launch_id < tags[b].launch_id : a < b;
  };
  SortAlmostSorted(&markers, by_launch);
  SortAlmostSorted(&slices, by_launch);
  auto launch_of = [&tags](uint32_t position) { return tags[position].launch_id; };

  // Pass 2: a start only where at least one finish follows (the test wants every start to have
  // a finish), and finishes only under a start.
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
    const uint64_t flow_id = static_cast<uint64_t>(launch_id);
    (*events)[marker].flow_id = flow_id;
    (*events)[marker].flow_role = trace::FlowRole::kStart;
    ++stats->flows_started;
    for (; s < slices.size() && launch_of(slices[s]) == launch_id; ++s) {
      trace::Event& device = (*events)[slices[s]];
      device.flow_id = flow_id;
      device.flow_role = trace::FlowRole::kFinish;
      ++stats->flows_finished;
    }
  }
  stats->orphan_device_slices += slices.size() - s;
}

}  // namespace rblnsim::bridge
