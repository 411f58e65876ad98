// Two trace summaries side by side: every figure `rblnsim diff` reports, as base / new pairs.
//
// The figures form one flat list of named metrics ("latency.p99", "op[aten::mm].self_cpu",
// "class[copy].device_time", ...): the terminal table, the JSON, the markdown and the --fail-on
// gate all read that list, so a rule can name anything a report shows. The sections (operators,
// hidden host work, device rows, alignment) keep the structure the reports print.
//
// Figures that depend on the dialect's layout rather than on the run are marked not comparable
// when the two traces are in different dialects: the launch delay (c-abi's rbln_run spans the
// submit call, current's marker has no length) and the per-lane rows (engines vs activity kinds).
#ifndef RBLNSIM_PROFILER_DIFF_TRACE_DIFF_H_
#define RBLNSIM_PROFILER_DIFF_TRACE_DIFF_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profiler/diff/sequence_align.h"
#include "profiler/diff/trace_summary.h"

namespace rblnsim::diff {

enum class Unit : uint8_t { kNs = 0, kCount = 1 };

// A device time summed over slices is exact to 1 ns per slice: the resolution of a sum of
// |base_slices| against one of |next_slices| (Metric::resolution).
inline double SummedResolutionNs(int64_t base_slices, int64_t next_slices) {
  return static_cast<double>(std::max(base_slices, next_slices));
}
// What "changed" means everywhere in the diff: moved by more than the stamps resolve.
inline bool MovedBeyond(double base, double next, double resolution) {
  return std::fabs(next - base) > resolution;
}

struct Metric {
  std::string key;
  Unit unit = Unit::kNs;
  double base = 0;
  double next = 0;
  bool in_base = true;  // false: the thing it measures (an op, a lane) is not in the base
  bool in_new = true;
  bool comparable = true;
  // What the traces' timestamps can resolve of this figure: stamps are whole nanoseconds, so a
  // duration or a latency read from two of them is exact to 1 ns, and a sum of n of them to n ns.
  // A change within it is no change (the exact values are still reported).
  double resolution = 0;

  double delta() const { return next - base; }
  // nullopt when the base is 0 (any change is an unbounded relative one).
  std::optional<double> delta_pct() const;
  bool changed() const {
    return comparable && (in_base != in_new || MovedBeyond(base, next, resolution));
  }
};

struct OpDiff {
  std::string name;
  OpTotals base;
  OpTotals next;
  bool in_base = false;
  bool in_new = false;
  bool changed() const;
  // |Δ self CPU| + |Δ device time|: the order of the operator table.
  int64_t time_change_ns() const;
};

struct HiddenDiff {
  HiddenKey key;
  int64_t base = 0;
  int64_t next = 0;
};

struct DeviceRowDiff {
  std::string name;
  DeviceTotals base;
  DeviceTotals next;
  // Beyond the stamps' resolution: 1 ns per slice summed (Metric::resolution).
  bool changed() const;
};

// An unmatched stretch of the alignment with the names it holds.
struct Stretch {
  AlignedRun run;
  std::string after;                  // the last matched op before it ("" at the start)
  std::vector<std::string> base_ops;  // its base elements' names, at most kStretchNames
  std::vector<std::string> new_ops;
};
inline constexpr size_t kStretchNames = 8;

struct TraceDiff {
  trace::Dialect base_dialect = trace::Dialect::kCurrent;
  trace::Dialect new_dialect = trace::Dialect::kCurrent;
  int64_t base_events = 0;
  int64_t new_events = 0;
  bool same_dialect() const { return base_dialect == new_dialect; }

  std::vector<Metric> metrics;  // overall, then per op, then per device row

  std::vector<OpDiff> ops;  // every op of either trace, by time_change_ns, then name
  std::vector<HiddenDiff> hidden;
  std::vector<DeviceRowDiff> device_classes, device_lanes, device_families;

  // The op sequences and their alignment.
  size_t base_sequence = 0;
  size_t new_sequence = 0;
  size_t matched = 0;
  bool approximate = false;
  std::vector<Stretch> stretches;  // every unmatched stretch, in order
  // Launch markers paired by the alignment, and those whose submission latency moved.
  int64_t paired_launches = 0;
  int64_t paired_latency_changed = 0;
  analysis::Percentiles paired_latency_delta;  // of |new - base| over the paired launches

  // The two submission-latency distributions, ascending (the CDF plot).
  std::vector<int64_t> base_latency_ns;
  std::vector<int64_t> new_latency_ns;

  const Metric* Find(const std::string& key) const;
  // Any comparable metric changed, or the alignment left something unmatched.
  bool HasDifferences() const;
};

TraceDiff DiffSummaries(const TraceSummary& base,
                        const TraceSummary& next,
                        const AlignOptions& align = {});

}  // namespace rblnsim::diff

#endif  // RBLNSIM_PROFILER_DIFF_TRACE_DIFF_H_
