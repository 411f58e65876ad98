#include "profiler/bridge/held_export.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <string_view>
#include <tuple>

#include "base/release_memory.h"

namespace rblnsim::bridge {

namespace {

CopiedString ViewOf(const char* text) {
  return text != nullptr ? CopiedString(std::string_view(text)) : std::nullopt;
}

// The slices handed out between two releases of the walked pages.
constexpr size_t kSlicesPerRelease = size_t{1} << 16;

}  // namespace

void ReleaseConsumedPages(const void* array, size_t released_bytes, size_t consumed_bytes) {
  // Offsets from |array| of the page boundaries around the range, in signed arithmetic: the
  // first boundary may lie before the array.
  const auto page = static_cast<int64_t>(sysconf(_SC_PAGESIZE));
  const auto misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(array) % page);
  auto boundary_at_or_below = [&](size_t offset) {
    return (misalign + static_cast<int64_t>(offset)) / page * page - misalign;
  };
  const int64_t first_whole = misalign == 0 ? 0 : page - misalign;
  const int64_t from = std::max(first_whole, boundary_at_or_below(released_bytes));
  const int64_t to = boundary_at_or_below(consumed_bytes);
  if (to > from) {
    char* bytes = const_cast<char*>(static_cast<const char*>(array));
    madvise(bytes + from, static_cast<size_t>(to - from), MADV_DONTNEED);
  }
}

size_t HeldExport::ShapeHash::operator()(const Shape& s) const {
  uint64_t h = static_cast<uint32_t>(s.device_pid);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<uint32_t>(s.resource_tid);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<uint32_t>(s.kind);
  h = h * 0x9E3779B97F4A7C15ull ^ s.category_run;
  return static_cast<size_t>(h ^ (h >> 29));
}

HeldExport::SeenArray& HeldExport::SlotOf(SeenArrays& seen, const void* source, uint32_t count) {
  constexpr size_t kSlots = std::tuple_size_v<SeenArrays>;
  static_assert(std::has_single_bit(kSlots));
  const auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(source));
  // Fibonacci hashing: the product's top bits depend on every bit of the address.
  const size_t home =
      static_cast<size_t>((address * 0x9E3779B97F4A7C15ull) >> (64 - std::countr_zero(kSlots)));
  SeenArray* free_slot = nullptr;
  for (size_t probe = 0; probe < kSeenProbes; ++probe) {
    SeenArray& slot = seen[(home + probe) % seen.size()];
    if (slot.source == source && slot.count == count)
      return slot;
    if (slot.source == nullptr && free_slot == nullptr)
      free_slot = &slot;
  }
  return free_slot != nullptr ? *free_slot : seen[home];
}

const char* HeldExport::KeepText(const char* text) {
  return text != nullptr ? text_.KeepCString(text).data() : nullptr;
}

template <typename T, typename CopyRun>
uint32_t HeldExport::RunOf(const T* array,
                           uint32_t count,
                           SeenArrays* seen_arrays,
                           std::vector<Run>* runs,
                           CopyRun copy_run) {
  if (ReadableCount(array, count, &rows_.null_arrays) == 0)
    return 0;
  SeenArray& seen = SlotOf(*seen_arrays, array, count);
  if (seen.source == array && seen.count == count)
    return seen.run;
  runs->push_back(copy_run());
  seen = {array, count, static_cast<uint32_t>(runs->size() - 1)};
  return seen.run;
}

uint32_t HeldExport::CategoryRun(const char* const* categories, uint32_t count) {
  return RunOf(categories, count, &seen_categories_, &category_runs_, [&] {
    Run run{static_cast<uint32_t>(categories_.size()), 0};
    for (uint32_t i = 0; i < count; ++i) {
      if (categories[i] != nullptr) {
        categories_.push_back(KeepText(categories[i]));
        ++run.count;
      }
    }
    return run;
  });
}

uint32_t HeldExport::AnnotationRun(const RblnKinetoAnnotation* annotations, uint32_t count) {
  return RunOf(annotations, count, &seen_annotations_, &annotation_runs_, [&] {
    const Run run{static_cast<uint32_t>(annotations_.size()), count};
    for (uint32_t i = 0; i < count; ++i) {
      const RblnKinetoAnnotation& a = annotations[i];
      annotations_.push_back({KeepText(a.name), KeepText(a.value), a.value_is_quoted});
    }
    return run;
  });
}

uint32_t HeldExport::ShapeOf(const Shape& shape) {
  uint32_t& recent = recent_shapes_[ShapeHash()(shape) % kRecentShapes];
  if (recent != UINT32_MAX && shapes_[recent] == shape)
    return recent;
  auto [it, added] = shape_ids_.try_emplace(shape, static_cast<uint32_t>(shapes_.size()));
  if (added)
    shapes_.push_back(shape);
  recent = it->second;
  return it->second;
}

void HeldExport::HoldSlice(const RblnKinetoSlice& in) {
  HeldSlice slice;
  slice.start_steady_ns = in.start_steady_ns;
  slice.end_steady_ns = in.end_steady_ns;
  slice.corr_id = in.corr_id;
  slice.name = KeepText(in.name);
  // The reads happen in CopySlice's order, so null arrays are counted alike.
  const uint32_t category_run = CategoryRun(in.categories, in.categories_count);
  slice.annotation_run = AnnotationRun(in.annotations, in.annotations_count);
  slice.shape = ShapeOf({in.device_pid, in.resource_tid, SliceKind(in), category_run});
  slices_.push_back(slice);
}

HeldExport HeldExport::Hold(const RblnKinetoExport& exp) {
  HeldExport held;
  held.rows_ = CopyExport({exp.devices, exp.devices_count, exp.lanes, exp.lanes_count, nullptr, 0});
  held.category_runs_.push_back({});
  held.annotation_runs_.push_back({});
  const uint32_t slices = ReadableCount(exp.slices, exp.slices_count, &held.rows_.null_arrays);
  held.slices_.reserve(slices);
  for (uint32_t i = 0; i < slices; ++i)
    held.HoldSlice(exp.slices[i]);
  return held;
}

void HeldExport::Drain(
    const std::function<void(const CopiedExport& piece, const CopiedSlice& slice)>& each) {
  CopiedExport piece;
  size_t released_bytes = 0;
  for (size_t i = 0; i < slices_.size(); ++i) {
    const HeldSlice& held = slices_[i];
    const Shape& shape = shapes_[held.shape];
    piece.slices.clear();
    piece.categories.clear();
    piece.annotations.clear();
    // Filled in place: a slice built on the stack and then copied in was read back in 16-byte
    // words its 4- and 8-byte fields had been stored as, a store-forwarding stall per slice.
    CopiedSlice& slice = piece.slices.emplace_back();
    slice.device_pid = shape.device_pid;
    slice.resource_tid = shape.resource_tid;
    slice.kind = shape.kind;
    slice.name = ViewOf(held.name);
    const Run& categories = category_runs_[shape.category_run];
    for (uint32_t c = 0; c < categories.count; ++c)
      piece.categories.emplace_back(categories_[categories.first + c]);
    slice.category_count = categories.count;
    const Run& annotations = annotation_runs_[held.annotation_run];
    for (uint32_t a = 0; a < annotations.count; ++a) {
      const HeldAnnotation& annotation = annotations_[annotations.first + a];
      piece.annotations.push_back(
          {ViewOf(annotation.name), ViewOf(annotation.value), annotation.value_is_quoted});
    }
    slice.annotation_count = annotations.count;
    slice.start_steady_ns = held.start_steady_ns;
    slice.end_steady_ns = held.end_steady_ns;
    slice.corr_id = held.corr_id;
    each(piece, slice);
    if ((i + 1) % kSlicesPerRelease == 0) {
      const size_t consumed_bytes = (i + 1) * sizeof(HeldSlice);
      ReleaseConsumedPages(slices_.data(), released_bytes, consumed_bytes);
      released_bytes = consumed_bytes;
    }
  }
  ReleaseMemory(slices_);
}

}  // namespace rblnsim::bridge
