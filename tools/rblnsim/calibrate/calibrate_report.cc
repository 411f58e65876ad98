#include "tools/rblnsim/calibrate/calibrate_report.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

namespace rblnsim::cli {

namespace {

std::string Ns(double ns) {
  return fmt::format("{:.1f}ns", ns);
}

void Row(std::string* out,
         const std::string& key,
         const std::string& before,
         const std::string& after) {
  *out += fmt::format("  {:<40} {:>14} -> {:<14}{}\n", key, before, after,
                      before == after ? "" : "  *");
}

}  // namespace

std::string FormatFitError(const FitError& e) {
  return fmt::format(
      "device time per op {:.2f}% (worst {:.2f}%), per command class {:.2f}%, submission latency "
      "p50 {:.2f}%, host self time {:.2f}%",
      e.op_device_mean_pct, e.op_device_max_pct, e.class_device_mean_pct, e.latency_p50_pct,
      e.host_self_pct);
}

CalibrationReport::CalibrationReport(const scenario::Scenario& scenario,
                                     const CaptureContext& context,
                                     std::string trace_path)
    : scenario_(scenario), context_(context), trace_path_(std::move(trace_path)) {}

std::string CalibrationReport::Header() const {
  return fmt::format("rblnsim calibrate: scenario {} (hash {}) against {}\n{}", scenario_.name,
                     context_.scenario_hash, trace_path_, DescribeCaptureContext(context_));
}

void CalibrationReport::Progress(const std::string& label, const CandidateRun& run) const {
  std::printf("  %-34s %s\n", label.c_str(), FormatFitError(run.error).c_str());
  std::fflush(stdout);
}

void CalibrationReport::ProbeLine(const EfficiencyModel& model) const {
  std::printf("  %-34s commands that scale with efficiency: matmul %lld, gce %lld, dma %lld\n",
              "probe (every efficiency halved)",
              static_cast<long long>(model.SensitiveCommands(EngineKind::kMatmul)),
              static_cast<long long>(model.SensitiveCommands(EngineKind::kGce)),
              static_cast<long long>(model.SensitiveCommands(EngineKind::kDma)));
  std::fflush(stdout);
}

int CalibrationReport::Fail(const Status& status, int interrupted_exit) const {
  std::fprintf(stderr, "rblnsim: %s\n", status.message().c_str());
  return interrupted_exit != 0 ? interrupted_exit : 1;
}

std::string CalibrationReport::OverlayComment(const CandidateRun& before,
                                              const CandidateRun& after,
                                              double drift_ppm) const {
  return fmt::format(
      "rblnsim calibrate: scenario {} (hash {}) fitted to {}\n"
      "error before: {}\n"
      "error after:  {}\n"
      "device.profiler: kept; the runtime's clock fit removes offset and drift (residual trend "
      "{:+.2f} ppm)\n"
      "use: rblnsim run {} --overlay THIS_FILE",
      scenario_.name, context_.scenario_hash, trace_path_, FormatFitError(before.error),
      FormatFitError(after.error), drift_ppm, scenario_.source_path);
}

std::string CalibrationReport::Summary(const CandidateRun& before,
                                       const CandidateRun& after,
                                       double drift_ppm,
                                       int simulations,
                                       const std::string& out_path) const {
  const CalibrationParams& b = before.params;
  const CalibrationParams& a = after.params;
  std::string out =
      fmt::format("\nparameters (scenario -> fitted; * changed), {} simulations:\n", simulations);
  const CalibrationKey* offset = nullptr;
  const CalibrationKey* drift = nullptr;
  for (const CalibrationKey& key : CalibrationKeys()) {
    if (key.fitted) {
      Row(&out, std::string(key.path), CalibrationValueText(key, b.*key.member),
          CalibrationValueText(key, a.*key.member));
    } else if (key.member == &CalibrationParams::clock_offset_ns) {
      offset = &key;
    } else if (key.member == &CalibrationParams::clock_drift_ppm) {
      drift = &key;
    }
  }
  for (const auto& [key, ns] : a.op_costs_ns) {
    const auto old = b.op_costs_ns.find(key);
    Row(&out, std::string(OpCostsPath()) + "." + key,
        old == b.op_costs_ns.end() ? "-" : Ns(old->second), Ns(ns));
  }
  for (const auto& [key, ns] : a.op_costs_per_element_ns) {
    const auto old = b.op_costs_per_element_ns.find(key);
    Row(&out, std::string(OpCostsPerElementPath()) + "." + key,
        fmt::format("{:.4f}ns", old == b.op_costs_per_element_ns.end() ? 0.0 : old->second),
        fmt::format("{:.4f}ns", ns));
  }
  out += fmt::format(
      "clock: {} {} and {} {} kept: the runtime converts device cycles with a two-point clock fit "
      "that removes both, so a trace cannot show them; residual trend of the latency error over "
      "the window: {:+.2f} ppm\n",
      offset->path, CalibrationValueText(*offset, a.clock_offset_ns), drift->path,
      CalibrationValueText(*drift, a.clock_drift_ppm), drift_ppm);
  // A factor above 1 means the configured peak is too low for this card: said, not hidden.
  for (EngineKind kind : {EngineKind::kMatmul, EngineKind::kGce, EngineKind::kDma}) {
    const double fitted = a.EfficiencyOf(kind);
    if (fitted > 1.0) {
      out += fmt::format(
          "the card beats the model's peak on {} by {:.1f}% (efficiency {:.3f} > 1): the "
          "configured peak rate is too low for this card, or the model charges it work it does "
          "not do\n",
          EngineKindName(kind), (fitted - 1.0) * 100.0, fitted);
    }
  }
  out += fmt::format("\nerror before: {}\nerror after:  {}\n", FormatFitError(before.error),
                     FormatFitError(after.error));
  out += fmt::format("overlay written to {} (use: rblnsim run {} --overlay {})\n", out_path,
                     scenario_.source_path, out_path);
  return out;
}

std::string ConvergenceLine(const std::vector<CandidateRun>& runs) {
  if (runs.size() < 2)
    return "";
  std::string path;
  for (const CandidateRun& run : runs)
    path += fmt::format("{}{:.2f}", path.empty() ? "" : " -> ", run.error.Objective());
  const double last = runs.back().error.Objective();
  const double previous = runs[runs.size() - 2].error.Objective();
  const double change_pct =
      previous > 0 ? 100.0 * std::abs(last - previous) / previous : (last > 0 ? 100.0 : 0.0);
  const bool settled = change_pct <= kConvergedChangePct || last < 0.5;
  return fmt::format(
      "convergence (objective = device per op + per class + latency p50 + half host self, %): "
      "{}; the last round changed it by {:.1f}%: {}\n",
      path, change_pct, settled ? "converged" : "not converged yet (raise --refinements)");
}

}  // namespace rblnsim::cli
