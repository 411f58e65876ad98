#include "models/host/op_traits.h"

#include <map>

namespace rblnsim::host {

namespace {

compiler::OpClass CompilerClass(const scenario::OpInfo& info) {
  if (info.rule == scenario::OpRule::kAttention)
    return compiler::OpClass::kAttention;
  switch (info.op_class) {
    case scenario::OpClass::kMatmul:
      return compiler::OpClass::kMatmul;
    case scenario::OpClass::kReduction:
      return compiler::OpClass::kReduction;
    case scenario::OpClass::kSoftmax:
      return compiler::OpClass::kSoftmax;
    case scenario::OpClass::kNorm:
      return compiler::OpClass::kNorm;
    case scenario::OpClass::kDataMovement:
      return compiler::OpClass::kDataMovement;
    case scenario::OpClass::kElementwise:
      return compiler::OpClass::kElementwise;
  }
  return compiler::OpClass::kElementwise;
}

// Vector-engine operations per element beyond one (transcendentals cost several passes).
double OpsPerElement(std::string_view op) {
  static const std::map<std::string_view, double> kOps = {
      {"silu", 4},  {"sigmoid", 4}, {"gelu", 8}, {"tanh", 4},   {"exp", 2},
      {"rsqrt", 2}, {"pow", 3},     {"log", 3},  {"rotary", 3}, {"rms_norm", 4}};
  auto it = kOps.find(op);
  return it == kOps.end() ? 1.0 : it->second;
}

}  // namespace

StatusOr<OpTraits> LookupOpTraits(const std::string& op) {
  RBLNSIM_ASSIGN_OR_RETURN(const scenario::OpInfo* info, scenario::LookupOp(op));
  OpTraits traits;
  traits.aten_name = std::string(info->aten_name);
  traits.layer = std::string(info->name);
  traits.device_supported = info->device_supported;
  traits.elementwise = info->elementwise;
  traits.op_class = CompilerClass(*info);
  traits.ops_per_element = OpsPerElement(info->name);
  traits.weight_transposed = info->rule == scenario::OpRule::kLinear;
  traits.is_view = info->rule == scenario::OpRule::kReshape;
  return traits;
}

}  // namespace rblnsim::host
