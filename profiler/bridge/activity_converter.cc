#include "profiler/bridge/activity_converter.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profiler/bridge/saturating.h"
#include "profiler/trace/dialect.h"

namespace rblnsim::bridge {

namespace {

using rbln::runtime::Activity;
using rbln::runtime::Launch;

// The launch_id arg, placed in |pool|: one pooled block of a dozen bytes per event rather than a
// heap block of its own, since a 10^6-launch window converts 7M of them. The emitter writes the
// id with std::to_string, which Kineto prints as a bare JSON number; an id past int64 keeps that
// text instead of wrapping negative.
trace::ArgList LaunchIdArgs(uint64_t id, trace::ArgListBuilder* builder, trace::ArgPool* pool) {
  static const trace::ArgKey kLaunchId(trace::kLaunchIdArg);
  builder->Clear();
  if (id <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    builder->AddInt(kLaunchId, static_cast<int64_t>(id));
  } else {
    const std::string text = std::to_string(id);
    builder->Add(kLaunchId, trace::RawJsonView{text});
  }
  return builder->Build(pool);
}

// Launch id → index of its first record, which fixes the flow id (base + index) as in the
// emitter. |usable[i]| says whether record i is that first record of a non-zero id.
std::unordered_map<uint64_t, size_t> IndexLaunches(const std::vector<Launch>& launches,
                                                   uint64_t flow_slots,
                                                   std::vector<bool>* usable,
                                                   BridgeStats* stats) {
  std::unordered_map<uint64_t, size_t> index_of;
  usable->assign(launches.size(), false);
  for (size_t i = 0; i < launches.size(); ++i) {
    const uint64_t id = launches[i].id;
    if (id == 0) {
      ++stats->launch_zero_id;  // 0 means "not part of a launch" on an activity
      continue;
    }
    if (!index_of.emplace(id, i).second) {
      ++stats->duplicate_launch_ids;
      continue;
    }
    (*usable)[i] = true;
    if (i >= flow_slots)
      ++stats->launches_past_flow_block;
  }
  return index_of;
}

bool InWindow(int64_t ts_ns, const ConvertWindow& window) {
  return ts_ns >= window.capture_start_ns && ts_ns <= window.capture_end_ns;
}

}  // namespace

std::optional<trace::Category> CategoryForActivityKind(Activity::Kind kind) {
  switch (kind) {
    case Activity::Kind::kDevice:
      return trace::Category::kKernel;
    case Activity::Kind::kCopy:
      return trace::Category::kGpuMemcpy;
    case Activity::Kind::kHost:
      return trace::Category::kPrivateUse1Runtime;
    case Activity::Kind::kCollective:
      return trace::Category::kPrivateUse1Driver;
  }
  return std::nullopt;
}

BridgeResult ConvertActivities(rbln::runtime::Activities activities,
                               const ConvertWindow& window,
                               uint64_t flow_slots) {
  flow_slots = std::min(flow_slots, trace::kFlowIdBlockSize);  // ids never leave the block
  BridgeResult result;
  BridgeStats& stats = result.stats;
  const std::vector<Launch>& launches = activities.launches;
  stats.slices_received = activities.activities.size();
  stats.launches_received = launches.size();

  std::vector<bool> usable;
  const std::unordered_map<uint64_t, size_t> launch_index =
      IndexLaunches(launches, flow_slots, &usable, &stats);
  const size_t flowed = static_cast<size_t>(std::min<uint64_t>(launches.size(), flow_slots));
  // Per launch inside the flow block: how many events carry its flow finish. A count, not a
  // list per launch: the rare launch whose marker falls outside the window is undone by one
  // pass over the events instead.
  std::vector<uint32_t> finishes(flowed, 0);

  std::set<int64_t> devices;
  std::set<std::pair<int64_t, int64_t>> lanes;
  // Activities come in runs on the same lane: the sets see a lane only when it changes.
  std::optional<std::pair<int64_t, int64_t>> last_lane;
  result.arg_pool = std::make_shared<trace::ArgPool>();
  trace::ArgListBuilder builder;
  ReserveEvents(activities.activities.size() + flowed, window, &result.events);
  for (Activity& activity : activities.activities) {
    const std::optional<trace::Category> category = CategoryForActivityKind(activity.kind);
    if (!category.has_value()) {
      ++stats.dropped_unknown_kind;  // no lane to draw it on
      continue;
    }
    // As for C-ABI slices: only work entirely outside the window goes; a straddler stays whole.
    const std::optional<PlacedSpan> span =
        PlaceInWindow(activity.start_ns, activity.end_ns, window, &stats);
    if (!span)
      continue;

    trace::Event event;
    event.phase = trace::Phase::kComplete;
    event.category = *category;
    event.name = activity.name;
    event.pid = activity.device;
    event.tid = static_cast<int64_t>(activity.kind);
    event.ts_ns = span->ts_ns;
    event.dur_ns = span->dur_ns;
    if (activity.launch == 0) {
      ++stats.activities_without_launch;
    } else {
      event.args = LaunchIdArgs(activity.launch, &builder, result.arg_pool.get());
      auto found = launch_index.find(activity.launch);
      if (found == launch_index.end()) {
        ++stats.activities_unknown_launch;
      } else if (found->second >= flowed) {
        ++stats.activities_past_flow_block;
      } else {
        event.flow_id = trace::kFlowIdBlockBegin + found->second;
        event.flow_role = trace::FlowRole::kFinish;
        ++finishes[found->second];
      }
    }
    if (last_lane != std::pair<int64_t, int64_t>(event.pid, event.tid)) {
      last_lane.emplace(event.pid, event.tid);
      devices.insert(event.pid);
      lanes.insert(*last_lane);
    }
    result.events.push_back(std::move(event));
  }
  stats.slices_kept = result.events.size();

  // One marker per launch that ran something, carrying the flow start; none for a launch that
  // ran nothing, so no arrow dangles. A marker the window cannot hold takes its arrow with it:
  // finishes without their start would break the trace's flow contract.
  std::vector<bool> unmarked(flowed, false);  // launches whose finishes lose their start
  for (size_t i = 0; i < flowed; ++i) {
    if (!usable[i])
      continue;
    if (finishes[i] == 0) {
      ++stats.launches_without_activities;
      continue;
    }
    const Launch& launch = launches[i];
    const int64_t ts_ns = SaturatingAdd(launch.ns, window.offset_ns);
    if (!InWindow(ts_ns, window)) {
      ++stats.markers_out_of_window;
      unmarked[i] = true;
      continue;
    }
    trace::Event marker;
    marker.phase = trace::Phase::kComplete;
    marker.category = trace::Category::kPrivateUse1Runtime;
    marker.name = std::string(trace::kCurrentMarkerName);
    marker.pid = launch.pid;
    marker.tid = launch.tid;
    marker.ts_ns = ts_ns;
    marker.dur_ns = 0;
    marker.args = LaunchIdArgs(launch.id, &builder, result.arg_pool.get());
    marker.flow_id = trace::kFlowIdBlockBegin + i;
    marker.flow_role = trace::FlowRole::kStart;
    result.events.push_back(std::move(marker));
    ++stats.launches;
    ++stats.flows_started;
    stats.flows_finished += finishes[i];
  }
  if (stats.markers_out_of_window > 0) {
    for (trace::Event& event : result.events) {
      if (event.flow_role == trace::FlowRole::kFinish &&
          unmarked[event.flow_id - trace::kFlowIdBlockBegin]) {
        event.flow_id = 0;
        event.flow_role = trace::FlowRole::kNone;
      }
    }
  }

  // Only devices and lanes with a kept activity get rows; the launching host process never does.
  for (int64_t device : devices) {
    result.processes.push_back(
        {device, trace::NpuRowName(device), "", kDeviceSortIndexBase + device});
  }
  for (const auto& [device, lane] : lanes) {
    result.threads.push_back({device, lane, std::string(trace::LaneName(lane)), lane});
  }
  return result;
}

}  // namespace rblnsim::bridge
