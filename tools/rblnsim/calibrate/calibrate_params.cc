#include "tools/rblnsim/calibrate/calibrate_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/host/host_costs.h"
#include "scenario/limits.h"

namespace rblnsim::cli {

namespace {

std::string Ns(double ns) {
  return fmt::format("{:.1f}ns", std::max(0.0, ns));
}

// The loader accepts efficiencies in [kMinEfficiency, 1], so a fitted overlay always loads back;
// six decimals keep a fitted 0.85 readable.
std::string Efficiency(double value) {
  return fmt::format("{:.6f}", std::clamp(value, scenario::kMinEfficiency, 1.0));
}

}  // namespace

double* CalibrationParams::Efficiency(EngineKind kind) {
  switch (kind) {
    case EngineKind::kMatmul:
      return &matmul_efficiency;
    case EngineKind::kGce:
      return &gce_efficiency;
    case EngineKind::kDma:
      return &dma_efficiency;
    default:
      return nullptr;
  }
}

double CalibrationParams::EfficiencyOf(EngineKind kind) const {
  switch (kind) {
    case EngineKind::kMatmul:
      return matmul_efficiency;
    case EngineKind::kGce:
      return gce_efficiency;
    case EngineKind::kDma:
      return dma_efficiency;
    default:
      return 1.0;
  }
}

CalibrationParams ParamsFromScenario(const scenario::Scenario& s,
                                     const std::set<std::string>& cost_keys) {
  CalibrationParams p;
  p.matmul_efficiency = s.device.matmul_efficiency;
  p.gce_efficiency = s.device.gce_efficiency;
  p.dma_efficiency = s.device.dma_efficiency;
  p.runtime_submit_ns = s.host.runtime_submit_ns;
  p.doorbell_ns = s.device.doorbell_ns;
  p.pcie_latency_ns = s.device.pcie_latency_ns;
  p.decode_ns = s.device.decode_ns;
  p.dispatch_ns = s.device.dispatch_ns;
  p.clock_offset_ns = s.device.clock_offset_ns;
  p.clock_drift_ppm = s.device.clock_drift_ppm;
  for (const std::string& key : cost_keys) {
    double fixed_ns = host::DefaultOpCost(key).fixed_ns;
    const auto set = s.host.op_costs.find(key);
    if (set != s.host.op_costs.end())
      fixed_ns = set->second.self_ns;
    p.op_costs_ns[key] = fixed_ns >= 0 ? fixed_ns : s.host.default_op_ns;
  }
  return p;
}

std::string OverlayYaml(const CalibrationParams& p, const std::string& comment) {
  std::string text;
  size_t start = 0;
  while (start < comment.size()) {
    const size_t end = std::min(comment.find('\n', start), comment.size());
    text += "# " + comment.substr(start, end - start) + "\n";
    start = end + 1;
  }
  text += "device:\n";
  text += fmt::format("  matmul: {{efficiency: {}}}\n", Efficiency(p.matmul_efficiency));
  text += fmt::format("  gce: {{efficiency: {}}}\n", Efficiency(p.gce_efficiency));
  text += fmt::format("  dma: {{efficiency: {}}}\n", Efficiency(p.dma_efficiency));
  text += fmt::format("  pcie: {{latency: {}}}\n", Ns(p.pcie_latency_ns));
  text += fmt::format("  queue: {{doorbell: {}, decode: {}, dispatch: {}}}\n", Ns(p.doorbell_ns),
                      Ns(p.decode_ns), Ns(p.dispatch_ns));
  // Signed: an offset may be negative.
  text += fmt::format("  profiler: {{clock_offset: {:.1f}ns, clock_drift_ppm: {:.3f}}}\n",
                      p.clock_offset_ns, std::clamp(p.clock_drift_ppm, -1000.0, 1000.0));
  text += "host:\n";
  text += fmt::format("  runtime_submit: {}\n", Ns(p.runtime_submit_ns));
  if (!p.op_costs_ns.empty()) {
    text += "  op_costs:\n";
    for (const auto& [key, ns] : p.op_costs_ns)
      text += fmt::format("    \"{}\": {}\n", key, Ns(ns));
  }
  return text;
}

}  // namespace rblnsim::cli
