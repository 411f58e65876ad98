// The host model's built-in cost of each op it records: the defaults behind host.op_costs. A
// scenario overrides the fixed part by ATen name; an op in neither place costs
// host.default_op_cost. Kept with the scenario so the tools can show and fit these defaults
// without reaching into the models.
#ifndef RBLNSIM_SCENARIO_HOST_OP_COSTS_H_
#define RBLNSIM_SCENARIO_HOST_OP_COSTS_H_

#include <optional>
#include <string_view>

#include "scenario/scenario.h"

namespace rblnsim::scenario {

struct BuiltInOpCost {
  double fixed_ns = 0.0;
  double per_element_ns = 0.0;  // times the elements the op touches
};

// The built-in cost of `name` ("aten::abs", or an internal step such as "rbln::kernel").
std::optional<BuiltInOpCost> BuiltInHostOpCost(std::string_view name);

// The fixed cost of `name` as a run charges it: host.op_costs, else the built-in table; nullopt
// when neither has it (the run then charges host.default_op_cost).
std::optional<double> GivenOrBuiltInFixedNs(const HostConfig& host, std::string_view name);
// The per-element cost of `name` as a run charges it: host.op_costs_per_element, else the
// built-in table, else 0.
double GivenOrBuiltInPerElementNs(const HostConfig& host, std::string_view name);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_HOST_OP_COSTS_H_
