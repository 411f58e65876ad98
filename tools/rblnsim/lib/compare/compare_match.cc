#include "tools/rblnsim/lib/compare/compare_match.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>
#include <tuple>

namespace rblnsim::cli {

namespace {

bool Differs(double sim, double hw, const CompareTolerance& tolerance) {
  const double diff = std::abs(sim - hw);
  return diff > tolerance.absolute_ns && diff > tolerance.relative_pct / 100.0 * std::abs(hw);
}

// The current dialect's "compute" lane (kind other) holds both matmul and general-compute
// commands, so it pairs with either; every other kind pairs only with itself.
bool CompatibleKinds(EngineKind a, EngineKind b) {
  const auto compute = [](EngineKind k) {
    return k == EngineKind::kMatmul || k == EngineKind::kGce;
  };
  return a == b || (a == EngineKind::kOther && compute(b)) ||
         (b == EngineKind::kOther && compute(a));
}

// Pairs the slices of one matched launch (see the header for the rule).
void MatchSlices(const DigestLaunch& sim, const DigestLaunch& hw, size_t pair, Comparison* out) {
  auto keys = [](const DigestLaunch& launch) {
    std::vector<std::string> k;
    for (const DigestSlice& s : launch.slices)
      k.push_back(s.key);
    std::sort(k.begin(), k.end());
    return k;
  };
  std::vector<std::pair<size_t, size_t>> pairs;
  if (keys(sim) == keys(hw)) {
    std::map<std::string, std::deque<size_t>> by_key;
    for (size_t h = 0; h < hw.slices.size(); ++h)
      by_key[hw.slices[h].key].push_back(h);
    for (size_t s = 0; s < sim.slices.size(); ++s) {
      std::deque<size_t>& queue = by_key[sim.slices[s].key];
      pairs.emplace_back(s, queue.front());
      queue.pop_front();
    }
  } else {
    // Names differ (a card numbers its commands its own way): each simulated command pairs with
    // the next captured one of a compatible engine kind, in start order, so a DMA is never set
    // against a compute command and the captured side's lane names the class.
    std::vector<bool> used(hw.slices.size(), false);
    for (size_t s = 0; s < sim.slices.size(); ++s) {
      for (size_t h = 0; h < hw.slices.size(); ++h) {
        if (!used[h] && CompatibleKinds(sim.slices[s].kind, hw.slices[h].kind)) {
          used[h] = true;
          pairs.emplace_back(s, h);
          break;
        }
      }
    }
  }
  out->unmatched_sim_slices += static_cast<int64_t>(sim.slices.size() - pairs.size());
  out->unmatched_hw_slices += static_cast<int64_t>(hw.slices.size() - pairs.size());
  for (const auto& [s, h] : pairs) {
    const DigestSlice& slice = sim.slices[s];
    const DigestSlice& captured = hw.slices[h];
    const EngineKind kind = slice.kind == EngineKind::kOther ? captured.kind : slice.kind;
    out->commands.push_back(
        {pair, slice.key, captured.engine_class, kind, slice.dur_ns, captured.dur_ns});
  }
}

analysis::Percentiles LatencyOf(const TraceDigest& digest,
                                const std::vector<size_t>& launches,
                                std::vector<int64_t>* values) {
  std::vector<int64_t> latencies;
  for (size_t i : launches) {
    if (digest.launches[i].has_device())
      latencies.push_back(digest.launches[i].latency_ns());
  }
  analysis::Percentiles p = analysis::ComputePercentiles(&latencies);
  if (values != nullptr)
    *values = std::move(latencies);
  return p;
}

std::vector<CountDiff> CountDiffs(const std::map<std::string, int64_t>& sim,
                                  const std::map<std::string, int64_t>& hw) {
  std::set<std::string> names;
  for (const auto& [name, count] : sim)
    names.insert(name);
  for (const auto& [name, count] : hw)
    names.insert(name);
  std::vector<CountDiff> diffs;
  for (const std::string& name : names) {
    const int64_t s = sim.count(name) ? sim.at(name) : 0;
    const int64_t h = hw.count(name) ? hw.at(name) : 0;
    if (s != h)
      diffs.push_back({name, s, h});
  }
  return diffs;
}

// How far ahead AlignByShapes looks for the next launch of the same shapes: longer runs of
// launches present on one side only are left unmatched rather than searched for.
constexpr size_t kAlignWindow = 16;

// Pairs one op's launches in order, by their Input Dims when both traces recorded them: a launch
// present on one side only (dropped, extra) is skipped over instead of shifting every later pair.
// Without shapes on both sides, the k-th launch pairs with the k-th.
std::vector<std::pair<size_t, size_t>> AlignByShapes(const TraceDigest& sim,
                                                     const std::vector<size_t>& sim_launches,
                                                     const TraceDigest& hw,
                                                     const std::vector<size_t>& hw_launches) {
  std::vector<std::pair<size_t, size_t>> pairs;
  const auto dims = [](const TraceDigest& d, size_t i) -> const std::string& {
    return d.launches[i].input_dims;
  };
  bool shapes = true;
  for (size_t i : sim_launches)
    shapes &= !dims(sim, i).empty();
  for (size_t i : hw_launches)
    shapes &= !dims(hw, i).empty();
  // Shapes written in a way the other side never matches (no launch in common) say nothing about
  // alignment: pair in order then.
  if (shapes) {
    std::set<std::string_view> seen;
    for (size_t i : sim_launches)
      seen.insert(dims(sim, i));
    shapes = std::any_of(hw_launches.begin(), hw_launches.end(),
                         [&](size_t i) { return seen.count(dims(hw, i)) > 0; });
  }
  size_t a = 0, b = 0;
  while (a < sim_launches.size() && b < hw_launches.size()) {
    if (!shapes || dims(sim, sim_launches[a]) == dims(hw, hw_launches[b])) {
      pairs.emplace_back(sim_launches[a++], hw_launches[b++]);
      continue;
    }
    // The nearest resynchronisation: skip |i| simulated or |j| captured launches, fewest first.
    size_t skip_sim = kAlignWindow + 1, skip_hw = kAlignWindow + 1;
    for (size_t i = 1; i <= kAlignWindow && a + i < sim_launches.size(); ++i) {
      if (dims(sim, sim_launches[a + i]) == dims(hw, hw_launches[b])) {
        skip_sim = i;
        break;
      }
    }
    for (size_t j = 1; j <= kAlignWindow && b + j < hw_launches.size(); ++j) {
      if (dims(sim, sim_launches[a]) == dims(hw, hw_launches[b + j])) {
        skip_hw = j;
        break;
      }
    }
    if (skip_sim <= kAlignWindow && skip_sim <= skip_hw) {
      a += skip_sim;
    } else if (skip_hw <= kAlignWindow) {
      b += skip_hw;
    } else {
      ++a, ++b;  // no counterpart of either nearby: both stay unmatched
    }
  }
  return pairs;
}

void CompareOps(const TraceDigest& sim, const TraceDigest& hw, Comparison* out) {
  std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> by_op;
  for (size_t i = 0; i < sim.launches.size(); ++i)
    by_op[sim.launches[i].op].first.push_back(i);
  for (size_t i = 0; i < hw.launches.size(); ++i)
    by_op[hw.launches[i].op].second.push_back(i);
  for (const auto& [op, launches] : by_op) {
    const auto& [sim_launches, hw_launches] = launches;
    OpComparison row;
    row.op = op;
    row.sim_launches = static_cast<int64_t>(sim_launches.size());
    row.hw_launches = static_cast<int64_t>(hw_launches.size());
    const std::vector<std::pair<size_t, size_t>> aligned =
        AlignByShapes(sim, sim_launches, hw, hw_launches);
    row.matched = static_cast<int64_t>(aligned.size());
    int64_t both_device = 0;
    for (const auto& [s, h] : aligned) {
      out->launch_pairs.push_back({s, h, op, sim.launches[s].device_ns, hw.launches[h].device_ns});
      row.sim_without_device += sim.launches[s].has_device() ? 0 : 1;
      row.hw_without_device += hw.launches[h].has_device() ? 0 : 1;
      if (!sim.launches[s].has_device() || !hw.launches[h].has_device())
        continue;
      ++both_device;
      row.sim_device_ns += static_cast<double>(sim.launches[s].device_ns);
      row.hw_device_ns += static_cast<double>(hw.launches[h].device_ns);
    }
    if (both_device > 0) {
      row.sim_device_ns /= static_cast<double>(both_device);
      row.hw_device_ns /= static_cast<double>(both_device);
    }
    out->unmatched_sim_launches += row.sim_launches - row.matched;
    out->unmatched_hw_launches += row.hw_launches - row.matched;
    row.sim_latency = LatencyOf(sim, sim_launches, nullptr);
    row.hw_latency = LatencyOf(hw, hw_launches, nullptr);
    out->ops.push_back(std::move(row));
  }
  std::sort(out->launch_pairs.begin(), out->launch_pairs.end(),
            [](const LaunchPair& a, const LaunchPair& b) { return a.sim < b.sim; });
  std::stable_sort(out->ops.begin(), out->ops.end(),
                   [](const OpComparison& a, const OpComparison& b) {
                     return a.hw_device_ns * static_cast<double>(a.matched) >
                            b.hw_device_ns * static_cast<double>(b.matched);
                   });
  for (size_t p = 0; p < out->launch_pairs.size(); ++p) {
    MatchSlices(sim.launches[out->launch_pairs[p].sim], hw.launches[out->launch_pairs[p].hw], p,
                out);
  }
  std::map<std::pair<EngineKind, std::string>, ClassComparison> classes;
  for (const CommandPair& c : out->commands) {
    ClassComparison& row = classes[{c.kind, c.engine_class}];
    row.engine_class = c.engine_class;
    row.kind = c.kind;
    ++row.commands;
    row.sim_ns += static_cast<double>(c.sim_ns);
    row.hw_ns += static_cast<double>(c.hw_ns);
  }
  for (auto& [key, row] : classes) {
    row.sim_ns /= static_cast<double>(row.commands);
    row.hw_ns /= static_cast<double>(row.commands);
    out->classes.push_back(row);
  }
}

void CollectDifferences(const CompareTolerance& tol, Comparison* out) {
  auto add = [&](const char* kind, std::string what, double sim, double hw) {
    out->differences.push_back({kind, std::move(what), sim, hw});
  };
  for (const OpComparison& op : out->ops) {
    if (op.sim_launches != op.hw_launches)
      add("launches", op.op, op.sim_launches, op.hw_launches);
    if (op.matched > 0 && Differs(op.sim_device_ns, op.hw_device_ns, tol)) {
      add("device_time_op", op.op, op.sim_device_ns, op.hw_device_ns);
    }
  }
  for (const ClassComparison& c : out->classes) {
    if (Differs(c.sim_ns, c.hw_ns, tol))
      add("device_time_class", c.engine_class, c.sim_ns, c.hw_ns);
  }
  const analysis::Percentiles& s = out->sim_latency;
  const analysis::Percentiles& h = out->hw_latency;
  for (const auto& [name, sim_ns, hw_ns] :
       {std::tuple{"p50", s.p50_ns, h.p50_ns}, std::tuple{"p90", s.p90_ns, h.p90_ns},
        std::tuple{"p99", s.p99_ns, h.p99_ns}}) {
    if (Differs(static_cast<double>(sim_ns), static_cast<double>(hw_ns), tol)) {
      add("latency", fmt::format("submission latency {}", name), sim_ns, hw_ns);
    }
  }
  if (out->sim_device_events != out->hw_device_events) {
    add("device_events", "device events", out->sim_device_events, out->hw_device_events);
  }
  for (const CountDiff& d : out->event_names)
    add("event_names", d.name, d.sim, d.hw);
  for (const HostComparison& op : out->host_ops) {
    if (op.sim_count != op.hw_count)
      add("host_calls", op.name, op.sim_count, op.hw_count);
    if (op.sim_count > 0 && op.hw_count > 0 && Differs(op.sim_self_ns, op.hw_self_ns, tol)) {
      add("host_self_time", op.name, op.sim_self_ns, op.hw_self_ns);
    }
  }
  for (const CountDiff& d : out->fallbacks)
    add("fallbacks", d.name, d.sim, d.hw);
  for (const CountDiff& d : out->recompiles)
    add("recompiles", d.name, d.sim, d.hw);
}

}  // namespace

double ErrorPct(double sim, double hw) {
  if (hw == 0)
    return sim == 0 ? 0.0 : (sim > 0 ? 100.0 : -100.0);
  return 100.0 * (sim - hw) / hw;
}

Comparison CompareDigests(const TraceDigest& sim,
                          const TraceDigest& hw,
                          const CompareTolerance& tolerance) {
  Comparison out;
  CompareOps(sim, hw, &out);
  std::vector<size_t> all_sim(sim.launches.size());
  std::vector<size_t> all_hw(hw.launches.size());
  for (size_t i = 0; i < all_sim.size(); ++i)
    all_sim[i] = i;
  for (size_t i = 0; i < all_hw.size(); ++i)
    all_hw[i] = i;
  out.sim_latency = LatencyOf(sim, all_sim, &out.sim_latencies_ns);
  out.hw_latency = LatencyOf(hw, all_hw, &out.hw_latencies_ns);
  out.sim_device_events = sim.device_events;
  out.hw_device_events = hw.device_events;
  std::map<std::string, LaneComparison> lanes;
  const auto add_lanes = [&](const TraceDigest& digest, bool captured) {
    for (const auto& [name, total] : digest.lanes) {
      LaneComparison& row = lanes[name];
      row.lane = name;
      row.kind = total.kind;
      (captured ? row.hw_slices : row.sim_slices) = total.slices;
      (captured ? row.hw_ns : row.sim_ns) = total.ns;
    }
  };
  add_lanes(sim, false);
  add_lanes(hw, true);
  for (auto& [name, row] : lanes)
    out.lanes.push_back(std::move(row));
  std::set<std::string> host_names;
  for (const auto& [name, t] : sim.host_ops)
    host_names.insert(name);
  for (const auto& [name, t] : hw.host_ops)
    host_names.insert(name);
  for (const std::string& name : host_names) {
    HostComparison row{name, 0, 0, 0, 0};
    if (auto it = sim.host_ops.find(name); it != sim.host_ops.end()) {
      row.sim_count = it->second.count;
      row.sim_self_ns = it->second.MeanNs();
    }
    if (auto it = hw.host_ops.find(name); it != hw.host_ops.end()) {
      row.hw_count = it->second.count;
      row.hw_self_ns = it->second.MeanNs();
    }
    out.host_ops.push_back(row);
  }
  out.event_names = CountDiffs(sim.device_keys, hw.device_keys);
  out.fallbacks = CountDiffs(sim.fallbacks, hw.fallbacks);
  out.recompiles = CountDiffs(sim.recompiles, hw.recompiles);
  CollectDifferences(tolerance, &out);
  return out;
}

FitError ComputeFitError(const Comparison& c) {
  FitError error;
  double weight = 0;
  for (const OpComparison& op : c.ops) {
    if (op.matched == 0 || op.hw_device_ns <= 0)
      continue;
    const double e = std::abs(ErrorPct(op.sim_device_ns, op.hw_device_ns));
    error.op_device_max_pct = std::max(error.op_device_max_pct, e);
    error.op_device_mean_pct += e * static_cast<double>(op.matched);
    weight += static_cast<double>(op.matched);
  }
  if (weight > 0)
    error.op_device_mean_pct /= weight;
  weight = 0;
  for (const ClassComparison& cls : c.classes) {
    if (cls.hw_ns <= 0)
      continue;
    error.class_device_mean_pct +=
        std::abs(ErrorPct(cls.sim_ns, cls.hw_ns)) * static_cast<double>(cls.commands);
    weight += static_cast<double>(cls.commands);
  }
  if (weight > 0)
    error.class_device_mean_pct /= weight;
  if (c.hw_latency.count > 0) {
    error.latency_p50_pct = std::abs(ErrorPct(static_cast<double>(c.sim_latency.p50_ns),
                                              static_cast<double>(c.hw_latency.p50_ns)));
  }
  double diff = 0;
  double total = 0;
  for (const HostComparison& op : c.host_ops) {
    const double sim_total = op.sim_self_ns * static_cast<double>(op.sim_count);
    const double hw_total = op.hw_self_ns * static_cast<double>(op.hw_count);
    diff += std::abs(sim_total - hw_total);
    total += hw_total;
  }
  error.host_self_pct = total > 0 ? 100.0 * diff / total : 0.0;
  return error;
}

Status CheckSameWorkload(const TraceDigest& simulated,
                         const TraceDigest& captured,
                         const std::string& trace_path) {
  // Input shapes join the op name when every launch on both sides has them (a capture without
  // record_shapes has none).
  bool shapes = true;
  for (const TraceDigest* digest : {&simulated, &captured}) {
    for (const DigestLaunch& l : digest->launches)
      shapes &= !l.input_dims.empty();
  }
  const auto key = [&](const DigestLaunch& l) { return shapes ? l.op + " " + l.input_dims : l.op; };
  std::map<std::string, int64_t> sim_ops;
  std::map<std::string, int64_t> hw_ops;
  for (const DigestLaunch& l : simulated.launches)
    ++sim_ops[key(l)];
  for (const DigestLaunch& l : captured.launches)
    ++hw_ops[key(l)];
  const auto sim_total = static_cast<int64_t>(simulated.launches.size());
  const auto hw_total = static_cast<int64_t>(captured.launches.size());
  if (sim_total == 0 || hw_total == 0)
    return Status::Ok();
  int64_t matched = 0;
  for (const auto& [op, count] : hw_ops) {
    const auto it = sim_ops.find(op);
    if (it != sim_ops.end())
      matched += std::min(count, it->second);
  }
  if (2 * matched >= std::max(sim_total, hw_total))
    return Status::Ok();
  const auto list = [](const std::map<std::string, int64_t>& ops) {
    std::string out;
    for (const auto& [op, count] : ops)
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", op, count);
    return out;
  };
  return Status::Error(fmt::format(
      "{}: the trace does not look like a run of this scenario: launches by op, simulated {{{}}}, "
      "captured {{{}}}, {} in common (--force compares anyway)",
      trace_path, list(sim_ops), list(hw_ops), matched));
}

}  // namespace rblnsim::cli
