// One index over a trace, built once and shared by the reports, the checks, the analyses and
// compare: interned names and typed per-event columns (launch id and external id parsed once from
// their args, category, pid/tid, host/device), the host forest (every cpu_op / user_annotation /
// launch marker nested by time enclosure on its thread) and the launch table (markers and device
// slices per launch id, the launching op of each marker, the NPU lanes). "Which op launched this
// marker" is answered here and nowhere else.
//
// Columns, not objects: an event or a host node is a position in parallel vectors of small
// fields, so a trace of millions of events costs a few dozen bytes per event, names compare as
// integers, and a later compact trace model can sit on the same positions. Building is one pass
// over the events plus one nearly linear sort of the host events (base/sorted_runs.h); queries
// never rescan the trace.
#ifndef RBLNSIM_PROFILER_INDEX_TRACE_INDEX_H_
#define RBLNSIM_PROFILER_INDEX_TRACE_INDEX_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/release_memory.h"
#include "base/status.h"
#include "profiler/index/launch_groups.h"
#include "profiler/trace/dialect.h"
#include "profiler/trace/trace.h"

namespace rblnsim::index {

inline constexpr uint32_t kNone = UINT32_MAX;

// Event names, each spelt once; ids are dense from 0 in first-appearance order. A name is held
// as the position of the first event that carries it (four bytes; a view was sixteen), so the
// index must not outlive the trace. Open addressing over ids: device slice names are unique per
// launch, so a trace has hundreds of thousands of names, and a node per name
// (std::unordered_map) cost more than the rest of the index's columns.
class NameTable {
 public:
  // The names of |events|, which must outlive the table and not move.
  explicit NameTable(const std::vector<trace::Event>* events = nullptr) : events_(events) {}

  size_t size() const { return first_event_.size(); }
  std::string_view text(uint32_t id) const { return (*events_)[first_event_[id]].name.view(); }
  // Room for |names| names without regrowing the id arrays.
  void ReserveIds(size_t names) { first_event_.reserve(names); }
  // Slots for |names| names in all, so that interning them does not regrow the table.
  void ReserveSlots(size_t names);
  // kNone when no event has that name. Hashed while the names are interned; a scan of the ids
  // once ReleaseSlots() has run.
  uint32_t Find(std::string_view name) const;
  // Find for each of |names| into |ids| (the same size): one scan of the ids for all of them
  // once the slots are released, where Find would make one per name.
  void FindEach(std::span<const std::string_view> names, std::span<uint32_t> ids) const;
  // The id of the name of event |event|.
  uint32_t Intern(uint32_t event) { return Intern(event, Hash((*events_)[event].name)); }
  // |hash| is Hash(that name). Interning many names, a caller hashes a few names ahead and calls
  // Prefetch for them: with hundreds of thousands of names nearly every probe misses the caches.
  uint32_t Intern(uint32_t event, size_t hash);
  void Prefetch(size_t hash) const {
    if (!slots_.empty())
      __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }
  static size_t Hash(std::string_view name) { return std::hash<std::string_view>()(name); }
  // Frees the probe table once every name is interned. Nothing reads names by text after the
  // build, and with a name per device slice the slots are more than the ids themselves: 128 MiB
  // for the 6M names of a traced 10^6-launch run, resident through key_averages' peak.
  void ReleaseSlots() { ReleaseMemory(slots_); }
  // Bytes held by the probe table, for memory accounting.
  size_t slot_bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  // An id and the high half of its name's hash: a probe compares the tag before it reads the
  // name, which lies in the trace's events, far from the table.
  struct Slot {
    uint32_t id;
    uint32_t tag;
  };
  static uint32_t TagOf(size_t hash) { return static_cast<uint32_t>(uint64_t{hash} >> 32); }
  // The slot |name| (hash |hash|) occupies, or the empty slot it would take.
  size_t SlotOf(std::string_view name, size_t hash) const;
  // At least doubles, and leaves room for one more name than the ids hold (after ReleaseSlots
  // the table starts again from every id).
  void Grow() {
    size_t slots = std::max<size_t>(64, slots_.size() * 2);
    while (slots < (size() + 1) * 2)
      slots *= 2;
    Rehash(slots);
  }
  void Rehash(size_t slots);

  const std::vector<trace::Event>* events_;
  std::vector<uint32_t> first_event_;  // id -> the first event with that name
  std::vector<Slot> slots_;            // power-of-two size; id kNone when empty
};

// Per-event bits of EventColumns::flags.
enum EventFlag : uint16_t {
  kHasLaunchIdArg = 1 << 0,  // a "launch_id" arg is present, integral or not
  kHasLaunchId = 1 << 1,     // ... and it reads as an integer (launch_id column valid)
  kHasExternalId = 1 << 2,   // an integral "External id" arg (external_id column valid)
  kLaunchMarker = 1 << 3,    // a launch marker of either dialect (trace::IsLaunchMarker)
  kDialectMarker = 1 << 4,   // a launch marker of the index's dialect
  kDeviceSlice = 1 << 5,     // device work of a launch as the latency analyses read it
  kOffHost = 1 << 6,         // a launch table device slice: not on a host thread (see below)
  kHostNode = 1 << 7,        // a node of the host forest
  kPrivateUse1 = 1 << 8,     // a complete event torch gives device_type PrivateUse1 (below)
  // Device work the capture window must hold: a complete event that is no launch marker and is
  // a device slice (kDeviceSlice) or sits on an NPU process row, in either dialect.
  kDeviceWork = 1 << 9,
};

// What torch.profiler gives device_type PrivateUse1: kernels, memcpy, memset and GPU user
// annotations, never a runtime marker or a host op.
bool IsPrivateUse1Event(const trace::Event& event);

// Parallel vectors indexed by the event's position in trace.events.
struct EventColumns {
  std::vector<uint32_t> name;  // NameTable id; empty in an index built without names
  std::vector<trace::Category> category;
  std::vector<uint32_t> row;  // index into TraceIndex::rows(): the event's (pid, tid)
  // The launch id with kHasLaunchId, else the External id with kHasExternalId: one column, as
  // few events have both (a launch's device slices and markers carry the one, host ops the
  // other), and most columns of a large trace would be zeros. TraceIndex::LaunchId and
  // ExternalId read them with the flags.
  // Four bytes each (trace::CompactInt): ids of real traces are small; any other value still
  // reads back exactly.
  std::vector<trace::CompactInt> id;
  std::unordered_map<uint32_t, int64_t> external_id_beside_launch_id;  // by event, the rare both
  std::vector<uint16_t> flags;
  std::vector<uint32_t> node;  // the event's host forest node, or kNone

  size_t size() const { return category.size(); }
  bool Has(size_t event, EventFlag flag) const { return (flags[event] & flag) != 0; }
};

enum class HostKind : uint8_t { kOp = 0, kAnnotation = 1, kMarker = 2 };

// The host side as a forest: complete cpu_op and user_annotation spans and launch markers of
// either dialect, nested per (pid, tid) row by time enclosure, in pre-order (rows in (pid, tid)
// order, then by start, outer before inner). python_function spans are left out: they only wrap
// ops and would hide the ATen nesting the detectors read. Markers are leaves, so an op that
// happens to start inside a long sync-mode marker still nests under its real parent. A
// zero-length event exactly at an op's end is that op's sibling, not its child.
struct HostForest {
  std::vector<uint32_t> event;   // index into trace.events
  std::vector<uint32_t> parent;  // node of the innermost enclosing op/annotation, or kNone
  std::vector<uint32_t> end;     // one past the node's last descendant
  std::vector<uint32_t> name;  // NameTable id (a copy of the event column, for locality), or empty
  std::vector<HostKind> kind;
  size_t markers = 0;

  size_t size() const { return event.size(); }
  // The first child of |node|, or end[node] when it has none; NextSibling steps over a subtree.
  uint32_t FirstChild(uint32_t node) const { return node + 1; }
  uint32_t NextSibling(uint32_t node) const { return end[node]; }
  // The innermost cpu_op / user_annotation enclosing |marker| (markers are never parents).
  uint32_t Launcher(uint32_t marker) const { return parent[marker]; }
};

// Launches as the index's dialect writes them (trace/dialect.h): its markers, the device slices,
// both grouped by launch id. A device slice is a complete event that is no marker and carries a
// launch_id, sits on an NPU row, or sits on a row holding no cpu_op / user_annotation /
// python_function (PyTorch drops plugin activities of those types, so such a row is a host
// thread).
struct LaunchTable {
  // Event positions in 4 bytes, as in every column (an index holds fewer than 2^32 events): a
  // 10^6-launch trace has 6M device slices, listed here and again by launch.
  std::vector<uint32_t> markers;        // events, in trace order
  std::vector<uint32_t> device_slices;  // events, in trace order
  // By launch id, ascending, which keeps the reports deterministic.
  LaunchGroups markers_by_launch;
  LaunchGroups slices_by_launch;
  // current: the lane each (NPU pid, tid) is named after; empty for c-abi.
  std::map<std::pair<int64_t, int64_t>, trace::LaneKind> npu_lanes;
};

// Device work of a launch as the latency analyses read it: a complete event that is no host op,
// Python frame or runtime marker, and is a kernel / gpu_memcpy / gpu_memset or carries a
// launch_id. The kDeviceSlice column holds it per event.
bool IsDeviceSlice(const trace::Event& event);

class TraceIndex {
 public:
  // Reads the trace in DetectDialect(trace). Fails for traces of 2^32 events or more, and with
  // kResourceExhausted when memory runs out.
  static StatusOr<TraceIndex> Build(const trace::Trace& trace);
  // Reads it as |dialect|: only that dialect's marker is a launch table marker.
  static StatusOr<TraceIndex> Build(const trace::Trace& trace, trace::Dialect dialect);
  // What a build may leave out. Interning the names is the longest part of a large build (a
  // name per device slice), and the contract checks read none: an index built without them has
  // an empty names() and name columns, and Name() must not be asked.
  struct Parts {
    bool names = true;
  };
  static StatusOr<TraceIndex> Build(const trace::Trace& trace, trace::Dialect dialect, Parts parts);
  // From this many events on, Build interns the names on a second thread.
  static constexpr size_t kEventsForNameThread = size_t{1} << 16;

  const trace::Trace& trace() const { return *trace_; }
  trace::Dialect dialect() const { return dialect_; }
  // trace::DetectDialect(trace()) as of the build, without another pass over the events: the
  // dialect the trace is written in, which dialect() may override.
  trace::Dialect DetectedDialect() const;
  const NameTable& names() const { return names_; }
  const EventColumns& events() const { return events_; }
  // Every (pid, tid) an event sits on, in first-appearance order.
  const std::vector<std::pair<int64_t, int64_t>>& rows() const { return rows_; }
  const HostForest& forest() const { return forest_; }
  const LaunchTable& launches() const { return launches_; }

  const trace::Event& event(size_t i) const { return trace_->events[i]; }
  bool has_names() const { return !events_.name.empty() || events_.size() == 0; }
  std::string_view Name(size_t event) const {
    assert(has_names());
    return names_.text(events_.name[event]);
  }
  // Inline: out of line, GCC returned the optional through the stack with a one-byte store for
  // its flag read back as a word, a store-forwarding stall per call (perf annotate of
  // analyze --check: four fifths of this function's samples), and analyses ask it per event.
  std::optional<int64_t> LaunchId(size_t event) const {
    return events_.Has(event, kHasLaunchId) ? std::optional<int64_t>(events_.id[event])
                                            : std::nullopt;
  }
  std::optional<int64_t> ExternalId(size_t event) const;

  // The marker a launch is measured against: its first one in trace order, if it has any.
  std::optional<size_t> MarkerOf(int64_t launch_id) const;
  // The event of the innermost cpu_op / user_annotation enclosing the launch marker |event| on
  // its own thread (the host forest's parent); nullopt for none or for an event that is no
  // marker.
  std::optional<size_t> LauncherOf(size_t marker_event) const;
  // current: the lane kind of the NPU lane event |event| sits on, if it sits on one.
  std::optional<trace::LaneKind> LaneOf(size_t event) const;

 private:
  TraceIndex(const trace::Trace& trace, trace::Dialect dialect)
      : trace_(&trace), dialect_(dialect), names_(&trace.events) {}
  void FillNames();
  void FillColumns();
  void BuildForest();
  void BuildLaunchTable();

  const trace::Trace* trace_;
  trace::Dialect dialect_;
  bool current_markers_ = false;  // an event is a launch marker of the current dialect
  size_t forest_candidates_ = 0;  // complete cpu_op / user_annotation events and launch markers
  NameTable names_;
  std::vector<std::pair<int64_t, int64_t>> rows_;
  EventColumns events_;
  HostForest forest_;
  LaunchTable launches_;
};

}  // namespace rblnsim::index

#endif  // RBLNSIM_PROFILER_INDEX_TRACE_INDEX_H_
