// Turns a copied export into trace rows and events the way torch-rbln's adapter and emitter do
// (kind → category, steady → system clock, annotations and categories as args, device/lane rows),
// with every deviation from a well-formed export counted instead of silently dropped.
#ifndef RBLNSIM_PROFILER_BRIDGE_SLICE_CONVERTER_H_
#define RBLNSIM_PROFILER_BRIDGE_SLICE_CONVERTER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profiler/bridge/annotation_args.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/bridge/flows.h"
#include "profiler/bridge/held_export.h"
#include "profiler/trace/shared_text.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bridge {

// Kineto writes device rows with sort index kExceedMaxPid + pid so they sort after host pids.
inline constexpr int64_t kDeviceSortIndexBase = 5'000'000;

struct ConvertWindow {
  int64_t offset_ns = 0;         // system − steady, added to every slice time
  int64_t capture_start_ns = 0;  // system-clock ns, inclusive
  int64_t capture_end_ns = 0;    // system-clock ns, inclusive
  // Room the result's events keep beyond the converted ones (capacity), for a caller that adds
  // its own events to the same array: the CLI puts its host events in front of the device
  // events without a second array of the whole trace beside the first.
  size_t spare_events = 0;
};

// Sizes |events| for |converted| events and the window's spare room. The spare room is written
// only when the caller adds its own events, after the conversion's peak, so it is not faulted
// in ahead (base/prefault_hint.h).
void ReserveEvents(size_t converted,
                   const ConvertWindow& window,
                   std::vector<trace::Event>* events);

// A producer interval (steady ns) on the trace's clock, held against the capture window. Only
// work entirely outside the window is dropped (counted in dropped_out_of_window): a straddler is
// real work of the session and stays whole. An end before the start is kept with duration 0 and
// counted in negative_duration. Times saturate instead of overflowing.
struct PlacedSpan {
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
};
std::optional<PlacedSpan> PlaceInWindow(int64_t start_steady_ns,
                                        int64_t end_steady_ns,
                                        const ConvertWindow& window,
                                        BridgeStats* stats);

// COMPUTE → kernel, DMA → gpu_memcpy, SYNC → privateuse1_driver, RUNTIME or unknown →
// privateuse1_runtime (the adapter's mapping).
trace::Category CategoryForKind(int32_t kind);

// Converts |exp| into rows, events (export order, flows assigned) and counters; its strings move
// into the events, so a caller done with the copy passes it as a temporary. Counters that
// belong to the sink protocol and the producer are left for the caller to fill.
BridgeResult ConvertExport(const CopiedExport& exp, const ConvertWindow& window);

// The same result from the sink's compact copy (held_export.h), consumed as it is converted.
BridgeResult ConvertHeldExport(HeldExport held, const ConvertWindow& window);

// Reused from slice to slice, so that a slice's args cost one allocation: their ArgList.
struct SliceArgScratch {
  trace::ArgListBuilder builder;
  AnnotationMemo annotations;  // the last slice's annotations as args
  std::string categories;
  // A capture's slices share a few "categories" texts (an engine and its chiplet): each is
  // interned once (trace/shared_text.h) and every slice's args hold its id. nullopt: the table
  // would not take it. At most kMaxSharedCategories texts are remembered; others go inline.
  std::unordered_map<std::string, std::optional<trace::SharedText>> shared_categories;
  static constexpr size_t kMaxSharedCategories = 1024;
};

// What both run: the rows first, then the slices in export order, then Finish.
class ExportConverter {
 public:
  explicit ExportConverter(const ConvertWindow& window);
  ExportConverter(const ExportConverter&) = delete;
  ExportConverter& operator=(const ExportConverter&) = delete;

  void AddRows(const CopiedExport& rows);
  // Sizes the arrays for |slices| slices.
  void Reserve(size_t slices);
  // |slice| and the strings it views are read during the call only.
  void AddSlice(const CopiedExport& exp, const CopiedSlice& slice);
  // Assigns the flows; |null_arrays| is the copy's count.
  BridgeResult Finish(uint64_t null_arrays) &&;

 private:
  ConvertWindow window_;
  BridgeResult result_;
  std::set<int32_t> device_pids_;
  std::set<std::pair<int32_t, int32_t>> lane_keys_;
  // Declared lanes seen lately, one per slot of a small table: a launch's slices take turns on
  // a few lanes (DMA, compute, DMA again), so the lane of a slice is nearly always here and the
  // two set lookups are spared. Rows are only ever added, so a lane once declared stays so.
  struct KnownLane {
    std::pair<int32_t, int32_t> lane{0, 0};
    bool set = false;
  };
  static constexpr size_t kKnownLaneSlots = 16;
  static size_t KnownLaneSlot(const std::pair<int32_t, int32_t>& lane) {
    const uint32_t mixed =
        (static_cast<uint32_t>(lane.second) * 0x9E3779B1u) ^ static_cast<uint32_t>(lane.first);
    return (mixed * 0x85EBCA6Bu) >> 28;  // the top four bits: one of kKnownLaneSlots
  }
  std::array<KnownLane, kKnownLaneSlots> known_lanes_{};
  LaunchTags tags_;
  SliceArgScratch arg_scratch_;
};

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_SLICE_CONVERTER_H_
