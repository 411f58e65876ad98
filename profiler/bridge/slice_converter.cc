#include "profiler/bridge/slice_converter.h"

#include <array>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/prefault_hint.h"
#include "profiler/bridge/flows.h"
#include "profiler/bridge/json_syntax.h"
#include "profiler/bridge/saturating.h"

namespace rblnsim::bridge {

namespace {

std::string OrNull(CopiedString text, uint64_t* null_counter) {
  if (text.has_value())
    return std::string(*text);
  ++*null_counter;
  return kNullText;
}

void JoinCategories(std::span<const std::string_view> categories, std::string* joined) {
  joined->clear();
  for (std::string_view category : categories) {
    if (!joined->empty())
      *joined += ", ";
    *joined += category;
  }
}

// Which of the bridge's own keys |slice| gets (FinishArgs adds them after the annotations).
uint32_t OwnKeysOf(const CopiedSlice& slice, bool launch_device) {
  uint32_t own = slice.category_count != 0 ? kOwnCategories : 0;
  if (launch_device)
    own |= kOwnDeviceStreamCorrelation;
  else if (slice.corr_id != 0)
    own |= kOwnCorrelation;
  return own;
}

// The bridge's own keys after the annotations, then the args as one block in |pool|.
trace::ArgList FinishArgs(const CopiedExport& exp,
                          const CopiedSlice& slice,
                          uint32_t own_keys,
                          SliceArgScratch* scratch,
                          trace::ArgPool* pool) {
  trace::ArgListBuilder& args = scratch->builder;
  // Looked up once for every slice.
  static const trace::ArgKey kCategories(kCategoriesKey);
  static const trace::ArgKey kDevice(kDeviceKey);
  static const trace::ArgKey kStream(kStreamKey);
  static const trace::ArgKey kCorrelation(kCorrelationKey);
  if ((own_keys & kOwnCategories) != 0) {
    JoinCategories(exp.CategoriesOf(slice), &scratch->categories);
    auto known = scratch->shared_categories.find(scratch->categories);
    if (known == scratch->shared_categories.end() &&
        scratch->shared_categories.size() < SliceArgScratch::kMaxSharedCategories) {
      known = scratch->shared_categories
                  .emplace(scratch->categories,
                           trace::InternSharedText(scratch->categories, /*raw=*/false))
                  .first;
    }
    if (known != scratch->shared_categories.end() && known->second)
      args.Add(kCategories, *known->second);
    else
      args.Add(kCategories, std::string_view(scratch->categories));
  }
  if ((own_keys & kOwnDeviceStreamCorrelation) != 0) {
    // HTA finds device events by args.stream > 0 and pairs them by args.correlation.
    args.AddInt(kDevice, slice.device_pid);
    args.AddInt(kStream, slice.resource_tid);
    args.AddInt(kCorrelation, slice.corr_id);
  } else if ((own_keys & kOwnCorrelation) != 0) {
    args.AddInt(kCorrelation, slice.corr_id);  // HTA wants it on the runtime side too
  }
  return args.Build(pool);
}

void ConvertRows(const CopiedExport& exp,
                 BridgeResult* result,
                 std::set<int32_t>* device_pids,
                 std::set<std::pair<int32_t, int32_t>>* lane_keys) {
  BridgeStats& stats = result->stats;
  for (size_t i = 0; i < exp.devices.size(); ++i) {
    const CopiedDevice& device = exp.devices[i];
    if (i > 0 && device.pid < exp.devices[i - 1].pid)
      ++stats.unsorted_devices;
    if (!device_pids->insert(device.pid).second) {
      ++stats.duplicate_rows;
      continue;
    }
    result->processes.push_back({device.pid, OrNull(device.name, &stats.null_strings), "",
                                 kDeviceSortIndexBase + device.pid});
  }
  for (const CopiedLane& lane : exp.lanes) {
    if (!device_pids->contains(lane.device_pid)) {
      ++stats.lanes_unknown_device;
      continue;
    }
    if (!lane_keys->emplace(lane.device_pid, lane.resource_tid).second) {
      ++stats.duplicate_rows;
      continue;
    }
    result->threads.push_back({lane.device_pid, lane.resource_tid,
                               OrNull(lane.name, &stats.null_strings), lane.resource_tid});
  }
}

}  // namespace

trace::Category CategoryForKind(int32_t kind) {
  switch (kind) {
    case RBLN_KINETO_KIND_COMPUTE:
      return trace::Category::kKernel;
    case RBLN_KINETO_KIND_DMA:
      return trace::Category::kGpuMemcpy;
    case RBLN_KINETO_KIND_SYNC:
      return trace::Category::kPrivateUse1Driver;
    default:
      return trace::Category::kPrivateUse1Runtime;
  }
}

void ReserveEvents(size_t converted,
                   const ConvertWindow& window,
                   std::vector<trace::Event>* events) {
  const ScopedPrefaultLimit converted_only(converted * sizeof(trace::Event));
  events->reserve(converted + window.spare_events);
}

std::optional<PlacedSpan> PlaceInWindow(int64_t start_steady_ns,
                                        int64_t end_steady_ns,
                                        const ConvertWindow& window,
                                        BridgeStats* stats) {
  const int64_t start_ns = SaturatingAdd(start_steady_ns, window.offset_ns);
  const int64_t raw_end_ns = SaturatingAdd(end_steady_ns, window.offset_ns);
  const bool negative = raw_end_ns < start_ns;
  const int64_t end_ns = negative ? start_ns : raw_end_ns;
  if (end_ns < window.capture_start_ns || start_ns > window.capture_end_ns) {
    ++stats->dropped_out_of_window;
    return std::nullopt;
  }
  if (negative)
    ++stats->negative_duration;
  return PlacedSpan{start_ns, SaturatingSub(end_ns, start_ns)};
}

ExportConverter::ExportConverter(const ConvertWindow& window) : window_(window) {
  result_.arg_pool = std::make_shared<trace::ArgPool>();
}

void ExportConverter::AddRows(const CopiedExport& rows) {
  ConvertRows(rows, &result_, &device_pids_, &lane_keys_);
}

void ExportConverter::Reserve(size_t slices) {
  ReserveEvents(slices, window_, &result_.events);
  tags_.is_marker.reserve(slices);
}

void ExportConverter::AddSlice(const CopiedExport& exp, const CopiedSlice& slice) {
  BridgeStats& stats = result_.stats;
  ++stats.slices_received;
  // A slice without its rows would be drawn on an unnamed track, or not at all. The launch
  // marker is the exception: it sits on the launching host thread, whose process is the
  // consumer itself and is never declared as a device (the host trace names that row).
  const std::pair<int32_t, int32_t> lane{slice.device_pid, slice.resource_tid};
  KnownLane& known = known_lanes_[KnownLaneSlot(lane)];
  if (!known.set || known.lane != lane) {
    const bool host_marker = slice.kind == RBLN_KINETO_KIND_RUNTIME && slice.name.has_value() &&
                             *slice.name == kLaunchMarkerName &&
                             !device_pids_.contains(slice.device_pid);
    const bool declared = device_pids_.contains(slice.device_pid) && lane_keys_.contains(lane);
    if (!host_marker && !declared) {
      ++stats.dropped_unknown_row;
      return;
    }
    if (declared)
      known = {lane, true};
  }
  const std::optional<PlacedSpan> span =
      PlaceInWindow(slice.start_steady_ns, slice.end_steady_ns, window_, &stats);
  if (!span)
    return;

  trace::Event event;
  event.phase = trace::Phase::kComplete;
  event.category = CategoryForKind(slice.kind);
  if (slice.name.has_value()) {
    event.name = *slice.name;  // no std::string in between: command names outgrow its 15 bytes
  } else {
    event.name = kNullText;
    ++stats.null_names;
  }
  event.pid = slice.device_pid;
  event.tid = slice.resource_tid;
  event.ts_ns = span->ts_ns;
  event.dur_ns = span->dur_ns;

  const uint32_t own_keys = OwnKeysOf(slice, IsLaunchDeviceCategory(event.category));
  const int64_t annotated_launch_id = AddAnnotationArgs(
      exp.AnnotationsOf(slice), own_keys, &arg_scratch_.annotations, &arg_scratch_.builder, &stats);
  tags_.Add(&event, LaunchIdOf(annotated_launch_id, slice),
            slice.kind == RBLN_KINETO_KIND_RUNTIME && event.name == kLaunchMarkerName);
  event.args = FinishArgs(exp, slice, own_keys, &arg_scratch_, result_.arg_pool.get());
  result_.events.push_back(std::move(event));
}

BridgeResult ExportConverter::Finish(uint64_t null_arrays) && {
  BridgeStats& stats = result_.stats;
  stats.null_arrays = null_arrays;
  stats.slices_kept = result_.events.size();
  AssignFlows(tags_, &result_.events, &stats);
  return std::move(result_);
}

BridgeResult ConvertExport(const CopiedExport& exp, const ConvertWindow& window) {
  ExportConverter converter(window);
  converter.AddRows(exp);
  converter.Reserve(exp.slices.size());
  for (const CopiedSlice& slice : exp.slices)
    converter.AddSlice(exp, slice);
  return std::move(converter).Finish(exp.null_arrays);
}

BridgeResult ConvertHeldExport(HeldExport held, const ConvertWindow& window) {
  ExportConverter converter(window);
  converter.AddRows(held.rows());
  converter.Reserve(held.slice_count());
  held.Drain([&](const CopiedExport& piece, const CopiedSlice& slice) {
    converter.AddSlice(piece, slice);
  });
  return std::move(converter).Finish(held.null_arrays());
}

}  // namespace rblnsim::bridge
