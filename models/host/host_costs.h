// Host CPU costs of the eager torch-rbln path. Each op costs fixed_ns + per_element_ns × the
// elements it touches, split evenly before and after its children. The defaults are the built-in
// table of scenario/host_op_costs.cc; scenarios override them by ATen name in host.op_costs (the
// fixed part) and host.op_costs_per_element (the slope), and host.jitter perturbs every cost.
#ifndef RBLNSIM_MODELS_HOST_HOST_COSTS_H_
#define RBLNSIM_MODELS_HOST_HOST_COSTS_H_

#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>

#include "scenario/scenario.h"

namespace rblnsim::host {

struct OpCost {
  double fixed_ns = 0.0;
  double per_element_ns = 0.0;
};

// Built-in cost of |name| (scenario/host_op_costs.cc); fixed_ns is -1 for a name without one.
OpCost DefaultOpCost(const std::string& name);

class HostCosts {
 public:
  HostCosts(const scenario::HostConfig& config, uint64_t seed);

  // Self time of |name| touching |elements| elements, with jitter applied.
  double SelfNs(const std::string& name, int64_t elements);
  // A plain duration (e.g. a transfer) with jitter applied.
  double Jitter(double ns);

 private:
  const scenario::HostConfig& config_;
  std::mt19937_64 rng_;
  // Each name's cost with the scenario's override applied, resolved on first use: every
  // simulated op asks, and two ordered-map lookups per ask showed in profiles.
  std::unordered_map<std::string, OpCost> resolved_;
};

}  // namespace rblnsim::host

#endif  // RBLNSIM_MODELS_HOST_HOST_COSTS_H_
