// `rblnsim sweep SCENARIO --out DIR`: runs the points of a scenario's sweep: block (this shard's
// share of them), each as its own `rblnsim run` process, and writes one result file per point
// to DIR/points/<key>.json. `rblnsim merge DIR` then assembles the table and plots.
#ifndef RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_COMMAND_H_
#define RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_COMMAND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rblnsim::cli {

struct SweepOptions {
  std::string scenario_path;
  std::string out_dir;
  std::optional<int> jobs;  // default: the CPUs this process may use
  std::optional<int> shard_index;
  std::optional<int> shard_count;
  bool skip_existing = false;
  bool traces = false;  // keep each point's Chrome trace in DIR/traces/
  std::vector<std::string> sets;
  std::vector<std::string> overlays;
  std::optional<uint64_t> seed;
};

void AddSweepCommand(CLI::App* app, SweepOptions* options);
// 0 when every point of the shard succeeded (or was skipped), 1 when some failed, 2 for bad
// input, 128 + N when signal N interrupted the sweep.
int SweepCommand(const SweepOptions& options);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_COMMAND_H_
