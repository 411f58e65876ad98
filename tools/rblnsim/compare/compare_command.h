// `rblnsim compare SCENARIO.yaml TRACE`: simulates the scenario in this process and lines its run
// up with a trace captured on an RBLN-CR card, launch by launch: device time per launching op and
// per command class, submission latency percentiles side by side, event counts and names that
// differ, and the fallbacks and recompiles found in one run and not the other.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_COMMAND_H_

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct CompareOptions {
  std::string scenario_path;
  std::string trace_path;
  std::string json_path;
  std::string plots_dir;
  std::vector<std::string> sets;
  std::vector<std::string> overlays;
  double tolerance_pct = 2.0;
  bool force = false;  // compare a trace that does not look like a run of the scenario
};

void AddCompareCommand(CLI::App* app, CompareOptions* options);
// 0 compared (differences are reported, not failures), 1 the simulation failed, 2 bad input.
int CompareCommand(const CompareOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_COMMAND_H_
