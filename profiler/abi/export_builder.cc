#include "profiler/abi/export_builder.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <utility>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "base/sorted_runs.h"
#include "profiler/abi/clock_fit.h"

namespace rblnsim::abi {

namespace {
// A slice's place in the export's start order, and its launch_id annotation.
struct Position {
  int64_t start_ns;
  uint32_t index;
  uint32_t annotation;
  // The (start, position) order; a position has one annotation.
  bool operator<(const Position& other) const {
    return start_ns != other.start_ns ? start_ns < other.start_ns : index < other.index;
  }
};
static_assert(sizeof(Position) == 16, "the sort keys of millions of slices");

// The characters std::to_chars writes for |value|.
size_t DecimalWidth(int64_t value) {
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  size_t width = value < 0 ? 2 : 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++width;
  }
  return width;
}

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
  const size_t markers = capture.markers.size();
  const size_t total = markers + capture.slices.size();
  // Position i is marker i, then device record i - markers; annotation i belongs to position i.
  auto launch_id_at = [&](size_t i) {
    return i < markers ? capture.markers[i].launch_id : capture.slices[i - markers].launch_id;
  };
  // One timeline in start order; markers precede their device work at equal timestamps. The
  // (start, position) keys are sorted, so the order is stable, and each slice is then written
  // once, at its place. Each key also carries its position's annotation: each run of positions
  // with one launch id (a marker; a launch's device records, which come together) shares one
  // launch_id annotation, as the ABI hands out pointers and a launch's slices may point at the
  // same one. Every id's text lies in one buffer, NUL-terminated.
  auto run_starts_at = [&](size_t i) {
    return i == 0 || i == markers || launch_id_at(i) != launch_id_at(i - 1);
  };
  // The runs and their text are counted first, so that every array below is allocated once at
  // its size: grown by doubling, each step's copy wrote fresh pages on this thread, and first
  // writes are what building an export costs most (perf: an eighth of this thread's time in an
  // end-to-end window went to zeroing pages for the launch texts and their offsets).
  size_t runs = 0;
  size_t text_bytes = 0;
  for (size_t i = 0; i < total; ++i) {
    if (!run_starts_at(i))
      continue;
    ++runs;
    text_bytes += DecimalWidth(launch_id_at(i)) + 1;
  }
  launch_text_.reserve(text_bytes);
  annotations_.reserve(runs);
  // Not value-initialised: the keys are written in order below, and a zero-filled array would
  // have been written twice.
  std::vector<Position> by_start;
  by_start.reserve(total);
  for (size_t i = 0; i < total; ++i) {
    if (run_starts_at(i)) {
      char digits[24];
      const auto [end_ptr, ec] = std::to_chars(digits, digits + sizeof(digits), launch_id_at(i));
      // The buffer never grows past its reserve, so the pointer stays good.
      annotations_.push_back({kLaunchIdKey, launch_text_.data() + launch_text_.size(), 0});
      launch_text_.insert(launch_text_.end(), digits, end_ptr);
      launch_text_.push_back('\0');
    }
    const int64_t start_ns = i < markers ? capture.markers[i].start_steady_ns
                                         : fit.ToSteadyNs(capture.slices[i - markers].start_cycles);
    by_start.push_back(
        {start_ns, static_cast<uint32_t>(i), static_cast<uint32_t>(annotations_.size() - 1)});
  }
  // Markers come first in launch order, then the device records: usually two sorted runs.
  SortAlmostSorted(&by_start);
  slices_.reserve(total);
  for (const auto& [start_ns, i, annotation] : by_start) {
    RblnKinetoSlice slice{};
    slice.annotations = &annotations_[annotation];
    slice.annotations_count = 1;
    slice.start_steady_ns = start_ns;
    if (i < markers) {
      const MarkerRecord& m = capture.markers[i];
      slice.device_pid = m.pid;
      slice.resource_tid = m.tid;
      slice.name = kMarkerName;
      slice.end_steady_ns = m.end_steady_ns;
      slice.corr_id = m.launch_id;
      slice.kind = RBLN_KINETO_KIND_RUNTIME;
    } else {
      const DeviceSliceRecord& d = capture.slices[i - markers];
      slice.device_pid = d.device_pid;
      slice.resource_tid = d.resource_tid;
      slice.name = slice_names_.c_str(d.name_id);
      if (d.category_id < category_ptrs_.size()) {
        slice.categories = category_ptrs_[d.category_id].data();
        slice.categories_count = static_cast<uint32_t>(category_ptrs_[d.category_id].size());
      }
      slice.end_steady_ns = fit.ToSteadyNs(d.end_cycles);
      slice.corr_id = d.launch_id;
      slice.kind = static_cast<RblnKinetoActivityKind>(d.kind);
    }
    slices_.push_back(slice);
  }

  // The slices hold their names' C strings: the list's index of where each begins goes.
  slice_names_.ReleaseIndex();
  view_.devices = devices_.data();
  view_.devices_count = static_cast<uint32_t>(devices_.size());
  view_.lanes = lanes_.data();
  view_.lanes_count = static_cast<uint32_t>(lanes_.size());
  view_.slices = slices_.data();
  view_.slices_count = static_cast<uint32_t>(slices_.size());
}

}  // namespace rblnsim::abi
