#include "profiler/diff/trace_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace rblnsim::diff {

namespace {

class MetricList {
 public:
  explicit MetricList(std::vector<Metric>* out) : out_(out) {}

  // |resolution_ns|: see Metric::resolution; counts are exact.
  void Add(std::string key,
           Unit unit,
           double base,
           double next,
           double resolution_ns = 0,
           bool comparable = true,
           bool in_base = true,
           bool in_new = true) {
    out_->push_back({std::move(key), unit, base, next, in_base, in_new, comparable, resolution_ns});
  }
  // Each percentile is one latency: the difference of two stamps.
  void AddPercentiles(const std::string& prefix,
                      const analysis::Percentiles& base,
                      const analysis::Percentiles& next,
                      bool comparable,
                      bool in_base = true,
                      bool in_new = true) {
    Add(prefix + ".p50", Unit::kNs, base.p50_ns, next.p50_ns, 1, comparable, in_base, in_new);
    Add(prefix + ".p90", Unit::kNs, base.p90_ns, next.p90_ns, 1, comparable, in_base, in_new);
    Add(prefix + ".p99", Unit::kNs, base.p99_ns, next.p99_ns, 1, comparable, in_base, in_new);
    Add(prefix + ".max", Unit::kNs, base.max_ns, next.max_ns, 1, comparable, in_base, in_new);
  }

 private:
  std::vector<Metric>* out_;
};

// Every row of either side, by name.
std::vector<DeviceRowDiff> DeviceRows(const std::map<std::string, DeviceTotals>& base,
                                      const std::map<std::string, DeviceTotals>& next) {
  std::map<std::string, DeviceRowDiff> rows;
  for (const auto& [name, totals] : base)
    rows[name].base = totals;
  for (const auto& [name, totals] : next)
    rows[name].next = totals;
  std::vector<DeviceRowDiff> out;
  out.reserve(rows.size());
  for (auto& [name, row] : rows) {
    row.name = name;
    out.push_back(std::move(row));
  }
  return out;
}

void AddDeviceMetrics(const std::string& kind,
                      const std::vector<DeviceRowDiff>& rows,
                      const std::map<std::string, DeviceTotals>& base,
                      const std::map<std::string, DeviceTotals>& next,
                      bool comparable,
                      MetricList* metrics) {
  for (const DeviceRowDiff& row : rows) {
    const bool in_base = base.count(row.name) > 0, in_new = next.count(row.name) > 0;
    const std::string prefix = kind + "[" + row.name + "]";
    metrics->Add(prefix + ".device_time", Unit::kNs, row.base.ns, row.next.ns,
                 SummedResolutionNs(row.base.slices, row.next.slices), comparable, in_base, in_new);
    metrics->Add(prefix + ".slices", Unit::kCount, row.base.slices, row.next.slices, 0, comparable,
                 in_base, in_new);
  }
}

void DiffOps(const TraceSummary& base, const TraceSummary& next, TraceDiff* diff) {
  std::unordered_map<std::string, size_t> row_of;
  for (size_t i = 0; i < base.op_names.size(); ++i) {
    row_of.emplace(base.op_names[i], diff->ops.size());
    diff->ops.push_back({base.op_names[i], base.ops[i], {}, true, false});
  }
  for (size_t i = 0; i < next.op_names.size(); ++i) {
    const auto [it, added] = row_of.emplace(next.op_names[i], diff->ops.size());
    if (added)
      diff->ops.push_back({next.op_names[i], {}, {}, false, false});
    OpDiff& row = diff->ops[it->second];
    row.next = next.ops[i];
    row.in_new = true;
  }
  std::stable_sort(diff->ops.begin(), diff->ops.end(), [](const OpDiff& a, const OpDiff& b) {
    if (a.time_change_ns() != b.time_change_ns())
      return a.time_change_ns() > b.time_change_ns();
    return a.name < b.name;
  });
}

void AddOpMetrics(const TraceSummary& base,
                  const TraceSummary& next,
                  bool same_dialect,
                  const std::vector<OpDiff>& ops,
                  MetricList* metrics) {
  for (const OpDiff& op : ops) {
    const std::string prefix = "op[" + op.name + "]";
    const auto add = [&](const char* field, Unit unit, int64_t b, int64_t n, double resolution) {
      metrics->Add(prefix + field, unit, static_cast<double>(b), static_cast<double>(n), resolution,
                   true, op.in_base, op.in_new);
    };
    // Host times are compared exactly: both runs' host spans are stamped by one clock each, and
    // a host-cost change of a nanosecond is a change.
    add(".calls", Unit::kCount, op.base.calls, op.next.calls, 0);
    add(".self_cpu", Unit::kNs, op.base.self_cpu_ns, op.next.self_cpu_ns, 0);
    add(".cpu_total", Unit::kNs, op.base.cpu_total_ns, op.next.cpu_total_ns, 0);
    add(".device_time", Unit::kNs, op.base.device_ns, op.next.device_ns,
        SummedResolutionNs(op.base.device_slices, op.next.device_slices));
    add(".launches", Unit::kCount, op.base.launches, op.next.launches, 0);
    const auto b = base.per_op_launches.find(op.name);
    const auto n = next.per_op_launches.find(op.name);
    if (b == base.per_op_launches.end() && n == next.per_op_launches.end())
      continue;
    const OpLaunchStats none;
    const OpLaunchStats& bs = b == base.per_op_launches.end() ? none : b->second;
    const OpLaunchStats& ns = n == next.per_op_launches.end() ? none : n->second;
    const bool in_b = b != base.per_op_launches.end(), in_n = n != next.per_op_launches.end();
    metrics->AddPercentiles(prefix + ".latency", bs.submission, ns.submission, true, in_b, in_n);
    metrics->AddPercentiles(prefix + ".launch_delay", bs.launch_delay, ns.launch_delay,
                            same_dialect, in_b, in_n);
  }
}

void DiffHidden(const TraceSummary& base, const TraceSummary& next, TraceDiff* diff) {
  std::map<HiddenKey, std::pair<int64_t, int64_t>> both;
  for (const auto& [key, count] : base.hidden)
    both[key].first = count;
  for (const auto& [key, count] : next.hidden)
    both[key].second = count;
  for (const auto& [key, counts] : both) {
    if (counts.first != counts.second)
      diff->hidden.push_back({key, counts.first, counts.second});
  }
}

std::vector<std::string> NamesOf(const std::vector<std::string>& names,
                                 std::span<const uint32_t> ids) {
  std::vector<std::string> out;
  for (size_t i = 0; i < ids.size() && i < kStretchNames; ++i)
    out.push_back(names[ids[i]]);
  return out;
}

void Align(const TraceSummary& base,
           const TraceSummary& next,
           const AlignOptions& options,
           TraceDiff* diff) {
  // One id space for both sides: the new run's names mapped onto the base's.
  std::vector<std::string> names = base.sequence_names;
  std::unordered_map<std::string, uint32_t> id_of;
  for (uint32_t i = 0; i < names.size(); ++i)
    id_of.emplace(names[i], i);
  std::vector<uint32_t> remap(next.sequence_names.size());
  for (size_t i = 0; i < next.sequence_names.size(); ++i) {
    const auto [it, added] =
        id_of.emplace(next.sequence_names[i], static_cast<uint32_t>(names.size()));
    if (added)
      names.push_back(next.sequence_names[i]);
    remap[i] = it->second;
  }
  std::vector<uint32_t> next_ids(next.sequence.size());
  for (size_t i = 0; i < next.sequence.size(); ++i)
    next_ids[i] = remap[next.sequence[i]];
  const std::span<const uint32_t> a(base.sequence), b(next_ids);
  const Alignment alignment = AlignSequences(a, b, options);
  diff->base_sequence = a.size();
  diff->new_sequence = b.size();
  diff->matched = alignment.matched;
  diff->approximate = alignment.approximate;

  const uint32_t launch = id_of.at(std::string(kLaunchElement));
  size_t base_markers = 0, new_markers = 0;
  std::vector<int64_t> deltas;
  std::string after;
  for (const AlignedRun& run : alignment.runs) {
    if (!run.matched) {
      diff->stretches.push_back({run, after,
                                 NamesOf(names, a.subspan(run.base_begin, run.base_count)),
                                 NamesOf(names, b.subspan(run.new_begin, run.new_count))});
      base_markers += std::count(a.begin() + run.base_begin,
                                 a.begin() + run.base_begin + run.base_count, launch);
      new_markers +=
          std::count(b.begin() + run.new_begin, b.begin() + run.new_begin + run.new_count, launch);
      continue;
    }
    for (size_t k = 0; k < run.base_count; ++k) {
      if (a[run.base_begin + k] != launch)
        continue;
      const int64_t lb = base.sequence_launch_latency_ns[base_markers++];
      const int64_t ln = next.sequence_launch_latency_ns[new_markers++];
      ++diff->paired_launches;
      if (lb >= 0 && ln >= 0) {
        deltas.push_back(std::llabs(ln - lb));
        // Beyond the 1 ns a latency read from two stamps is exact to.
        diff->paired_latency_changed += std::llabs(ln - lb) > 1 ? 1 : 0;
      } else if ((lb < 0) != (ln < 0)) {
        ++diff->paired_latency_changed;
      }
    }
    if (run.base_count > 0)
      after = names[a[run.base_begin + run.base_count - 1]];
  }
  diff->paired_latency_delta = analysis::ComputePercentiles(&deltas);
}

}  // namespace

std::optional<double> Metric::delta_pct() const {
  if (base == 0)
    return next == 0 ? std::optional<double>(0.0) : std::nullopt;
  return 100.0 * (next - base) / std::fabs(base);
}

bool OpDiff::changed() const {
  return in_base != in_new || base.calls != next.calls || base.self_cpu_ns != next.self_cpu_ns ||
         base.cpu_total_ns != next.cpu_total_ns || base.launches != next.launches ||
         MovedBeyond(static_cast<double>(base.device_ns), static_cast<double>(next.device_ns),
                     SummedResolutionNs(base.device_slices, next.device_slices));
}

bool DeviceRowDiff::changed() const {
  return base.slices != next.slices ||
         MovedBeyond(static_cast<double>(base.ns), static_cast<double>(next.ns),
                     SummedResolutionNs(base.slices, next.slices));
}

int64_t OpDiff::time_change_ns() const {
  return std::llabs(next.self_cpu_ns - base.self_cpu_ns) +
         std::llabs(next.device_ns - base.device_ns);
}

const Metric* TraceDiff::Find(const std::string& key) const {
  for (const Metric& metric : metrics) {
    if (metric.key == key)
      return &metric;
  }
  return nullptr;
}

bool TraceDiff::HasDifferences() const {
  if (!stretches.empty())
    return true;
  return std::any_of(metrics.begin(), metrics.end(), [](const Metric& m) { return m.changed(); });
}

TraceDiff DiffSummaries(const TraceSummary& base,
                        const TraceSummary& next,
                        const AlignOptions& align) {
  TraceDiff diff;
  diff.base_dialect = base.dialect;
  diff.new_dialect = next.dialect;
  diff.base_events = base.events;
  diff.new_events = next.events;
  const bool same = diff.same_dialect();

  DiffOps(base, next, &diff);
  DiffHidden(base, next, &diff);
  diff.device_classes = DeviceRows(base.device_classes, next.device_classes);
  diff.device_lanes = DeviceRows(base.device_lanes, next.device_lanes);
  diff.device_families = DeviceRows(base.device_families, next.device_families);
  Align(base, next, align, &diff);
  diff.base_latency_ns = base.submission_sorted_ns;
  diff.new_latency_ns = next.submission_sorted_ns;

  MetricList m(&diff.metrics);
  int64_t base_self = 0, next_self = 0;
  for (const OpDiff& op : diff.ops) {
    base_self += op.base.self_cpu_ns;
    next_self += op.next.self_cpu_ns;
  }
  const auto slices = [](const DeviceTotals& b, const DeviceTotals& n) {
    return SummedResolutionNs(b.slices, n.slices);
  };
  const double gaps_ns = 2.0 * static_cast<double>(std::max(base.idle.gaps, next.idle.gaps));
  m.Add("wall", Unit::kNs, base.wall_ns, next.wall_ns, 2);
  m.Add("host_time", Unit::kNs, base.host_ns, next.host_ns);
  m.Add("self_cpu", Unit::kNs, base_self, next_self);
  m.Add("device_time", Unit::kNs, base.device.ns, next.device.ns, slices(base.device, next.device));
  m.Add("device_slices", Unit::kCount, base.device.slices, next.device.slices);
  m.Add("launches", Unit::kCount, base.launches, next.launches);
  m.Add("launches_without_device", Unit::kCount, base.launches_without_device,
        next.launches_without_device);
  m.AddPercentiles("latency", base.submission, next.submission, true);
  m.AddPercentiles("launch_delay", base.launch_delay, next.launch_delay, same);
  m.Add("queue.max", Unit::kCount, base.queue_max, next.queue_max);
  m.Add("device.busy", Unit::kNs, base.idle.busy_ns, next.idle.busy_ns,
        slices(base.device, next.device));
  m.Add("idle.host_wait", Unit::kNs, base.idle.host_wait_ns, next.idle.host_wait_ns, gaps_ns);
  m.Add("idle.device_wait", Unit::kNs, base.idle.device_wait_ns, next.idle.device_wait_ns, gaps_ns);
  m.Add("idle.other", Unit::kNs, base.idle.other_ns, next.idle.other_ns, gaps_ns);
  m.Add("fallbacks", Unit::kCount, base.fallbacks, next.fallbacks);
  m.Add("recompiles", Unit::kCount, base.recompiles, next.recompiles);
  m.Add("round_trips", Unit::kCount, base.round_trips, next.round_trips);
  m.Add("scans", Unit::kCount, base.scans, next.scans);
  m.Add("unmatched_ops", Unit::kCount, 0,
        static_cast<double>(diff.base_sequence + diff.new_sequence - 2 * diff.matched));
  m.Add("paired_launches.latency_changed", Unit::kCount, 0,
        static_cast<double>(diff.paired_latency_changed));
  AddOpMetrics(base, next, same, diff.ops, &m);
  AddDeviceMetrics("class", diff.device_classes, base.device_classes, next.device_classes, true,
                   &m);
  AddDeviceMetrics("lane", diff.device_lanes, base.device_lanes, next.device_lanes, same, &m);
  AddDeviceMetrics("family", diff.device_families, base.device_families, next.device_families, true,
                   &m);
  return diff;
}

}  // namespace rblnsim::diff
