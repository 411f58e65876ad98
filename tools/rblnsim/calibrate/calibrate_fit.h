// The closed-form steps of `rblnsim calibrate`. Each takes one simulated candidate (its parameters
// and its run lined up with the captured trace) and moves the parameters toward the capture:
//  - efficiencies: a command's device time is linear in 1/efficiency (fixed overhead and HBM-bound
//    parts do not scale: command_timing.cc), so a baseline and a probe run with every efficiency
//    halved give each matched command's slope; the least-squares step over the commands of one
//    engine kind is exact when the model holds;
//  - submission path: in async dispatch the rbln_run marker lasts host.runtime_submit, so its
//    median fixes that; the rest of the submit -> first-device-start residual is spread over
//    doorbell, 2 x pcie latency, decode and dispatch in proportion to their current values (a
//    trace sees only their sum). With RBLN_RUNTIME_FORCE_SYNC=1 the marker also waits for the
//    device, so the whole residual is spread, runtime_submit included;
//  - host costs: each cost key's fixed part and per-element slope move by a robust line through
//    the per-call differences of self time against the call's elements (HostCostStep); the
//    compile-cache miss (host.compile) by the difference of the mean rbln::compile spans.
// The device clock's offset and drift cannot be fitted from a trace: the runtime converts device
// cycles with a two-point least-squares fit (clock_fit.h) that removes both, so the simulator
// shows the same trace whatever they are. ResidualDriftPpm measures what a residual would look
// like (a trend of the latency error over the window) so a card with an imperfect fit shows up.
#ifndef RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_FIT_H_
#define RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_FIT_H_

#include <array>
#include <map>
#include <string>
#include <tuple>

#include "tools/rblnsim/calibrate/calibrate_params.h"
#include "tools/rblnsim/lib/compare/compare_digest.h"
#include "tools/rblnsim/lib/compare/compare_match.h"

namespace rblnsim::cli {

struct CandidateRun {
  CalibrationParams params;
  TraceDigest digest;
  Comparison comparison;  // simulated candidate vs the captured trace
  FitError error;
};

class EfficiencyModel {
 public:
  // |probe| ran with |baseline|'s parameters and every efficiency halved.
  EfficiencyModel(const CandidateRun& baseline, const CandidateRun& probe);

  // Least-squares step in 1/efficiency per engine kind from |from|'s residuals; clamps to (0, 1].
  void Update(const CandidateRun& from, CalibrationParams* params) const;

  // Matched commands whose time depends on the efficiency, per kind.
  int64_t SensitiveCommands(EngineKind kind) const;

 private:
  // (launch pair, command key, occurrence of the key in that launch)
  using CommandId = std::tuple<size_t, std::string, int>;
  struct Slope {
    EngineKind kind = EngineKind::kOther;
    double ns_per_unit = 0;  // d(duration)/d(1/efficiency)
  };
  std::map<CommandId, Slope> slopes_;
  std::array<int64_t, kEngineKindCount> sensitive_{};

  static std::map<CommandId, const CommandPair*> Index(const Comparison& comparison);
};

void FitSubmissionPath(const CandidateRun& from,
                       const TraceDigest& hw,
                       bool force_sync,
                       CalibrationParams* params);
void FitHostCosts(const CandidateRun& from, const TraceDigest& hw, CalibrationParams* params);
void FitCompile(const CandidateRun& from, const TraceDigest& hw, CalibrationParams* params);

// The span a compile-cache miss records, in the host model and in torch-rbln's eager path.
inline constexpr const char* kCompileSpanName = "rbln::compile";

// How one cost key's fixed part and per-element slope should move so its simulated calls meet
// the captured ones: a Theil-Sen line through (elements, captured - simulated self time), one
// point per distinct element count. The slope step never takes |slope_ns| below 0.
struct LineStep {
  double fixed_ns = 0;
  double per_element_ns = 0;
};
LineStep HostCostStep(const HostTime& sim, const HostTime& hw, double slope_ns);

// Slope of (captured - simulated) submission latency over the capture window, in ppm.
double ResidualDriftPpm(const CandidateRun& from, const TraceDigest& hw);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_FIT_H_
