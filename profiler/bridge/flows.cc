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
  // Pass 1: markers and device slices as (launch id, event) pairs. Sorted, each launch's events
  // are one run, in event order: the first marker of a launch leads its run. A capture holds a
  // launch per op, so these are flat arrays, not a table of a list per launch; both arrive in
  // launch order already and sort in one pass.
  std::vector<std::pair<int64_t, size_t>> markers;
  std::vector<std::pair<int64_t, size_t>> slices;
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
        markers.emplace_back(tag.launch_id, i);
    } else if (tag.is_device) {
      if (tag.has_launch_id())
        slices.emplace_back(tag.launch_id, i);
      else
        ++stats->orphan_device_slices;
    }
  }
  SortAlmostSorted(&markers);
  SortAlmostSorted(&slices);

  // Pass 2: a start only where at least one finish follows (the test wants every start to have
  // a finish), and finishes only under a start.
  size_t s = 0;
  for (size_t m = 0; m < markers.size();) {
    const int64_t launch_id = markers[m].first;
    const size_t marker = markers[m].second;
    ++stats->launches;
    for (++m; m < markers.size() && markers[m].first == launch_id; ++m)
      ++stats->duplicate_markers;
    for (; s < slices.size() && slices[s].first < launch_id; ++s)
      ++stats->orphan_device_slices;
    if (s == slices.size() || slices[s].first != launch_id) {
      ++stats->markers_without_device_work;
      continue;
    }
    const uint64_t flow_id = static_cast<uint64_t>(launch_id);
    (*events)[marker].flow_id = flow_id;
    (*events)[marker].flow_role = trace::FlowRole::kStart;
    ++stats->flows_started;
    for (; s < slices.size() && slices[s].first == launch_id; ++s) {
      trace::Event& device = (*events)[slices[s].second];
      device.flow_id = flow_id;
      device.flow_role = trace::FlowRole::kFinish;
      ++stats->flows_finished;
    }
  }
  stats->orphan_device_slices += slices.size() - s;
}

}  // namespace rblnsim::bridge
