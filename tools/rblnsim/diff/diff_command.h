// `rblnsim diff BASE NEW`: what changed between two traces rblnsim reads (simulated or captured
// on a card, either dialect, plain or gzip) — operators, launches, hidden host work, device time
// per class and command family — with the runs aligned by op sequence, and a --fail-on gate for
// CI. Each trace is imported, indexed and summarised in turn and freed before the next is read.
#ifndef RBLNSIM_TOOLS_RBLNSIM_DIFF_DIFF_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_DIFF_DIFF_COMMAND_H_

#include <cstddef>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/diff/trace_summary.h"

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct DiffOptions {
  std::string base_path;
  std::string new_path;
  std::string json_path;
  std::string markdown_path;
  std::string plots_dir;
  std::vector<std::string> fail_on;  // rules (diff_gate.h)
  size_t rows = 20;                  // per table in the terminal and markdown reports
};

void AddDiffCommand(CLI::App* app, DiffOptions* options);
// 0 compared (gate passed or none given), 1 a --fail-on rule was violated, 2 bad input.
int DiffCommand(const DiffOptions& options);

// Imports |path| keeping the args the analyses read, and summarises it; errors name the path.
StatusOr<diff::TraceSummary> SummarizeTraceFile(const std::string& path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_DIFF_DIFF_COMMAND_H_
