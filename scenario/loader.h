// Loading a scenario: read the YAML file, deep-merge overlay files and --set overrides into it,
// then validate the result once, so every source obeys the same rules and every error is one line
// "file:line:column: message" (or "--set <text>: message") pointing at the offending node.
#ifndef RBLNSIM_SCENARIO_LOADER_H_
#define RBLNSIM_SCENARIO_LOADER_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "scenario/scenario.h"

namespace rblnsim::scenario {

// Scenario and overlay files above this size are rejected before parsing. Real scenarios are a few
// KB (repeat keeps even long workloads short). yaml-cpp needs up to ~0.7 s and ~100 MB per MiB of
// token-dense input, so the cap keeps a hostile file well under a second and 256 MB.
inline constexpr size_t kMaxScenarioFileBytes = size_t{256} << 10;

// Loads `path`, merges `overlay_paths` in order (maps key by key, later wins; a null value
// deletes a key), applies `set_overrides` ("device.queue.depth=16"; the value is YAML), and
// validates. Sweep values are each checked as if applied with --set.
StatusOr<Scenario> LoadScenario(const std::string& path,
                                const std::vector<std::string>& overlay_paths = {},
                                const std::vector<std::string>& set_overrides = {});

// The same for text already in memory; `virtual_path` names it in errors and source_path.
StatusOr<Scenario> LoadScenarioFromString(const std::string& text,
                                          const std::string& virtual_path,
                                          const std::vector<std::string>& overlay_paths = {},
                                          const std::vector<std::string>& set_overrides = {});

// Whether every op and graph step carries the types the loader resolves (Step::types).
bool WorkloadTyped(const Workload& workload);

// Types a workload built in code (tests, benchmarks) the one way the loader does: by loading its
// canonical form and copying the resolved types onto its steps; everything else, source
// locations included, is kept. Fails with the loader's error when the workload would not load.
Status TypeWorkload(Workload* workload);

// The --set arguments of every sweep point, in a fixed order: grid is the cartesian product with
// the last axis varying fastest; zip pairs the i-th values. Empty when there is no sweep. Load a
// point with LoadScenario(path, overlays, sets + point) and identify it by ScenarioHash.
std::vector<std::vector<std::string>> ExpandSweep(const Sweep& sweep);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_LOADER_H_
