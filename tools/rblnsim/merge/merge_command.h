// `rblnsim merge DIR [DIR...]`: gathers the point files that `rblnsim sweep` shards wrote into
// one or more directories (de-duplicated by key), and writes into the first DIR results.csv,
// results.jsonl and plots/*.svg, in the sweep's canonical order, reporting missing and failed
// points.
#ifndef RBLNSIM_TOOLS_RBLNSIM_MERGE_MERGE_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_MERGE_MERGE_COMMAND_H_

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct MergeOptions {
  std::vector<std::string> dirs;
  bool no_plots = false;
};

void AddMergeCommand(CLI::App* app, MergeOptions* options);
// 0 when every point of the sweep has a successful result, 1 when some are missing or failed
// (the outputs still hold every successful point), 2 for bad input.
int MergeCommand(const MergeOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_MERGE_MERGE_COMMAND_H_
