// `rblnsim check TRACE`: the PrivateUse1 contract of torch-rbln's alignment test on any trace,
// simulated or captured on an RBLN-CR card, in the version of the trace's dialect (c-abi or
// current, detected from its markers and rows, or forced with --contract).
#ifndef RBLNSIM_TOOLS_RBLNSIM_CHECK_CHECK_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_CHECK_CHECK_COMMAND_H_

#include <string>

#include "tools/rblnsim/lib/reports/contract_pass.h"

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct CheckCommandOptions {
  std::string trace_path;
  std::string json_path;
  ContractFlags contract;
};

void AddCheckCommand(CLI::App* app, CheckCommandOptions* options);
// 0 when every rule holds, 1 with violations, 2 for a trace that cannot be read.
int CheckCommand(const CheckCommandOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_CHECK_CHECK_COMMAND_H_
