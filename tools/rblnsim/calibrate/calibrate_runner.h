// Simulates calibration candidates: each parameter set becomes an overlay file, and each overlay
// one child process `rblnsim run SCENARIO [--overlay user]... --overlay candidate.yaml [--set ...]
// --trace candidate.json` of this same binary (/proc/self/exe), because SystemC elaborates once
// per process. The child's trace is imported and lined up with the capture exactly as `compare`
// does, so calibrate minimises the errors compare reports.
#ifndef RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_RUNNER_H_
#define RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_RUNNER_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/trace/dialect.h"
#include "tools/rblnsim/calibrate/calibrate_fit.h"

namespace rblnsim::cli {

struct CandidateSpec {
  std::string label;  // "baseline", "probe", ...: shown in the progress lines and file names
  CalibrationParams params;
};

class CandidateSimulator {
 public:
  // |work_dir| must exist; candidates' overlays, traces and logs are written there.
  CandidateSimulator(std::string scenario_path,
                     std::vector<std::string> overlays,
                     std::vector<std::string> sets,
                     const TraceDigest* captured,
                     std::string work_dir,
                     trace::Dialect dialect);

  // Runs the candidates (two at a time: the machine's cores are shared) and returns them in the
  // order given. A child that fails is an error naming its log.
  StatusOr<std::vector<CandidateRun>> Run(const std::vector<CandidateSpec>& candidates);
  int simulations() const { return simulations_; }
  // 128 + N after SIGINT/SIGTERM N stopped a Run (its children were stopped; the error says so),
  // else 0: the exit status calibrate then ends with, as it does between rounds.
  int interrupted_exit() const { return interrupted_exit_; }

 private:
  std::string scenario_path_;
  std::vector<std::string> overlays_;
  std::vector<std::string> sets_;
  const TraceDigest* captured_;
  std::string work_dir_;
  trace::Dialect dialect_;  // the capture's: candidates are simulated through the same seam
  int simulations_ = 0;
  int interrupted_exit_ = 0;
};

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_RUNNER_H_
