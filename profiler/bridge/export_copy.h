// An owned deep copy of one RblnKinetoExport. Every pointer the producer hands to the sink dies
// when the sink returns, so nothing is interpreted on the producer's memory: all of it happens
// on these plain values, the whole export's or one slice's at a time.
#ifndef RBLNSIM_PROFILER_BRIDGE_EXPORT_COPY_H_
#define RBLNSIM_PROFILER_BRIDGE_EXPORT_COPY_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/text_pool.h"

namespace rblnsim::bridge {

// A null C string stays distinguishable from "" so the converter can count it. The text lives in
// the CopiedExport's pool.
using CopiedString = std::optional<std::string_view>;

struct CopiedDevice {
  int32_t pid = 0;
  CopiedString name;
};

struct CopiedLane {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  CopiedString name;
};

struct CopiedAnnotation {
  CopiedString name;
  CopiedString value;
  int32_t value_is_quoted = 1;
};

// A slice's categories and annotations are runs of the export's flat arrays, so a slice costs no
// allocation of its own.
struct CopiedSlice {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  CopiedString name;
  uint32_t first_category = 0;  // null entries already skipped, as the adapter does
  uint32_t category_count = 0;
  int64_t start_steady_ns = 0;
  int64_t end_steady_ns = 0;
  uint32_t first_annotation = 0;
  uint32_t annotation_count = 0;
  int64_t corr_id = 0;
  // Kept as the raw integer: a producer may send a value outside RblnKinetoActivityKind, and
  // holding that in the enum type would be undefined behaviour in C++.
  int32_t kind = RBLN_KINETO_KIND_RUNTIME;
};

struct CopiedExport {
  std::vector<CopiedDevice> devices;
  std::vector<CopiedLane> lanes;
  std::vector<CopiedSlice> slices;
  std::vector<std::string_view> categories;   // every slice's run, in slice order
  std::vector<CopiedAnnotation> annotations;  // likewise
  TextPool text;                              // owns every string viewed above
  uint64_t null_arrays = 0;  // arrays that were null with a non-zero count, read as empty

  std::span<const std::string_view> CategoriesOf(const CopiedSlice& slice) const {
    return std::span(categories).subspan(slice.first_category, slice.category_count);
  }
  std::span<const CopiedAnnotation> AnnotationsOf(const CopiedSlice& slice) const {
    return std::span(annotations).subspan(slice.first_annotation, slice.annotation_count);
  }

  // Building by hand (tests, replays): copies |text| into the pool.
  CopiedString Keep(std::optional<std::string_view> text) {
    return text ? CopiedString(this->text.Keep(*text)) : std::nullopt;
  }
  // Appends to |slice|'s run; a slice's entries must be added one after another.
  void AddAnnotation(CopiedSlice* slice,
                     std::optional<std::string_view> name,
                     std::optional<std::string_view> value,
                     int32_t value_is_quoted);
};

static_assert(sizeof(RblnKinetoActivityKind) == sizeof(int32_t),
              "the C enum must stay 4 bytes for the raw read in SliceKind()");

// A slice's kind, read as its bytes instead of its enum value: an out-of-range kind from the
// producer is data to classify, not undefined behaviour (which UBSan's enum check would flag).
inline int32_t SliceKind(const RblnKinetoSlice& slice) {
  int32_t kind = 0;
  std::memcpy(&kind, &slice.kind, sizeof(kind));
  return kind;
}

// How many elements of a producer's |array| may be read: |count|, or 0 (and one more null array
// counted) when a non-empty array is null.
template <typename T>
uint32_t ReadableCount(const T* array, uint32_t count, uint64_t* null_arrays) {
  if (array == nullptr && count > 0) {
    ++*null_arrays;
    return 0;
  }
  return count;
}

// Copies everything reachable from |exp|. Only the producer's documented pointers are followed;
// a null array with a non-zero count is treated as empty and counted rather than dereferenced.
CopiedExport CopyExport(const RblnKinetoExport& exp);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_EXPORT_COPY_H_
