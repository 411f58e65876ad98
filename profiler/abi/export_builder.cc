#include "profiler/abi/export_builder.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "base/sorted_runs.h"
#include "profiler/abi/clock_fit.h"

namespace rblnsim::abi {

namespace {
constexpr const char* kMarkerName = platform::kCAbiLaunchMarker.data();  // a literal
constexpr const char* kLaunchIdKey = platform::kLaunchIdArg.data();      // a literal
}  // namespace

ExportBuilder::ExportBuilder(ProducerCapture capture, double nominal_ghz)
    : slice_names_(std::move(capture.names)), category_sets_(std::move(capture.category_sets)) {
  for (const ProducerDevice& d : capture.devices)
    device_names_.push_back(d.name);
  for (const ProducerLane& l : capture.lanes)
    lane_names_.push_back(l.name);

  // Devices go out sorted by pid, as the ABI promises.
  std::vector<size_t> order(capture.devices.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return capture.devices[a].pid < capture.devices[b].pid;
  });
  for (size_t i : order)
    devices_.push_back({capture.devices[i].pid, device_names_[i].c_str()});
  for (size_t i = 0; i < capture.lanes.size(); ++i) {
    lanes_.push_back(
        {capture.lanes[i].device_pid, capture.lanes[i].resource_tid, lane_names_[i].c_str()});
  }
  for (const auto& set : category_sets_) {
    std::vector<const char*> ptrs;
    for (const std::string& c : set)
      ptrs.push_back(c.c_str());
    category_ptrs_.push_back(std::move(ptrs));
  }

  const ClockFit fit(capture.sync_points, nominal_ghz);
  const size_t total = capture.markers.size() + capture.slices.size();
  launch_texts_.reserve(total);
  annotations_.reserve(total);
  slices_.reserve(total);
  for (const MarkerRecord& m : capture.markers)
    launch_texts_.push_back(std::to_string(m.launch_id));
  for (const DeviceSliceRecord& s : capture.slices)
    launch_texts_.push_back(std::to_string(s.launch_id));
  for (const std::string& text : launch_texts_) {
    annotations_.push_back({kLaunchIdKey, text.c_str(), 0});
  }

  size_t a = 0;
  for (const MarkerRecord& m : capture.markers) {
    RblnKinetoSlice slice{};
    slice.device_pid = m.pid;
    slice.resource_tid = m.tid;
    slice.name = kMarkerName;
    slice.start_steady_ns = m.start_steady_ns;
    slice.end_steady_ns = m.end_steady_ns;
    slice.annotations = &annotations_[a++];
    slice.annotations_count = 1;
    slice.corr_id = m.launch_id;
    slice.kind = RBLN_KINETO_KIND_RUNTIME;
    slices_.push_back(slice);
  }
  for (const DeviceSliceRecord& s : capture.slices) {
    RblnKinetoSlice slice{};
    slice.device_pid = s.device_pid;
    slice.resource_tid = s.resource_tid;
    slice.name = slice_names_[s.name_id].c_str();
    if (s.category_id < category_ptrs_.size()) {
      slice.categories = category_ptrs_[s.category_id].data();
      slice.categories_count = static_cast<uint32_t>(category_ptrs_[s.category_id].size());
    }
    slice.start_steady_ns = fit.ToSteadyNs(s.start_cycles);
    slice.end_steady_ns = fit.ToSteadyNs(s.end_cycles);
    slice.annotations = &annotations_[a++];
    slice.annotations_count = 1;
    slice.corr_id = s.launch_id;
    slice.kind = static_cast<RblnKinetoActivityKind>(s.kind);
    slices_.push_back(slice);
  }
  // One timeline in start order; markers precede their device work at equal timestamps. Sorting
  // (start, position) keys and gathering once is stable and moves 16-byte keys instead of whole
  // slices through a merge sort.
  std::vector<std::pair<int64_t, uint32_t>> by_start(slices_.size());
  for (size_t i = 0; i < slices_.size(); ++i)
    by_start[i] = {slices_[i].start_steady_ns, static_cast<uint32_t>(i)};
  // Markers come first in launch order, then the device records: usually two sorted runs.
  if (!std::is_sorted(by_start.begin(), by_start.end())) {
    SortAlmostSorted(&by_start);
    std::vector<RblnKinetoSlice> sorted;
    sorted.reserve(slices_.size());
    for (const auto& [start_ns, i] : by_start)
      sorted.push_back(slices_[i]);
    slices_.swap(sorted);
  }

  view_.devices = devices_.data();
  view_.devices_count = static_cast<uint32_t>(devices_.size());
  view_.lanes = lanes_.data();
  view_.lanes_count = static_cast<uint32_t>(lanes_.size());
  view_.slices = slices_.data();
  view_.slices_count = static_cast<uint32_t>(slices_.size());
}

}  // namespace rblnsim::abi
