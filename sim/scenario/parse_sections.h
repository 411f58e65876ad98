// The section parsers behind LoadScenario: each turns one top-level key of the merged document
// into its scenario struct, checking keys, types, units and ranges. Internal to the loader.
#ifndef RBLNSIM_SIM_SCENARIO_PARSE_SECTIONS_H_
#define RBLNSIM_SIM_SCENARIO_PARSE_SECTIONS_H_

#include <string>
#include <vector>

#include "profiler/base/status.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_tree.h"

namespace rblnsim::scenario {

// Limits on executed steps: a repeat count, and steps executed by the whole workload once every
// repeat is unrolled (the simulator runs each one).
inline constexpr int64_t kMaxRepeatCount = 10'000'000;
inline constexpr int64_t kMaxExecutedSteps = 20'000'000;

// Sweep limits keep expansion and per-value validation cheap.
inline constexpr int kMaxSweepAxes = 16;
inline constexpr int kMaxSweepValuesPerAxis = 1000;
inline constexpr int64_t kMaxSweepPoints = 100'000;

// A sweep axis with its value nodes, so the loader can validate each value in place.
struct SweepAxisNodes {
  const YamlNode* key = nullptr;
  std::string path;
  std::vector<YamlNodePtr> values;
};

// An ATen op name used as a key (host.op_costs, expect.op_calls): must be in KnownAtenNames().
Status CheckAtenName(const YamlNode& key, const std::string& path);

Status ParseDevice(const YamlNode* node, DeviceConfig* device);
Status ParseHost(const YamlNode* node, HostConfig* host);
Status ParseEnv(const YamlNode* node, EnvConfig* env);
Status ParseNaming(const YamlNode* node, Naming* naming);
Status ParseWorkload(const YamlNode* node, Workload* workload);
Status ParseExpect(const YamlNode* node, Expect* expect);
Status ParseSweep(const YamlNode* node, Sweep* sweep, std::vector<SweepAxisNodes>* axes);

// Validates a merged document (all sections) into a Scenario. `source_path` is recorded as is.
StatusOr<Scenario> ValidateDocument(const YamlNodePtr& root,
                                    const std::string& source_path,
                                    std::vector<SweepAxisNodes>* sweep_axes);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SIM_SCENARIO_PARSE_SECTIONS_H_
