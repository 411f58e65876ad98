#include "profiler/bridge/export_copy.h"

#include <cstring>

namespace rblnsim::bridge {

namespace {

static_assert(sizeof(RblnKinetoActivityKind) == sizeof(int32_t),
              "the C enum must stay 4 bytes for the raw read in CopyKind()");

CopiedString CopyString(const char* text) {
  if (text == nullptr)
    return std::nullopt;
  return std::string(text);
}

// Reads the kind's bytes instead of its enum value, so an out-of-range kind from the producer is
// data to classify, not undefined behaviour (which UBSan's enum check would flag).
int32_t CopyKind(const RblnKinetoSlice& slice) {
  int32_t kind = 0;
  std::memcpy(&kind, &slice.kind, sizeof(kind));
  return kind;
}

// Returns how many elements of |array| may be read: |count|, or 0 (and one more null array
// counted) when a non-empty array is null.
template <typename T>
uint32_t ReadableCount(const T* array, uint32_t count, uint64_t* null_arrays) {
  if (array == nullptr && count > 0) {
    ++*null_arrays;
    return 0;
  }
  return count;
}

CopiedSlice CopySlice(const RblnKinetoSlice& in, uint64_t* null_arrays) {
  CopiedSlice out;
  out.device_pid = in.device_pid;
  out.resource_tid = in.resource_tid;
  out.name = CopyString(in.name);
  const uint32_t categories = ReadableCount(in.categories, in.categories_count, null_arrays);
  for (uint32_t i = 0; i < categories; ++i) {
    if (in.categories[i] != nullptr)
      out.categories.emplace_back(in.categories[i]);
  }
  out.start_steady_ns = in.start_steady_ns;
  out.end_steady_ns = in.end_steady_ns;
  const uint32_t annotations = ReadableCount(in.annotations, in.annotations_count, null_arrays);
  out.annotations.reserve(annotations);
  for (uint32_t i = 0; i < annotations; ++i) {
    const RblnKinetoAnnotation& a = in.annotations[i];
    out.annotations.push_back({CopyString(a.name), CopyString(a.value), a.value_is_quoted});
  }
  out.corr_id = in.corr_id;
  out.kind = CopyKind(in);
  return out;
}

}  // namespace

CopiedExport CopyExport(const RblnKinetoExport& exp) {
  CopiedExport out;
  const uint32_t devices = ReadableCount(exp.devices, exp.devices_count, &out.null_arrays);
  out.devices.reserve(devices);
  for (uint32_t i = 0; i < devices; ++i) {
    out.devices.push_back({exp.devices[i].pid, CopyString(exp.devices[i].name)});
  }
  const uint32_t lanes = ReadableCount(exp.lanes, exp.lanes_count, &out.null_arrays);
  out.lanes.reserve(lanes);
  for (uint32_t i = 0; i < lanes; ++i) {
    const RblnKinetoLane& lane = exp.lanes[i];
    out.lanes.push_back({lane.device_pid, lane.resource_tid, CopyString(lane.name)});
  }
  const uint32_t slices = ReadableCount(exp.slices, exp.slices_count, &out.null_arrays);
  out.slices.reserve(slices);
  for (uint32_t i = 0; i < slices; ++i)
    out.slices.push_back(CopySlice(exp.slices[i], &out.null_arrays));
  return out;
}

}  // namespace rblnsim::bridge
