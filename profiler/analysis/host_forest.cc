#include "profiler/analysis/host_forest.h"

#include <algorithm>
#include <tuple>

#include "profiler/analysis/launch_index.h"
#include "profiler/analysis/sorted_runs.h"

namespace rblnsim::analysis {

namespace {

using trace::Category;
using trace::Event;

// Sort keys kept apart from the events so the sort moves 40-byte items, not Event objects.
struct Item {
  int64_t pid;
  int64_t tid;
  int64_t ts_ns;
  int64_t neg_dur_ns;  // longer first at equal starts: the outer op precedes the inner one
  uint32_t index;
  HostKind kind;  // ops before markers at equal (start, length): an op encloses its marker

  bool operator<(const Item& o) const {
    return std::tie(pid, tid, ts_ns, neg_dur_ns, kind, index) <
           std::tie(o.pid, o.tid, o.ts_ns, o.neg_dur_ns, o.kind, o.index);
  }
};

bool Encloses(const Event& outer, const Event& inner) {
  if (inner.ts_ns < outer.ts_ns || inner.end_ns() > outer.end_ns())
    return false;
  // [a,b] then [b,b]: a zero-length event at the boundary follows the op rather than nesting.
  return inner.ts_ns < outer.end_ns() || outer.dur_ns == 0;
}

}  // namespace

uint32_t HostForest::NameId(std::string_view text) const {
  auto it = name_ids.find(text);
  return it == name_ids.end() ? kNone : it->second;
}

StatusOr<HostForest> BuildHostForest(const trace::Trace& trace) {
  const std::vector<Event>& events = trace.events;
  if (events.size() >= HostForest::kNone) {
    return Status::Error("trace has " + std::to_string(events.size()) +
                         " events; the analyses index at most 2^32-1");
  }
  std::vector<Item> items;
  for (uint32_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.phase != trace::Phase::kComplete)
      continue;
    HostKind kind;
    if (e.category == Category::kCpuOp) {
      kind = HostKind::kOp;
    } else if (e.category == Category::kUserAnnotation) {
      kind = HostKind::kAnnotation;
    } else if (IsLaunchMarker(e)) {
      kind = HostKind::kMarker;
    } else {
      continue;
    }
    items.push_back({e.pid, e.tid, e.ts_ns, -e.dur_ns, i, kind});
  }
  SortAlmostSorted(&items);

  HostForest forest;
  const size_t n = items.size();
  forest.event.resize(n);
  forest.parent.resize(n, HostForest::kNone);
  forest.end.resize(n);
  forest.name.resize(n);
  forest.kind.resize(n);
  std::vector<uint32_t> open;  // enclosing ops of the current node, outermost first
  auto close_all = [&](uint32_t at) {
    for (uint32_t node : open)
      forest.end[node] = at;
    open.clear();
  };
  for (uint32_t pos = 0; pos < n; ++pos) {
    const Item& it = items[pos];
    const Event& e = events[it.index];
    if (pos > 0 && (items[pos - 1].pid != it.pid || items[pos - 1].tid != it.tid))
      close_all(pos);
    while (!open.empty() && !Encloses(events[forest.event[open.back()]], e)) {
      forest.end[open.back()] = pos;
      open.pop_back();
    }
    forest.event[pos] = it.index;
    forest.kind[pos] = it.kind;
    forest.parent[pos] = open.empty() ? HostForest::kNone : open.back();
    auto [name_it, inserted] =
        forest.name_ids.try_emplace(e.name, static_cast<uint32_t>(forest.names.size()));
    if (inserted)
      forest.names.push_back(e.name);
    forest.name[pos] = name_it->second;
    if (it.kind == HostKind::kMarker) {
      forest.end[pos] = pos + 1;
      ++forest.markers;
    } else {
      open.push_back(pos);
    }
  }
  close_all(static_cast<uint32_t>(n));
  return forest;
}

}  // namespace rblnsim::analysis
