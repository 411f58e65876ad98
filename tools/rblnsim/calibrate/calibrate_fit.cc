#include "tools/rblnsim/calibrate/calibrate_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "scenario/limits.h"

namespace rblnsim::cli {

namespace {

// Below this the commands do not depend on the efficiency (overhead- or HBM-bound): keep it.
constexpr double kMinSensitivityNs2 = 1.0;

double MedianMarkerNs(const TraceDigest& digest) {
  std::vector<int64_t> durations;
  for (const DigestLaunch& l : digest.launches) {
    if (l.has_device())
      durations.push_back(l.marker_dur_ns);
  }
  if (durations.empty())
    return 0;
  std::nth_element(durations.begin(), durations.begin() + static_cast<long>(durations.size() / 2),
                   durations.end());
  return static_cast<double>(durations[durations.size() / 2]);
}

// The calls of one cost key as (elements, captured - simulated self time) points. When both sides
// made the same calls in the same order (the same elements call by call) each call is a point;
// otherwise the calls are grouped by elements and each group present on both sides gives one
// point, the difference of its medians. Without per-call times (a digest made by hand) the
// difference of the means is one point.
std::vector<std::pair<int64_t, double>> CallResiduals(const HostTime& sim, const HostTime& hw) {
  std::vector<std::pair<int64_t, double>> points;
  const auto has_calls = [](const HostTime& t) {
    return !t.calls_ns.empty() && t.calls_elements.size() == t.calls_ns.size();
  };
  if (!has_calls(sim) || !has_calls(hw)) {
    points.emplace_back(0, hw.MedianNs() - sim.MedianNs());
    return points;
  }
  if (sim.calls_elements == hw.calls_elements) {
    for (size_t i = 0; i < sim.calls_ns.size(); ++i)
      points.emplace_back(sim.calls_elements[i], hw.calls_ns[i] - sim.calls_ns[i]);
    return points;
  }
  std::map<int64_t, std::pair<std::vector<double>, std::vector<double>>> groups;
  for (size_t i = 0; i < sim.calls_ns.size(); ++i)
    groups[sim.calls_elements[i]].first.push_back(sim.calls_ns[i]);
  for (size_t i = 0; i < hw.calls_ns.size(); ++i)
    groups[hw.calls_elements[i]].second.push_back(hw.calls_ns[i]);
  for (auto& [elements, calls] : groups) {
    if (!calls.first.empty() && !calls.second.empty())
      points.emplace_back(elements,
                          MedianOf(std::move(calls.second)) - MedianOf(std::move(calls.first)));
  }
  if (points.empty())  // no shape in common: compare the typical calls
    points.emplace_back(0, hw.MedianNs() - sim.MedianNs());
  return points;
}

bool HasEfficiency(EngineKind kind) {
  return kind == EngineKind::kMatmul || kind == EngineKind::kGce || kind == EngineKind::kDma;
}

}  // namespace

LineStep HostCostStep(const HostTime& sim, const HostTime& hw, double slope_ns) {
  const std::vector<std::pair<int64_t, double>> points = CallResiduals(sim, hw);
  // One residual per distinct element count (the median of its calls), so a shape called often
  // does not outvote the others and a first call that compiled is one call among its shape's.
  std::map<int64_t, std::vector<double>> by_elements;
  for (const auto& [elements, residual] : points)
    by_elements[elements].push_back(residual);
  std::vector<std::pair<double, double>> line;
  for (auto& [elements, residuals] : by_elements)
    line.emplace_back(static_cast<double>(elements), MedianOf(std::move(residuals)));
  // Theil-Sen: the median of the pairwise slopes, robust to a minority of bad points, then the
  // median intercept. Never a negative per-element cost.
  std::vector<double> slopes;
  for (size_t i = 0; i < line.size(); ++i) {
    for (size_t j = i + 1; j < line.size(); ++j)
      slopes.push_back((line[j].second - line[i].second) / (line[j].first - line[i].first));
  }
  LineStep step;
  step.per_element_ns = std::max(MedianOf(std::move(slopes)), -slope_ns);
  std::vector<double> intercepts;
  for (const auto& [elements, residual] : points)
    intercepts.push_back(residual - step.per_element_ns * static_cast<double>(elements));
  step.fixed_ns = MedianOf(std::move(intercepts));
  return step;
}

std::map<EfficiencyModel::CommandId, const CommandPair*> EfficiencyModel::Index(
    const Comparison& c) {
  std::map<CommandId, const CommandPair*> index;
  std::map<std::pair<size_t, std::string>, int> seen;
  for (const CommandPair& command : c.commands) {
    const int occurrence = seen[{command.launch_pair, command.key}]++;
    index[{command.launch_pair, command.key, occurrence}] = &command;
  }
  return index;
}

EfficiencyModel::EfficiencyModel(const CandidateRun& baseline, const CandidateRun& probe) {
  const auto base = Index(baseline.comparison);
  const auto halved = Index(probe.comparison);
  for (const auto& [id, command] : base) {
    const auto other = halved.find(id);
    if (other == halved.end() || !HasEfficiency(command->kind))
      continue;
    const double dx = 1.0 / probe.params.EfficiencyOf(command->kind) -
                      1.0 / baseline.params.EfficiencyOf(command->kind);
    if (dx <= 0)
      continue;
    const double slope = static_cast<double>(other->second->sim_ns - command->sim_ns) / dx;
    slopes_[id] = {command->kind, slope};
    if (slope > 0.5)
      ++sensitive_[static_cast<size_t>(command->kind)];
  }
}

int64_t EfficiencyModel::SensitiveCommands(EngineKind kind) const {
  return sensitive_[static_cast<size_t>(kind)];
}

void EfficiencyModel::Update(const CandidateRun& from, CalibrationParams* params) const {
  std::array<double, kEngineKindCount> bb{};
  std::array<double, kEngineKindCount> br{};
  for (const auto& [id, command] : Index(from.comparison)) {
    const auto slope = slopes_.find(id);
    if (slope == slopes_.end())
      continue;
    const size_t k = static_cast<size_t>(slope->second.kind);
    const double b = slope->second.ns_per_unit;
    bb[k] += b * b;
    br[k] += b * static_cast<double>(command->hw_ns - command->sim_ns);
  }
  for (EngineKind kind : {EngineKind::kMatmul, EngineKind::kGce, EngineKind::kDma}) {
    const size_t k = static_cast<size_t>(kind);
    double* efficiency = params->Efficiency(kind);
    if (bb[k] < kMinSensitivityNs2)
      continue;
    const double x = 1.0 / from.params.EfficiencyOf(kind) + br[k] / bb[k];
    // x < 1 is an efficiency above 1: the card beats the model's peak. That is fitted (up to the
    // key's range) and reported, never hidden by holding the factor at 1.
    *efficiency =
        1.0 / std::clamp(x, 1.0 / scenario::kMaxEfficiency, 1.0 / scenario::kMinEfficiency);
  }
}

void FitSubmissionPath(const CandidateRun& from,
                       const TraceDigest& hw,
                       bool force_sync,
                       CalibrationParams* p) {
  const CalibrationParams& at = from.params;
  double submit_step = 0;
  if (!force_sync) {
    p->runtime_submit_ns =
        std::max(0.0, at.runtime_submit_ns + MedianMarkerNs(hw) - MedianMarkerNs(from.digest));
    submit_step = p->runtime_submit_ns - at.runtime_submit_ns;
  }
  if (from.comparison.hw_latency.count == 0 || from.comparison.sim_latency.count == 0)
    return;
  const double residual = static_cast<double>(from.comparison.hw_latency.p50_ns) -
                          static_cast<double>(from.comparison.sim_latency.p50_ns) - submit_step;
  double total = at.doorbell_ns + 2 * at.pcie_latency_ns + at.decode_ns + at.dispatch_ns;
  if (force_sync)
    total += at.runtime_submit_ns;
  if (total <= 0) {
    p->pcie_latency_ns = std::max(0.0, at.pcie_latency_ns + residual / 2);
    return;
  }
  const double scale = std::max(0.0, 1.0 + residual / total);
  p->doorbell_ns = at.doorbell_ns * scale;
  p->pcie_latency_ns = at.pcie_latency_ns * scale;
  p->decode_ns = at.decode_ns * scale;
  p->dispatch_ns = at.dispatch_ns * scale;
  if (force_sync)
    p->runtime_submit_ns = at.runtime_submit_ns * scale;
}

void FitHostCosts(const CandidateRun& from, const TraceDigest& hw, CalibrationParams* p) {
  for (auto& [key, ns] : p->op_costs_ns) {
    const auto sim = from.digest.host_keys.find(key);
    const auto captured = hw.host_keys.find(key);
    const auto current = from.params.op_costs_ns.find(key);
    if (sim == from.digest.host_keys.end() || captured == hw.host_keys.end() ||
        current == from.params.op_costs_ns.end() || sim->second.count == 0 ||
        captured->second.count == 0) {
      continue;
    }
    const auto slope_at = from.params.op_costs_per_element_ns.find(key);
    const double slope =
        slope_at == from.params.op_costs_per_element_ns.end() ? 0.0 : slope_at->second;
    const LineStep step = HostCostStep(sim->second, captured->second, slope);
    ns = std::max(0.0, current->second + step.fixed_ns);
    if (step.per_element_ns != 0.0 || slope != 0.0)
      p->op_costs_per_element_ns[key] = slope + step.per_element_ns;
  }
}

void FitCompile(const CandidateRun& from, const TraceDigest& hw, CalibrationParams* p) {
  const auto sim = from.digest.host_ops.find(kCompileSpanName);
  const auto captured = hw.host_ops.find(kCompileSpanName);
  if (sim == from.digest.host_ops.end() || captured == hw.host_ops.end() ||
      sim->second.count == 0 || captured->second.count == 0) {
    return;
  }
  // Every compile span is a whole cache miss: the mean is the cost, no outlier to reject.
  p->compile_ns =
      std::max(0.0, from.params.compile_ns + captured->second.MeanNs() - sim->second.MeanNs());
}

double ResidualDriftPpm(const CandidateRun& from, const TraceDigest& hw) {
  std::vector<std::pair<double, double>> points;  // (time since the first launch, latency error)
  for (const LaunchPair& pair : from.comparison.launch_pairs) {
    const DigestLaunch& h = hw.launches[pair.hw];
    const DigestLaunch& s = from.digest.launches[pair.sim];
    if (!h.has_device() || !s.has_device())
      continue;
    points.emplace_back(static_cast<double>(h.marker_start_ns),
                        static_cast<double>(h.latency_ns() - s.latency_ns()));
  }
  if (points.size() < 3)
    return 0;
  double mean_t = 0;
  double mean_r = 0;
  for (const auto& [t, r] : points) {
    mean_t += t;
    mean_r += r;
  }
  mean_t /= static_cast<double>(points.size());
  mean_r /= static_cast<double>(points.size());
  double cov = 0;
  double var = 0;
  for (const auto& [t, r] : points) {
    cov += (t - mean_t) * (r - mean_r);
    var += (t - mean_t) * (t - mean_t);
  }
  return var > 0 ? cov / var * 1e6 : 0;
}

}  // namespace rblnsim::cli
