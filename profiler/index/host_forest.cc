// The host forest of TraceIndex: one sort of the host events by (row, start, outer first), then
// one sweep with a stack of open ops per row.
#include <algorithm>
#include <tuple>

#include "base/sorted_runs.h"
#include "profiler/index/trace_index.h"

namespace rblnsim::index {

namespace {

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

void TraceIndex::BuildForest() {
  const std::vector<Event>& events = trace_->events;
  std::vector<Item> items;
  items.reserve(forest_candidates_);
  for (uint32_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.phase != trace::Phase::kComplete)
      continue;
    HostKind kind;
    if (e.category == trace::Category::kCpuOp) {
      kind = HostKind::kOp;
    } else if (e.category == trace::Category::kUserAnnotation) {
      kind = HostKind::kAnnotation;
    } else if (events_.Has(i, kLaunchMarker)) {
      kind = HostKind::kMarker;
    } else {
      continue;
    }
    items.push_back({e.pid, e.tid, e.ts_ns, -e.dur_ns, i, kind});
  }
  SortAlmostSorted(&items);

  HostForest& forest = forest_;
  const size_t n = items.size();
  forest.event.resize(n);
  forest.parent.resize(n, kNone);
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
    forest.parent[pos] = open.empty() ? kNone : open.back();
    forest.name[pos] = events_.name[it.index];
    events_.node[it.index] = pos;
    events_.flags[it.index] |= kHostNode;
    if (it.kind == HostKind::kMarker) {
      forest.end[pos] = pos + 1;
      ++forest.markers;
    } else {
      open.push_back(pos);
    }
  }
  close_all(static_cast<uint32_t>(n));
}

}  // namespace rblnsim::index
