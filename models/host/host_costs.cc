#include "models/host/host_costs.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "scenario/host_op_costs.h"

namespace rblnsim::host {

OpCost DefaultOpCost(const std::string& name) {
  const std::optional<scenario::BuiltInOpCost> cost = scenario::BuiltInHostOpCost(name);
  if (!cost)
    return {-1, 0};
  return {cost->fixed_ns, cost->per_element_ns};
}

HostCosts::HostCosts(const scenario::HostConfig& config, uint64_t seed)
    : config_(config), rng_(seed ^ 0x9e3779b97f4a7c15ULL) {}

double HostCosts::Jitter(double ns) {
  if (config_.jitter <= 0.0 || ns <= 0.0)
    return ns;
  // A uniform multiplicative perturbation with the configured relative stddev; drawn from the
  // engine directly so results do not depend on the library's distribution implementation.
  const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;  // [0, 1)
  const double factor = 1.0 + config_.jitter * std::sqrt(3.0) * (2.0 * u - 1.0);
  return ns * std::max(0.0, factor);
}

double HostCosts::SelfNs(const std::string& name, int64_t elements) {
  auto [slot, inserted] = resolved_.try_emplace(name);
  if (inserted) {
    OpCost cost = DefaultOpCost(name);
    auto it = config_.op_costs.find(name);
    if (it != config_.op_costs.end())
      cost.fixed_ns = it->second.self_ns;
    if (cost.fixed_ns < 0)
      cost.fixed_ns = config_.default_op_ns;
    auto slope = config_.op_costs_per_element_ns.find(name);
    if (slope != config_.op_costs_per_element_ns.end())
      cost.per_element_ns = slope->second;
    slot->second = cost;
  }
  const OpCost& cost = slot->second;
  return Jitter(cost.fixed_ns + cost.per_element_ns * static_cast<double>(elements));
}

}  // namespace rblnsim::host
