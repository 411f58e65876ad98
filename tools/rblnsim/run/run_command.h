// `rblnsim run`: simulate a scenario the way profile_matmul.py runs on an RBLN-CR card and print
// what torch.profiler prints, plus what the real stack cannot show.
#ifndef RBLNSIM_TOOLS_RBLNSIM_RUN_RUN_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_RUN_RUN_COMMAND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct RunOptions {
  std::string scenario_path;
  std::string trace_path = "trace.json";
  bool no_trace = false;  // --no-trace: trace_path is not written
  std::vector<std::string> sets;
  std::vector<std::string> overlays;
  std::optional<uint64_t> seed;
  std::string sort_by = "cpu_time_total";
  int row_limit = 10;
  std::string attribution = "released";
  std::string bridge;  // "current" or "c-abi"; empty: the scenario's workload.bridge
  bool no_expect = false;
  std::string metrics_path;
  std::string truth_path;
  std::string roofline_dir;  // print the roofline report and write roofline.svg here
};

void AddRunCommand(CLI::App* app, RunOptions* options);
// Returns the process exit code: 0 ok, 1 an expectation or the simulation failed, 2 bad input.
int RunCommand(const RunOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_RUN_RUN_COMMAND_H_
