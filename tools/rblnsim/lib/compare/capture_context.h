// The scenario a captured trace is compared with or calibrated against, resolved as the capture
// ran it. tools/capture/capture.py writes metadata.json beside trace.json with the environment
// the card's process had; its TORCH_RBLN_DEPLOY, RBLN_RUNTIME_FORCE_SYNC and RBLN_PROFILER_DIR
// replace the scenario's env: values, so the simulation runs what ran on the card rather than
// what the shell running rblnsim happens to have. The profiler is always on: a trace without
// device activity has nothing to compare.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_CAPTURE_CONTEXT_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_CAPTURE_CONTEXT_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "scenario/scenario.h"

namespace rblnsim::cli {

struct CaptureContext {
  scenario::Scenario scenario;
  std::string metadata_path;  // "" when the trace has no metadata.json beside it
  std::string card_name;      // from metadata.json
  std::string torch_rbln_version;
  std::string captured_hash;               // the scenario hash the capture recorded
  std::vector<std::string> captured_sets;  // capture.py's --set values (and sweep point)
  std::string scenario_hash;  // ScenarioHash of the scenario loaded here (before env changes)
};

// Loads the scenario with overlays and --set values, then applies metadata.json (if present next
// to |trace_path|) and turns the profiler on. A malformed metadata.json is bad input.
StatusOr<CaptureContext> ResolveCaptureContext(const std::string& scenario_path,
                                               const std::vector<std::string>& overlays,
                                               const std::vector<std::string>& sets,
                                               const std::string& trace_path);

// One line describing the capture ("capture: RBLN-CR13, torch-rbln 0.12.0, TORCH_RBLN_DEPLOY=OFF,
// ..."), plus a note when the recorded scenario hash differs from the one loaded here.
std::string DescribeCaptureContext(const CaptureContext& context);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_COMPARE_CAPTURE_CONTEXT_H_
