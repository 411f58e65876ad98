// The event columns, the launch table and the queries of TraceIndex; the host forest is built in
// host_forest.cc.
#include "profiler/index/trace_index.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <functional>
#include <new>
#include <string>
#include <unordered_set>

#include "base/concurrent_task.h"

namespace rblnsim::index {

namespace {

using trace::Category;
using trace::Event;

constexpr std::string_view kExternalIdArg = platform::kExternalIdArg;

// PyTorch drops plugin activities of these types (reference §1.8), so a row holding one is a
// host thread, never a device lane.
bool IsHostCategory(Category c) {
  return c == Category::kCpuOp || c == Category::kUserAnnotation || c == Category::kPythonFunction;
}

bool IsDeviceSliceOf(const Event& e, bool has_launch_id_arg) {
  if (e.phase != trace::Phase::kComplete)
    return false;
  switch (e.category) {
    case Category::kCpuOp:
    case Category::kUserAnnotation:
    case Category::kPythonFunction:
    case Category::kPrivateUse1Runtime:
      return false;
    default:
      return trace::IsDeviceCategory(e.category) || has_launch_id_arg;
  }
}

// About how many distinct names |events| hold, from blocks of events spread over the trace:
// host op names repeat through a trace, device slice names are new with each launch, and a
// trace may hold either kind first. Within a block a name counts once; a name that recurs in
// every block (an op's) adds one per block, which is small against a trace's size. 0 for a
// trace too small to sample.
size_t EstimateNames(const std::vector<Event>& events) {
  constexpr size_t kBlocks = 16;
  constexpr size_t kBlockEvents = 4096;
  if (events.size() < 4 * kBlocks * kBlockEvents)
    return 0;
  std::vector<size_t> seen(2 * kBlockEvents);  // hashes, open addressing; 0 is empty
  const size_t mask = seen.size() - 1;
  size_t distinct = 0;
  for (size_t block = 0; block < kBlocks; ++block) {
    std::fill(seen.begin(), seen.end(), 0);
    const size_t begin = block * (events.size() - kBlockEvents) / (kBlocks - 1);
    for (size_t i = begin; i < begin + kBlockEvents; ++i) {
      const size_t hash = index::NameTable::Hash(events[i].name) | 1;
      size_t slot = hash & mask;
      while (seen[slot] != 0 && seen[slot] != hash)
        slot = (slot + 1) & mask;
      if (seen[slot] == 0) {
        seen[slot] = hash;
        ++distinct;
      }
    }
  }
  // With a tenth to spare: an estimate short of the count regrows the slots once more.
  return static_cast<size_t>(1.1 * static_cast<double>(distinct) *
                             static_cast<double>(events.size()) / (kBlocks * kBlockEvents));
}

struct RowHash {
  size_t operator()(const std::pair<int64_t, int64_t>& k) const {
    return std::hash<int64_t>()(k.first) * 31 + std::hash<int64_t>()(k.second);
  }
};

}  // namespace

bool IsPrivateUse1Event(const Event& event) {
  return trace::IsDeviceCategory(event.category) || event.category == Category::kGpuUserAnnotation;
}

bool IsDeviceSlice(const Event& event) {
  return IsDeviceSliceOf(event, event.FindArg(trace::kLaunchIdArg).has_value());
}

size_t NameTable::SlotOf(std::string_view name, size_t hash) const {
  const size_t mask = slots_.size() - 1;
  const uint32_t tag = TagOf(hash);
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (s.id == kNone || (s.tag == tag && text(s.id) == name))
      return slot;
  }
}

uint32_t NameTable::Find(std::string_view name) const {
  if (slots_.empty()) {
    for (uint32_t id = 0; id < size(); ++id) {
      if (text(id) == name)
        return id;
    }
    return kNone;
  }
  return slots_[SlotOf(name, Hash(name))].id;
}

void NameTable::FindEach(std::span<const std::string_view> names, std::span<uint32_t> ids) const {
  assert(names.size() == ids.size());
  if (!slots_.empty()) {
    for (size_t i = 0; i < names.size(); ++i)
      ids[i] = Find(names[i]);
    return;
  }
  std::fill(ids.begin(), ids.end(), kNone);
  // Most names of a trace have none of the wanted lengths: one bit test passes over them.
  uint64_t lengths = 0;
  for (std::string_view name : names)
    lengths |= name.size() < 64 ? uint64_t{1} << name.size() : 0;
  const bool any_long = std::any_of(names.begin(), names.end(),
                                    [](std::string_view name) { return name.size() >= 64; });
  size_t left = names.size();
  for (uint32_t id = 0; id < size() && left > 0; ++id) {
    const std::string_view text_of_id = text(id);
    if (text_of_id.size() < 64 ? ((lengths >> text_of_id.size()) & 1) == 0 : !any_long)
      continue;
    for (size_t i = 0; i < names.size(); ++i) {
      if (ids[i] == kNone && text_of_id == names[i]) {
        ids[i] = id;  // ids are unique per name: the first match is the only one
        --left;
      }
    }
  }
}

uint32_t NameTable::Intern(uint32_t event, size_t hash) {
  // At most half full, so a probe ends at an empty slot after a few steps.
  if ((size() + 1) * 2 > slots_.size())
    Grow();
  Slot& slot = slots_[SlotOf((*events_)[event].name, hash)];
  if (slot.id == kNone) {
    slot = {static_cast<uint32_t>(size()), TagOf(hash)};
    first_event_.push_back(event);
  }
  return slot.id;
}

void NameTable::ReserveSlots(size_t names) {
  size_t slots = 64;
  while (slots < names * 2)
    slots *= 2;
  if (slots > slots_.size())
    Rehash(slots);
}

void NameTable::Rehash(size_t slots) {
  slots_.assign(slots, Slot{kNone, 0});
  const size_t mask = slots_.size() - 1;
  // The hashes are computed again rather than kept: eight bytes per name (a trace can have a
  // name per device slice) for a pass that a table sized from the estimate seldom makes.
  for (uint32_t id = 0; id < size(); ++id) {
    const size_t hash = Hash(text(id));
    size_t slot = hash & mask;
    while (slots_[slot].id != kNone)
      slot = (slot + 1) & mask;
    slots_[slot] = {id, TagOf(hash)};
  }
}

StatusOr<TraceIndex> TraceIndex::Build(const trace::Trace& trace) {
  return Build(trace, trace::DetectDialect(trace));
}

StatusOr<TraceIndex> TraceIndex::Build(const trace::Trace& trace, trace::Dialect dialect) {
  return Build(trace, dialect, Parts{});
}

StatusOr<TraceIndex> TraceIndex::Build(const trace::Trace& trace,
                                       trace::Dialect dialect,
                                       Parts parts) {
  if (trace.events.size() >= kNone) {
    return Status::Error("trace has " + std::to_string(trace.events.size()) +
                         " events; the trace index holds at most 2^32-1");
  }
  try {
    TraceIndex index(trace, dialect);
    if (parts.names)
      index.events_.name.resize(trace.events.size());
    {
      // Interning the names is the largest single cost of a build, and nothing else before the
      // forest reads them: on a large trace a second thread interns while this one fills the
      // other columns and the launch table.
      ConcurrentTask names;
      if (parts.names) {
        names.StartIf(trace.events.size() >= kEventsForNameThread, [&index] { index.FillNames(); });
      }
      index.FillColumns();
      index.BuildLaunchTable();
      names.Wait();
    }
    index.names_.ReleaseSlots();
    index.BuildForest();
    return index;
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted("out of memory while indexing the trace (" +
                                     std::to_string(trace.events.size()) + " events)");
  }
}

void TraceIndex::FillNames() {
  const std::vector<Event>& events = trace_->events;
  const size_t n = events.size();
  // Grown by doubling, the ids and the slots would be written, copied (rehashed) and freed once
  // per smaller size on the way to the last: a large trace's are sized from a sample first (0 for
  // a trace too small to sample). The ids are not reserved for one name per event: a process
  // that faults its large blocks in ahead (`rblnsim run`) makes reserved room resident, a
  // third more than the 6M names of a 10^6-launch run need.
  const size_t estimate = EstimateNames(events);
  names_.ReserveIds(estimate != 0 ? std::min(n, estimate) : n);
  names_.ReserveSlots(estimate);
  // Each name's slot is asked for this many names before it is probed.
  constexpr size_t kAhead = 8;
  size_t ahead[kAhead];
  for (size_t i = 0; i < std::min(n, kAhead); ++i) {
    ahead[i] = NameTable::Hash(events[i].name);
    names_.Prefetch(ahead[i]);
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t hash = ahead[i % kAhead];
    if (i + kAhead < n) {
      ahead[i % kAhead] = NameTable::Hash(events[i + kAhead].name);
      names_.Prefetch(ahead[i % kAhead]);
    }
    events_.name[i] = names_.Intern(static_cast<uint32_t>(i), hash);
  }
}

void TraceIndex::FillColumns() {
  const std::vector<Event>& events = trace_->events;
  const size_t n = events.size();
  events_.category.resize(n);
  events_.row.resize(n);
  events_.id.assign(n, 0);
  events_.flags.assign(n, 0);
  const std::string_view dialect_marker = trace::LaunchMarkerName(dialect_);
  std::unordered_map<std::pair<int64_t, int64_t>, uint32_t, RowHash> row_ids;
  int64_t last_pid = 0;
  int64_t last_tid = 0;
  uint32_t last_row = 0;
  // Looked up once: each event's args are then searched by key id.
  const trace::ArgKey launch_id_key = trace::ArgKey::Existing(trace::kLaunchIdArg);
  const trace::ArgKey external_id_key = trace::ArgKey::Existing(kExternalIdArg);
  for (size_t i = 0; i < n; ++i) {
    const Event& e = events[i];
    events_.category[i] = e.category;
    // Events come in runs on one row; only a change of row is looked up.
    if (i == 0 || e.pid != last_pid || e.tid != last_tid) {
      auto [row, inserted] =
          row_ids.try_emplace({e.pid, e.tid}, static_cast<uint32_t>(rows_.size()));
      if (inserted)
        rows_.emplace_back(e.pid, e.tid);
      last_row = row->second;
      last_pid = e.pid;
      last_tid = e.tid;
    }
    events_.row[i] = last_row;
    uint16_t flags = 0;
    // The first arg of a key counts, as Event::FindArg reads it.
    if (const std::optional<trace::ArgView> arg = e.args.Find(launch_id_key)) {
      flags |= kHasLaunchIdArg;
      if (std::optional<int64_t> id = trace::IntArgValue(arg->value)) {
        flags |= kHasLaunchId;
        events_.id[i] = *id;
      }
    }
    if (const std::optional<trace::ArgView> arg = e.args.Find(external_id_key)) {
      if (std::optional<int64_t> id = trace::IntArgValue(arg->value)) {
        flags |= kHasExternalId;
        if ((flags & kHasLaunchId) != 0)
          events_.external_id_beside_launch_id.emplace(static_cast<uint32_t>(i), *id);
        else
          events_.id[i] = *id;
      }
    }
    if (trace::IsLaunchMarker(e)) {
      flags |= kLaunchMarker;
      if (e.name == dialect_marker)
        flags |= kDialectMarker;
      if (e.name == trace::kCurrentMarkerName)
        current_markers_ = true;
    }
    if (e.phase == trace::Phase::kComplete &&
        (e.category == Category::kCpuOp || e.category == Category::kUserAnnotation ||
         (flags & kLaunchMarker) != 0))
      ++forest_candidates_;
    if (IsDeviceSliceOf(e, (flags & kHasLaunchIdArg) != 0))
      flags |= kDeviceSlice;
    if (e.phase == trace::Phase::kComplete && IsPrivateUse1Event(e))
      flags |= kPrivateUse1;
    events_.flags[i] = flags;
  }
}

void TraceIndex::BuildLaunchTable() {
  const std::vector<Event>& events = trace_->events;
  std::vector<uint8_t> host_row(rows_.size(), 0);
  for (size_t i = 0; i < events.size(); ++i) {
    if (IsHostCategory(events_.category[i]))
      host_row[events_.row[i]] = 1;
  }
  std::unordered_set<int64_t> any_npu_pids;
  for (const trace::ProcessRow& row : trace_->processes) {
    if (trace::IsNpuProcess(row))
      any_npu_pids.insert(row.pid);
  }
  // Whether each row sits on an NPU process, looked up once per row rather than per event.
  std::vector<uint8_t> npu_row(rows_.size(), 0);
  for (size_t r = 0; r < rows_.size(); ++r)
    npu_row[r] = any_npu_pids.count(rows_[r].first) > 0 ? 1 : 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const uint16_t flags = events_.flags[i];
    if (events[i].phase == trace::Phase::kComplete && (flags & kLaunchMarker) == 0 &&
        ((flags & kDeviceSlice) != 0 || npu_row[events_.row[i]] != 0))
      events_.flags[i] |= kDeviceWork;
  }
  // The launch table reads NPU rows in the current dialect only.
  const bool read_npu_rows = dialect_ == trace::Dialect::kCurrent;
  if (read_npu_rows) {
    for (const trace::ThreadRow& row : trace_->threads) {
      const std::optional<trace::LaneKind> lane = trace::LaneKindFromName(row.name);
      if (lane && any_npu_pids.count(row.pid) > 0)
        launches_.npu_lanes[{row.pid, row.tid}] = *lane;
    }
  }
  // Two passes: the first marks and counts the table's events, the second places them in
  // vectors of their exact size. Grown by doubling, each vector would be copied and its pages
  // written twice; on a trace of millions of events, page faults of fresh memory are a large
  // part of an index's build.
  size_t markers = 0, markers_with_id = 0, slices = 0, slices_with_id = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const uint16_t flags = events_.flags[i];
    if ((flags & kDialectMarker) != 0) {
      ++markers;
      markers_with_id += (flags & kHasLaunchId) != 0 ? 1 : 0;
      continue;
    }
    if (events[i].phase != trace::Phase::kComplete)
      continue;
    // A launch_id marks device work wherever it sits, and so does an NPU row; otherwise the row
    // decides.
    if ((flags & kHasLaunchIdArg) == 0 && !(read_npu_rows && npu_row[events_.row[i]] != 0) &&
        host_row[events_.row[i]] != 0) {
      continue;
    }
    events_.flags[i] |= kOffHost;
    ++slices;
    slices_with_id += (flags & kHasLaunchId) != 0 ? 1 : 0;
  }
  launches_.markers.reserve(markers);
  launches_.device_slices.reserve(slices);
  launches_.markers_by_launch.Reserve(markers_with_id);
  launches_.slices_by_launch.Reserve(slices_with_id);
  for (size_t i = 0; i < events.size(); ++i) {
    const uint16_t flags = events_.flags[i];
    if ((flags & kDialectMarker) != 0) {
      launches_.markers.push_back(i);
      if ((flags & kHasLaunchId) != 0)
        launches_.markers_by_launch.Add(events_.id[i], i);
    } else if ((flags & kOffHost) != 0) {
      launches_.device_slices.push_back(i);
      if ((flags & kHasLaunchId) != 0)
        launches_.slices_by_launch.Add(events_.id[i], i);
    }
  }
  launches_.markers_by_launch.Seal();
  launches_.slices_by_launch.Seal();
}

trace::Dialect TraceIndex::DetectedDialect() const {
  return (trace::HasNpuProcessRow(*trace_) || current_markers_) ? trace::Dialect::kCurrent
                                                                : trace::Dialect::kCAbi;
}

std::optional<int64_t> TraceIndex::ExternalId(size_t event) const {
  if (!events_.Has(event, kHasExternalId))
    return std::nullopt;
  if (!events_.Has(event, kHasLaunchId))
    return events_.id[event];
  return events_.external_id_beside_launch_id.at(static_cast<uint32_t>(event));
}

std::optional<size_t> TraceIndex::MarkerOf(int64_t launch_id) const {
  auto it = launches_.markers_by_launch.find(launch_id);
  if (it == launches_.markers_by_launch.end())
    return std::nullopt;
  return it->second.front();
}

std::optional<size_t> TraceIndex::LauncherOf(size_t marker_event) const {
  const uint32_t node = events_.node[marker_event];
  if (node == kNone || forest_.kind[node] != HostKind::kMarker)
    return std::nullopt;
  const uint32_t launcher = forest_.Launcher(node);
  if (launcher == kNone)
    return std::nullopt;
  return forest_.event[launcher];
}

std::optional<trace::LaneKind> TraceIndex::LaneOf(size_t event) const {
  auto it = launches_.npu_lanes.find(rows_[events_.row[event]]);
  if (it == launches_.npu_lanes.end())
    return std::nullopt;
  return it->second;
}

}  // namespace rblnsim::index
