// `rblnsim calibrate SCENARIO.yaml TRACE --out overlay.yaml`: fits the model's free parameters to
// a trace captured on an RBLN-CR card and writes them as an overlay for `rblnsim run --overlay`.
//
// Fitted: host per-op costs (host.op_costs, from per-op self CPU times), the submission path
// (host.runtime_submit, device.queue.{doorbell,decode,dispatch}, device.pcie.latency, from the
// rbln_run marker and the submit -> first device start latency) and the per-engine efficiency
// factors (device.{matmul,gce,dma}.efficiency, from per-command device times by engine kind).
// Each candidate is simulated in its own child process (SystemC elaborates once per process):
// closed-form estimates first, then a few refinement runs; the best candidate is written.
#ifndef RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_COMMAND_H_

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct CalibrateOptions {
  std::string scenario_path;
  std::string trace_path;
  std::string out_path;
  std::vector<std::string> sets;
  std::vector<std::string> overlays;
  int refinements = 1;   // simulated refinement rounds after the closed-form candidate
  std::string work_dir;  // keep candidates and child traces here (default: a temp dir, removed)
  bool force = false;    // fit to a trace that does not look like a run of the scenario
};

void AddCalibrateCommand(CLI::App* app, CalibrateOptions* options);
// 0 overlay written, 1 a simulation failed, 2 bad input.
int CalibrateCommand(const CalibrateOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_CALIBRATE_CALIBRATE_COMMAND_H_
