#include "models/host/host_costs.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rblnsim::host {

OpCost DefaultOpCost(const std::string& name) {
  // fixed ns, ns per element. The NaN/Inf scan ops scale with the tensor; dispatch layers do not.
  static const std::map<std::string, OpCost> kCosts = {
      {"aten::matmul", {1600, 0}},
      {"aten::mm", {6000, 0}},
      {"aten::bmm", {6000, 0}},
      {"aten::linear", {6000, 0}},
      {"aten::addmm", {6000, 0}},
      {"rbln::kernel", {800000, 0}},  // compiled-kernel path: cache lookup, io_build, prep, finalize
      {"rbln::graph", {120000, 0}},   // a compiled graph call outside its launch
      {"aten::to", {600, 0}},
      {"aten::_to_copy", {1300, 0}},
      {"aten::empty_strided", {500, 0}},
      {"aten::empty", {500, 0}},
      {"aten::copy_", {900, 0}},
      {"aten::_copy_from", {8000, 0}},
      {"aten::isinf", {2600, 0}},
      {"aten::abs", {1300, 0}},
      {"aten::abs.out", {0, 0.29}},
      {"aten::eq", {0, 0.15}},
      {"aten::isnan", {900, 0}},
      {"aten::ne", {0, 0.185}},
      {"aten::logical_or", {0, 0.02}},
      {"aten::any", {0, 0.01}},
      {"aten::item", {700, 0}},
      {"aten::_local_scalar_dense", {1100, 0}},
      {"aten::pad", {4000, 0.05}},
      {"aten::slice", {2000, 0}},
      {"cpu::kernel", {3000, 1.0}},  // a fallback op's CPU kernel per output element
  };
  auto it = kCosts.find(name);
  if (it != kCosts.end()) return it->second;
  return {-1, 0};
}

HostCosts::HostCosts(const scenario::HostConfig& config, uint64_t seed)
    : config_(config), rng_(seed ^ 0x9e3779b97f4a7c15ULL) {}

double HostCosts::Jitter(double ns) {
  if (config_.jitter <= 0.0 || ns <= 0.0) return ns;
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
    if (it != config_.op_costs.end()) cost.fixed_ns = it->second.self_ns;
    if (cost.fixed_ns < 0) cost.fixed_ns = config_.default_op_ns;
    slot->second = cost;
  }
  const OpCost& cost = slot->second;
  return Jitter(cost.fixed_ns + cost.per_element_ns * static_cast<double>(elements));
}

}  // namespace rblnsim::host
