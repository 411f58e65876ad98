#include "scenario/host_op_costs.h"

#include <map>
#include <string>

namespace rblnsim::scenario {

std::optional<BuiltInOpCost> BuiltInHostOpCost(std::string_view name) {
  // Calibrated to the profile_matmul.py tutorial's table. The NaN/Inf scan ops scale with the
  // tensor; dispatch layers do not.
  static const std::map<std::string, BuiltInOpCost, std::less<>> kCosts = {
      {"aten::matmul", {1600, 0}},
      // softmax's composite frame around aten::_softmax, which takes the op's dispatch cost.
      {"aten::softmax", {1600, 0}},
      {"aten::mm", {6000, 0}},
      {"aten::bmm", {6000, 0}},
      {"aten::linear", {6000, 0}},
      {"aten::addmm", {6000, 0}},
      {"rbln::kernel",
       {800000, 0}},                 // compiled-kernel path: cache lookup, io_build, prep, finalize
      {"rbln::graph", {120000, 0}},  // a compiled graph call outside its launch
      {"aten::to", {600, 0}},
      {"aten::_to_copy", {1300, 0}},
      {"aten::empty_strided", {500, 0}},
      {"aten::empty", {500, 0}},
      {"aten::copy_", {900, 0}},
      {"aten::_copy_from", {8000, 0}},
      // The boxed CPU fallback's own frames: the batched move to the CPU and the write-back.
      {"aten::_to_cpu", {2500, 0}},
      {"aten::_copy_from_and_resize", {8000, 0}},
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
  const auto it = kCosts.find(name);
  if (it == kCosts.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::optional<double> GivenOrBuiltInFixedNs(const HostConfig& host, std::string_view name) {
  const auto given = host.op_costs.find(std::string(name));
  if (given != host.op_costs.end()) {
    return given->second.self_ns;
  }
  if (const std::optional<BuiltInOpCost> built_in = BuiltInHostOpCost(name)) {
    return built_in->fixed_ns;
  }
  return std::nullopt;
}

double GivenOrBuiltInPerElementNs(const HostConfig& host, std::string_view name) {
  const auto given = host.op_costs_per_element_ns.find(std::string(name));
  if (given != host.op_costs_per_element_ns.end()) {
    return given->second;
  }
  const std::optional<BuiltInOpCost> built_in = BuiltInHostOpCost(name);
  return built_in ? built_in->per_element_ns : 0.0;
}

}  // namespace rblnsim::scenario
