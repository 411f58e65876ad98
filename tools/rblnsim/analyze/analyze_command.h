// `rblnsim analyze TRACE`: the trace-only analyses of any Chrome trace, simulated or captured on
// an RBLN-CR card: hidden host work in torch.rbln.explain()'s layout (CPU fallbacks, recompiles,
// host round trips, the NaN/Inf scan) and submission latency per launch (HTA's launch statistics,
// queue length and idle breakdown on rbln_run / launch_id). With --truth, scores both against the
// simulator's ground truth; with --check, checks the contract first on the same import.
#ifndef RBLNSIM_TOOLS_RBLNSIM_ANALYZE_ANALYZE_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_ANALYZE_ANALYZE_COMMAND_H_

#include <cstdint>
#include <optional>
#include <string>

#include "tools/rblnsim/lib/reports/contract_pass.h"

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct AnalyzeOptions {
  std::string trace_path;
  std::string json_path;
  std::string plots_dir;
  std::string truth_path;
  std::optional<int64_t> outlier_ns;  // default: the p99 submission latency
  int64_t back_to_back_ns = 1000;
  bool check = false;      // also run the contract (check's rules) on the same import
  ContractFlags contract;  // its flags
};

// The "format" version at the head of `analyze --json`; bump it when a key changes meaning or
// goes away (added keys keep the version).
inline constexpr int64_t kAnalyzeJsonFormat = 1;

void AddAnalyzeCommand(CLI::App* app, AnalyzeOptions* options);
// 0 analysed (and, with --truth, everything matched; with --check, every rule held), 1 a
// ground-truth mismatch or a contract violation, 2 bad input.
int AnalyzeCommand(const AnalyzeOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_ANALYZE_ANALYZE_COMMAND_H_
