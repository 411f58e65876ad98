#include "profiler/bridge/export_copy.h"

namespace rblnsim::bridge {

namespace {

CopiedString CopyString(const char* text, TextPool* pool) {
  if (text == nullptr)
    return std::nullopt;
  return pool->KeepCString(text);
}

void CopySlice(const RblnKinetoSlice& in, CopiedExport* out) {
  CopiedSlice slice;
  slice.device_pid = in.device_pid;
  slice.resource_tid = in.resource_tid;
  slice.name = CopyString(in.name, &out->text);
  slice.first_category = static_cast<uint32_t>(out->categories.size());
  const uint32_t categories = ReadableCount(in.categories, in.categories_count, &out->null_arrays);
  for (uint32_t i = 0; i < categories; ++i) {
    if (in.categories[i] != nullptr) {
      out->categories.push_back(out->text.KeepCString(in.categories[i]));
      ++slice.category_count;
    }
  }
  slice.start_steady_ns = in.start_steady_ns;
  slice.end_steady_ns = in.end_steady_ns;
  slice.first_annotation = static_cast<uint32_t>(out->annotations.size());
  const uint32_t annotations =
      ReadableCount(in.annotations, in.annotations_count, &out->null_arrays);
  for (uint32_t i = 0; i < annotations; ++i) {
    const RblnKinetoAnnotation& a = in.annotations[i];
    out->annotations.push_back(
        {CopyString(a.name, &out->text), CopyString(a.value, &out->text), a.value_is_quoted});
    ++slice.annotation_count;
  }
  slice.corr_id = in.corr_id;
  slice.kind = SliceKind(in);
  out->slices.push_back(slice);
}

void CopyRows(const RblnKinetoExport& exp, CopiedExport* out) {
  const uint32_t devices = ReadableCount(exp.devices, exp.devices_count, &out->null_arrays);
  out->devices.reserve(devices);
  for (uint32_t i = 0; i < devices; ++i)
    out->devices.push_back({exp.devices[i].pid, CopyString(exp.devices[i].name, &out->text)});
  const uint32_t lanes = ReadableCount(exp.lanes, exp.lanes_count, &out->null_arrays);
  out->lanes.reserve(lanes);
  for (uint32_t i = 0; i < lanes; ++i) {
    const RblnKinetoLane& lane = exp.lanes[i];
    out->lanes.push_back({lane.device_pid, lane.resource_tid, CopyString(lane.name, &out->text)});
  }
}

}  // namespace

CopiedExport CopyExport(const RblnKinetoExport& exp) {
  CopiedExport out;
  CopyRows(exp, &out);
  const uint32_t slices = ReadableCount(exp.slices, exp.slices_count, &out.null_arrays);
  out.slices.reserve(slices);
  // Most slices carry one annotation (their launch id): a guess that saves regrowing the array.
  out.annotations.reserve(slices);
  for (uint32_t i = 0; i < slices; ++i)
    CopySlice(exp.slices[i], &out);
  return out;
}

void CopiedExport::AddAnnotation(CopiedSlice* slice,
                                 std::optional<std::string_view> name,
                                 std::optional<std::string_view> value,
                                 int32_t value_is_quoted) {
  if (slice->annotation_count == 0)
    slice->first_annotation = static_cast<uint32_t>(annotations.size());
  annotations.push_back({Keep(name), Keep(value), value_is_quoted});
  ++slice->annotation_count;
}

}  // namespace rblnsim::bridge
