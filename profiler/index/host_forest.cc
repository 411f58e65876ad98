// The host forest of TraceIndex: one sort of the host events by (row, start, outer first), then
// one sweep with a stack of open ops per row.
#include <algorithm>
#include <tuple>

#include "base/sorted_runs.h"
#include "profiler/index/trace_index.h"

namespace rblnsim::index {

namespace {

using trace::Event;

// A host event to sort: its row's place in (pid, tid) order and its position. The times are
// read from the event: a trace of 10^6 launches has 3M host events, and 40-byte keys holding
// them were the largest block of the index's build.
struct Item {
  uint32_t row_rank;
  uint32_t index;
  HostKind kind;  // ops before markers at equal (start, length): an op encloses its marker
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
  // Allocated here, after the name table's probe slots are gone, rather than with the columns.
  events_.node.assign(events.size(), kNone);
  // Rows are numbered in first appearance; the forest goes in (pid, tid) order.
  std::vector<uint32_t> row_rank(rows_.size());
  {
    std::vector<uint32_t> by_key(rows_.size());
    for (uint32_t r = 0; r < by_key.size(); ++r)
      by_key[r] = r;
    std::sort(by_key.begin(), by_key.end(),
              [&](uint32_t a, uint32_t b) { return rows_[a] < rows_[b]; });
    for (uint32_t rank = 0; rank < by_key.size(); ++rank)
      row_rank[by_key[rank]] = rank;
  }
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
    items.push_back({row_rank[events_.row[i]], i, kind});
  }
  // By row, start, longer first at equal starts (the outer op precedes the inner one), kind.
  SortAlmostSorted(&items, [&events](const Item& a, const Item& b) {
    if (a.row_rank != b.row_rank)
      return a.row_rank < b.row_rank;
    const Event& ea = events[a.index];
    const Event& eb = events[b.index];
    if (ea.ts_ns != eb.ts_ns)
      return ea.ts_ns < eb.ts_ns;
    const int64_t dur_a = ea.dur_ns;
    const int64_t dur_b = eb.dur_ns;
    if (dur_a != dur_b)
      return dur_a > dur_b;
    return std::tie(a.kind, a.index) < std::tie(b.kind, b.index);
  });

  HostForest& forest = forest_;
  const size_t n = items.size();
  forest.event.resize(n);
  forest.parent.resize(n, kNone);
  forest.end.resize(n);
  const bool names = !events_.name.empty();
  if (names)
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
    if (pos > 0 && items[pos - 1].row_rank != it.row_rank)
      close_all(pos);
    while (!open.empty() && !Encloses(events[forest.event[open.back()]], e)) {
      forest.end[open.back()] = pos;
      open.pop_back();
    }
    forest.event[pos] = it.index;
    forest.kind[pos] = it.kind;
    forest.parent[pos] = open.empty() ? kNone : open.back();
    if (names)
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
