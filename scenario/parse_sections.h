// The section parsers behind LoadScenario: each turns one top-level key of the merged document
// into its scenario struct, checking keys, types, units and ranges. Internal to the loader.
#ifndef RBLNSIM_SCENARIO_PARSE_SECTIONS_H_
#define RBLNSIM_SCENARIO_PARSE_SECTIONS_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "scenario/canonical.h"
#include "scenario/scenario.h"
#include "scenario/yaml_tree.h"

namespace rblnsim::scenario {

// Limits on executed steps: a repeat count, and steps executed by the whole workload once every
// repeat is unrolled. The simulator keeps every profiled host op, launch and device record until
// the trace is written: 3.5 KB (current dialect) to 4.2 KB (c-abi) per executed device op (plus
// 2.2 to 2.7 KB of trace JSON), so the limit holds a valid scenario near 4 GB instead of letting
// it end in bad_alloc. One repeat may use the whole budget. 2^20: a million launches and their
// warm-up fit.
inline constexpr int64_t kMaxExecutedSteps = 1'048'576;
inline constexpr int64_t kMaxRepeatCount = kMaxExecutedSteps;

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

Status ParseDevice(const YamlNode* node, Scenario* scenario);
Status ParseHost(const YamlNode* node, Scenario* scenario);
Status ParseEnv(const YamlNode* node, Scenario* scenario);
Status ParseNaming(const YamlNode* node, Scenario* scenario);
Status ParseWorkload(const YamlNode* node, Scenario* scenario);
Status ParseExpect(const YamlNode* node, Scenario* scenario);
Status ParseSweep(const YamlNode* node, Scenario* scenario, std::vector<SweepAxisNodes>* axes);

// The document LoadScenarioFromString validates: `text` parsed, overlays merged, sets applied.
StatusOr<YamlNodePtr> MergeDocument(const std::string& text,
                                    const std::string& virtual_path,
                                    const std::vector<std::string>& overlay_paths,
                                    const std::vector<std::string>& set_overrides);
// Applies --set arguments in order and checks the merged size, as MergeDocument does.
StatusOr<YamlNodePtr> ApplySetOverrides(YamlNodePtr root,
                                        const std::vector<std::string>& set_overrides);
// A scenario file's bytes, at most kMaxScenarioFileBytes + 1 of them.
StatusOr<std::string> ReadScenarioFile(const std::string& path);

// Validates only `parts` of a merged document into *scenario, each from its defaults; the other
// parts of *scenario are left as they are. Sections do not depend on each other, so a sweep point
// re-reads just the parts its keys touch.
Status ValidateParts(const YamlNodePtr& root,
                     const std::vector<ScenarioPart>& parts,
                     Scenario* scenario,
                     std::vector<SweepAxisNodes>* sweep_axes);

// Validates a merged document (all sections) into a Scenario. `source_path` is recorded as is.
StatusOr<Scenario> ValidateDocument(const YamlNodePtr& root,
                                    const std::string& source_path,
                                    std::vector<SweepAxisNodes>* sweep_axes);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_PARSE_SECTIONS_H_
