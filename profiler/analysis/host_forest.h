// The host side of a trace as a forest: cpu_op / user_annotation spans and launch markers
// (rbln_run or "rbln launch", IsLaunchMarker),
// nested per (pid, tid) row by time enclosure, in pre-order. Launch attribution and the
// fallback / scan / round-trip detectors all walk this one structure.
//
// Columns, not objects: a node is a position in parallel vectors of 4-byte fields, and names
// are interned once, so a trace of millions of events costs a few dozen bytes per host event and
// every name comparison is an integer compare.
#ifndef RBLNSIM_PROFILER_ANALYSIS_HOST_FOREST_H_
#define RBLNSIM_PROFILER_ANALYSIS_HOST_FOREST_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

enum class HostKind : uint8_t { kOp = 0, kAnnotation = 1, kMarker = 2 };

struct HostForest {
  static constexpr uint32_t kNone = UINT32_MAX;

  // Per node, in pre-order: rows in (pid, tid) order, then by start, outer before inner.
  std::vector<uint32_t> event;   // index into trace.events
  std::vector<uint32_t> parent;  // node of the innermost enclosing op/annotation, or kNone
  std::vector<uint32_t> end;     // one past the node's last descendant
  std::vector<uint32_t> name;    // interned name id
  std::vector<HostKind> kind;

  std::vector<std::string_view> names;  // id -> text (views into the trace's event names)
  std::unordered_map<std::string_view, uint32_t> name_ids;
  size_t markers = 0;

  size_t size() const { return event.size(); }
  // kNone when no host event has that name.
  uint32_t NameId(std::string_view text) const;
  // The first child of |node|, or end[node] when it has none; NextSibling steps over a subtree.
  uint32_t FirstChild(uint32_t node) const { return node + 1; }
  uint32_t NextSibling(uint32_t node) const { return end[node]; }
  // The innermost cpu_op / user_annotation enclosing |node| (markers are never parents).
  uint32_t Launcher(uint32_t marker) const { return parent[marker]; }
};

// Takes every complete cpu_op and user_annotation and every launch marker (host-side by
// definition: privateuse1_runtime maps to the CPU). python_function spans are left out: they only
// wrap ops and would hide the ATen nesting the detectors read. Markers are leaves, so an op that
// happens to start inside a long sync-mode marker still nests under its real parent. A
// zero-length event exactly at an op's end is that op's sibling, not its child.
// Fails only for traces of 2^32 events or more.
StatusOr<HostForest> BuildHostForest(const trace::Trace& trace);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_HOST_FOREST_H_
