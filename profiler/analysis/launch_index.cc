#include "profiler/analysis/launch_index.h"

#include <algorithm>
#include <tuple>
#include <unordered_set>

#include "profiler/analysis/sorted_runs.h"

namespace rblnsim::analysis {

namespace {

using trace::Category;
using trace::Event;

// PyTorch drops plugin activities of these types (reference §1.8), so a row holding one is a
// host thread, never a device lane.
bool IsHostCategory(Category c) {
  return c == Category::kCpuOp || c == Category::kUserAnnotation || c == Category::kPythonFunction;
}

// What can launch: an ATen op in eager mode, "Torch-Compiled Region" (user_annotation) in graph
// mode.
bool IsLauncherCategory(Category c) {
  return c == Category::kCpuOp || c == Category::kUserAnnotation;
}

struct RowKey {
  int64_t pid;
  int64_t tid;
  bool operator==(const RowKey&) const = default;
};

struct RowKeyHash {
  size_t operator()(const RowKey& k) const {
    return std::hash<int64_t>()(k.pid) * 31 + std::hash<int64_t>()(k.tid);
  }
};

RowKey RowOf(const Event& e) {
  return {e.pid, e.tid};
}

}  // namespace

bool IsMarker(const Event& event) {
  return event.category == Category::kPrivateUse1Runtime && event.name == kCAbiMarkerName;
}

LaunchIndex::LaunchIndex(const trace::Trace& t) : LaunchIndex(t, DetectDialect(t)) {}

LaunchIndex::LaunchIndex(const trace::Trace& t, Dialect d)
    : trace(t), dialect(d), is_marker(t.events.size(), false), is_device(t.events.size(), false) {
  std::unordered_set<RowKey, RowKeyHash> host_rows;
  for (const Event& e : t.events) {
    if (IsHostCategory(e.category))
      host_rows.insert(RowOf(e));
  }
  std::unordered_set<int64_t> npu_pids;
  if (dialect == Dialect::kCurrent) {
    for (const trace::ProcessRow& row : t.processes) {
      if (IsNpuProcess(row))
        npu_pids.insert(row.pid);
    }
    for (const trace::ThreadRow& row : t.threads) {
      const std::optional<LaneKind> lane = LaneFromName(row.name);
      if (lane && npu_pids.count(row.pid) > 0)
        npu_lanes[{row.pid, row.tid}] = *lane;
    }
  }
  const char* marker_name = MarkerNameOf(dialect);
  for (size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (IsLaunchMarker(e) && e.name == marker_name) {
      is_marker[i] = true;
      markers.push_back(i);
      if (auto id = e.IntArg(kLaunchIdArg))
        markers_by_launch[*id].push_back(i);
      continue;
    }
    if (e.phase != trace::Phase::kComplete)
      continue;
    // A launch_id marks device work wherever it sits, and so does an NPU row; otherwise the row
    // decides.
    const bool carries_launch = e.FindArg(kLaunchIdArg) != nullptr;
    if (!carries_launch && npu_pids.count(e.pid) == 0 && host_rows.count(RowOf(e)) > 0)
      continue;
    is_device[i] = true;
    device_slices.push_back(i);
    if (auto id = e.IntArg(kLaunchIdArg))
      slices_by_launch[*id].push_back(i);
  }
  FindLaunchers();
}

void LaunchIndex::FindLaunchers() {
  const std::vector<Event>& events = trace.events;
  // Sort keys: by start; at equal starts ops before markers (an op starting with its marker
  // encloses it) and longer ops first (outer before inner). Kept apart from the events so the
  // sort does not chase indices through a large vector.
  struct Item {
    int64_t ts_ns;
    bool is_marker;
    int64_t neg_dur_ns;
    size_t index;
    bool operator<(const Item& o) const {
      return std::tie(ts_ns, is_marker, neg_dur_ns, index) <
             std::tie(o.ts_ns, o.is_marker, o.neg_dur_ns, o.index);
    }
  };
  auto item = [&](size_t i) {
    return Item{events[i].ts_ns, static_cast<bool>(is_marker[i]), -events[i].dur_ns, i};
  };
  std::unordered_map<RowKey, std::vector<Item>, RowKeyHash> rows;
  for (size_t m : markers)
    rows.try_emplace(RowOf(events[m]));
  // In event order, so that a row logged in start order is cheap to sort.
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    const bool launcher =
        !is_device[i] && e.phase == trace::Phase::kComplete && IsLauncherCategory(e.category);
    if (!launcher && !is_marker[i])
      continue;
    auto row = rows.find(RowOf(e));
    if (row != rows.end())
      row->second.push_back(item(i));  // only rows holding markers matter
  }
  for (auto& [key, items] : rows) {
    SortAlmostSorted(&items);
    // Sweep with a stack of open ops; partial overlaps are tolerated by checking enclosure
    // explicitly instead of trusting the nesting.
    std::vector<size_t> open;
    for (const Item& it : items) {
      const Event& e = events[it.index];
      while (!open.empty() && events[open.back()].end_ns() < e.ts_ns)
        open.pop_back();
      if (!it.is_marker) {
        open.push_back(it.index);
        continue;
      }
      for (auto op = open.rbegin(); op != open.rend(); ++op) {
        if (events[*op].ts_ns <= e.ts_ns && e.end_ns() <= events[*op].end_ns()) {
          launcher_by_marker[it.index] = *op;
          break;
        }
      }
    }
  }
}

std::optional<size_t> LaunchIndex::MarkerOf(int64_t launch_id) const {
  auto it = markers_by_launch.find(launch_id);
  if (it == markers_by_launch.end() || it->second.empty())
    return std::nullopt;
  return it->second.front();
}

std::optional<LaneKind> LaunchIndex::LaneOf(const Event& event) const {
  auto it = npu_lanes.find({event.pid, event.tid});
  if (it == npu_lanes.end())
    return std::nullopt;
  return it->second;
}

std::optional<size_t> LaunchIndex::LauncherOf(size_t marker_event) const {
  auto it = launcher_by_marker.find(marker_event);
  if (it == launcher_by_marker.end())
    return std::nullopt;
  return it->second;
}

}  // namespace rblnsim::analysis
