// What `rblnsim calibrate` prints: a header naming the scenario and the capture, one progress line
// per simulated candidate with its error, the parameters before and after, the error before and
// after, and the comment block at the top of the written overlay.
#ifndef RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_REPORT_H_
#define RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_REPORT_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "scenario/scenario.h"
#include "tools/rblnsim/calibrate/calibrate_fit.h"
#include "tools/rblnsim/lib/compare/capture_context.h"

namespace rblnsim::cli {

// "device time per op 2.51% (worst 2.51%), per command class 1.57%, submission latency p50
// 5.82%, host self time 23.08%"
std::string FormatFitError(const FitError& error);

class CalibrationReport {
 public:
  CalibrationReport(const scenario::Scenario& scenario,
                    const CaptureContext& context,
                    std::string trace_path);

  std::string Header() const;
  // Printed as each candidate finishes, so a slow calibration shows where it is.
  void Progress(const std::string& label, const CandidateRun& run) const;
  // How many matched commands the probe showed to depend on each efficiency.
  void ProbeLine(const EfficiencyModel& model) const;
  // Prints |status| on stderr; returns the exit code: 1 when a simulation failed, or
  // |interrupted_exit| (128 + the signal) when a signal stopped the simulations.
  int Fail(const Status& status, int interrupted_exit) const;

  std::string OverlayComment(const CandidateRun& before,
                             const CandidateRun& after,
                             double drift_ppm) const;
  std::string Summary(const CandidateRun& before,
                      const CandidateRun& after,
                      double drift_ppm,
                      int simulations,
                      const std::string& out_path) const;

 private:
  const scenario::Scenario& scenario_;
  const CaptureContext& context_;
  std::string trace_path_;
};

// How the fit's objective moved round by round (baseline, closed form, refinements) and whether
// the last round still moved it: "convergence: 45.20 -> 3.10 -> 2.95; the last round changed it
// by 4.8%: converged". Above kConvergedChangePct the fit had not settled: more --refinements.
inline constexpr double kConvergedChangePct = 5.0;
std::string ConvergenceLine(const std::vector<CandidateRun>& runs);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_REPORT_H_
