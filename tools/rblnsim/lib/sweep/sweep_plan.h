// Expanding a scenario's sweep: block into points. The expansion is deterministic: points come in
// ExpandSweep's canonical order, each is identified by the hash of its own resolved scenario (not
// by its position, so adding values to an axis keeps the other points' keys and results), and its
// seed is derived from that key, never from a shard, the time or a pid. Sharding is round robin
// over the canonical index, the GoogleTest/Bazel convention: shard i of K gets points i, i+K, ...
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_PLAN_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_PLAN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace rblnsim::cli {

using GetEnv = std::function<const char*(const char*)>;

struct SweepInputs {
  std::string scenario_path;
  std::vector<std::string> overlays;
  std::vector<std::string> sets;  // applied before each point's own overrides
  std::optional<uint64_t> seed;   // replaces the scenario's seed (the base of every point's seed)
};

struct SweepPoint {
  size_t index = 0;               // position in the canonical order
  std::vector<std::string> sets;  // the point's --set arguments, one per axis
  std::vector<std::pair<std::string, std::string>> params;  // axis path -> value as written
  std::string key;    // ScenarioHash of the point's resolved scenario, sweep removed
  uint64_t seed = 0;  // DeriveSeed(base seed, key)
  double matmul_flops = 0;
  double peak_flops_per_s = 0;
};

struct SweepPlan {
  std::string scenario_name;
  std::string sweep_id;  // ScenarioHash of the resolved scenario with its sweep: names the sweep
  std::vector<std::string> axes;
  std::vector<SweepPoint> points;
};

// Loads the scenario and every point (as `rblnsim run` would, process environment included, so
// RBLN_PROFILER=1 and a plain run are different points). Bad input, a scenario without a sweep,
// a --set or environment variable that would override a swept key, and two points resolving to
// the same scenario are errors.
StatusOr<SweepPlan> PlanSweep(const SweepInputs& inputs, const GetEnv& getenv);

// A 53-bit seed (exact in JSON doubles) from the base seed and the point key.
uint64_t DeriveSeed(uint64_t base_seed, const std::string& key);

// Indices of the points that shard |shard_index| of |shard_count| runs: i % count == index.
std::vector<size_t> ShardPoints(size_t point_count, int shard_index, int shard_count);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_PLAN_H_
