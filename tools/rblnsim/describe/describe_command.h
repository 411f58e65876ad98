// `rblnsim describe SCENARIO.yaml [--set k=v]... [--overlay O.yaml]... [--json]`: the scenario as
// the loader resolved it; `rblnsim describe --parameters [--json]`: the scenario keys themselves
// (scenario/registry.h), as the Markdown tables of scenarios/README.md or as JSON. The JSON form is
// what tools/capture/capture.py turns into the equivalent eager torch program for a real RBLN-CR
// card, so the script never parses YAML or re-implements overlays, --set and validation: the
// simulator and the capture read one workload.
#ifndef RBLNSIM_TOOLS_RBLNSIM_DESCRIBE_DESCRIBE_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_DESCRIBE_DESCRIBE_COMMAND_H_

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct DescribeOptions {
  std::string scenario_path;
  std::vector<std::string> sets;
  std::vector<std::string> overlays;
  bool json = false;
  bool parameters = false;
};

// The "format" of `describe --json`. 2: every registry key under "parameters"; the hand-picked
// "device" object and host.runtime_submit_ns/default_op_cost_ns of format 1 are gone. 3: op and
// graph steps carry the loader's "types"; "parameters" holds the top-level, workload.* and
// sweep.mode keys too.
inline constexpr char kDescribeFormat[] = "rblnsim-describe/3";

void AddDescribeCommand(CLI::App* app, DescribeOptions* options);
// 0 printed, 2 bad input (nothing printed on stdout).
int DescribeCommand(const DescribeOptions& options);

// The JSON document `describe --json` prints (ends with a newline).
std::string DescribeScenarioJson(const scenario::Scenario& scenario);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_DESCRIBE_DESCRIBE_COMMAND_H_
