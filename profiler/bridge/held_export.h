// The sink's own copy of an export, compact enough to lie beside the producer's while the sink
// runs. The producer's pointers die when the sink returns, and the producer frees its export only
// after that: whatever the sink builds sits beside the whole export. Converting in the sink put
// the converted events (an event and its args, about a hundred bytes a slice) there; holding
// this copy puts about sixty bytes a slice there, and the events are made once the producer's
// export is gone.
//
// What slices share through one pointer (a launch's annotations, a set of categories, a
// repeated name) is copied once per pointer: within one export a pointer names one content.
// Each slice keeps its times, correlation id, name and two small ids.
#ifndef RBLNSIM_PROFILER_BRIDGE_HELD_EXPORT_H_
#define RBLNSIM_PROFILER_BRIDGE_HELD_EXPORT_H_

#include <array>
#include <cstdint>
#include <functional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/bridge/text_pool.h"

namespace rblnsim::bridge {

class HeldExport {
 public:
  // Copies everything reachable from |exp|, with the same reading as CopyExport: a null array
  // with a non-zero count is empty and counted, null categories are skipped.
  static HeldExport Hold(const RblnKinetoExport& exp);

  HeldExport() = default;
  HeldExport(HeldExport&&) noexcept = default;
  HeldExport& operator=(HeldExport&&) noexcept = default;

  // The devices and lanes, no slices.
  const CopiedExport& rows() const { return rows_; }
  size_t slice_count() const { return slices_.size(); }
  // The category sets and annotation arrays copied, the empty one aside: each distinct producer
  // array once, however the slices take turns on them.
  size_t category_runs() const { return category_runs_.size() - 1; }
  size_t annotation_runs() const { return annotation_runs_.size() - 1; }
  uint64_t null_arrays() const { return rows_.null_arrays; }

  // Hands every slice, in export order, to |each| as a piece holding that slice alone (as
  // CopyExport would have copied it); views into the piece die when |each| returns. The slices
  // are consumed: their memory goes back as the walk passes it, and the copy is empty after.
  void Drain(const std::function<void(const CopiedExport& piece, const CopiedSlice& slice)>& each);

 private:
  // nullptr for a null C string; else the pool's NUL-terminated copy.
  struct HeldAnnotation {
    const char* name;
    const char* value;
    int32_t value_is_quoted;
  };
  struct Run {
    uint32_t first = 0;
    uint32_t count = 0;
  };
  // What a slice shares with many others: its row, kind and categories.
  struct Shape {
    int32_t device_pid;
    int32_t resource_tid;
    int32_t kind;
    uint32_t category_run;
    bool operator==(const Shape&) const = default;
  };
  struct ShapeHash {
    size_t operator()(const Shape& s) const;
  };
  struct HeldSlice {
    int64_t start_steady_ns;
    int64_t end_steady_ns;
    int64_t corr_id;
    const char* name;
    uint32_t shape;
    uint32_t annotation_run;
  };
  static_assert(sizeof(HeldSlice) == 40, "the copy's size per slice is the point of it");

  // A recently seen producer array and the run copied from it.
  struct SeenArray {
    const void* source = nullptr;
    uint32_t count = 0;
    uint32_t run = 0;
  };
  using SeenArrays = std::array<SeenArray, 256>;
  // Where |source| is remembered: its slot among the kSeenProbes from its hash, else a free one
  // there, else (all taken) the first, whose array is forgotten. A lone slot per hash (of 64) let
  // two of the dozen category arrays that slices take turns on share it by their addresses'
  // chance, and each then displaced the other on every slice: copied again, with a new shape.
  static constexpr size_t kSeenProbes = 8;
  static SeenArray& SlotOf(SeenArrays& seen, const void* source, uint32_t count);

  const char* KeepText(const char* text);
  // The run copied from |array| (|count| entries), copied by |copy_run| unless the same array was
  // seen lately; 0, the empty run, for an empty or a null array (a null one is counted).
  template <typename T, typename CopyRun>
  uint32_t RunOf(const T* array,
                 uint32_t count,
                 SeenArrays* seen_arrays,
                 std::vector<Run>* runs,
                 CopyRun copy_run);
  uint32_t CategoryRun(const char* const* categories, uint32_t count);
  uint32_t AnnotationRun(const RblnKinetoAnnotation* annotations, uint32_t count);
  uint32_t ShapeOf(const Shape& shape);
  void HoldSlice(const RblnKinetoSlice& slice);

  CopiedExport rows_;
  TextPool text_;
  std::vector<const char*> categories_;
  std::vector<Run> category_runs_;  // run 0 is the empty one
  std::vector<HeldAnnotation> annotations_;
  std::vector<Run> annotation_runs_;  // likewise
  std::vector<Shape> shapes_;
  std::unordered_map<Shape, uint32_t, ShapeHash> shape_ids_;
  // Shapes seen lately, by hash: a launch's slices take turns on a few rows, and the map's
  // bucket index is a division, the larger part of a lookup.
  static constexpr size_t kRecentShapes = 64;
  std::array<uint32_t, kRecentShapes> recent_shapes_ = FilledWithNone();
  static constexpr std::array<uint32_t, kRecentShapes> FilledWithNone() {
    std::array<uint32_t, kRecentShapes> none{};
    none.fill(UINT32_MAX);
    return none;
  }
  SeenArrays seen_categories_{};
  SeenArrays seen_annotations_{};
  std::vector<HeldSlice> slices_;
};

// Gives back the pages of a block that stays allocated, once their contents are consumed: the
// front of a large array walked once, front to back, and not read there again (the held slices
// as they are converted). [0, consumed_bytes) of |array| is consumed; the whole pages in it from
// |released_bytes| on are released (the caller passes the last call's consumed_bytes, so each
// page is released once). Those pages read as zeros afterwards: only elements whose bytes nobody
// reads again may lie there (trivially destructible ones). Best effort: a failed madvise leaves
// the pages resident and changes nothing else.
void ReleaseConsumedPages(const void* array, size_t released_bytes, size_t consumed_bytes);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_HELD_EXPORT_H_
