#include "profiler/bridge/flows.h"

#include <cassert>
#include <charconv>
#include <string_view>
#include <unordered_map>

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
  // Pass 1: the first marker of each launch, and the device slices of each launch.
  std::unordered_map<int64_t, size_t> marker_of_launch;
  std::unordered_map<int64_t, std::vector<size_t>> device_slices_of_launch;
  for (size_t i = 0; i < tags.size(); ++i) {
    const LaunchTag& tag = tags[i];
    if (tag.is_marker) {
      if (!tag.launch_id.has_value()) {
        ++stats->markers_without_device_work;  // nothing can ever correlate with it
      } else if (!marker_of_launch.emplace(*tag.launch_id, i).second) {
        ++stats->duplicate_markers;
      }
    } else if (tag.is_device) {
      if (tag.launch_id.has_value()) {
        device_slices_of_launch[*tag.launch_id].push_back(i);
      } else {
        ++stats->orphan_device_slices;
      }
    }
  }
  stats->launches += marker_of_launch.size();

  // Pass 2: a start only where at least one finish follows (the test wants every start to have
  // a finish), and finishes only under a start.
  for (const auto& [launch_id, marker] : marker_of_launch) {
    auto it = device_slices_of_launch.find(launch_id);
    if (it == device_slices_of_launch.end()) {
      ++stats->markers_without_device_work;
      continue;
    }
    const uint64_t flow_id = static_cast<uint64_t>(launch_id);
    (*events)[marker].flow_id = flow_id;
    (*events)[marker].flow_role = trace::FlowRole::kStart;
    ++stats->flows_started;
    for (size_t device : it->second) {
      (*events)[device].flow_id = flow_id;
      (*events)[device].flow_role = trace::FlowRole::kFinish;
      ++stats->flows_finished;
    }
  }
  for (const auto& [launch_id, slices] : device_slices_of_launch) {
    if (!marker_of_launch.contains(launch_id))
      stats->orphan_device_slices += slices.size();
  }
}

}  // namespace rblnsim::bridge
