// What the host model needs to know about a workload op: its ATen name, whether the device has a
// kernel for it, how the compiler treats it, and the type of its result.
#ifndef RBLNSIM_MODELS_HOST_OP_TRAITS_H_
#define RBLNSIM_MODELS_HOST_OP_TRAITS_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "models/compiler/op_compiler.h"
#include "scenario/op_catalog.h"
#include "scenario/scenario.h"

namespace rblnsim::host {

using TensorType = scenario::TensorType;

struct OpTraits {
  std::string aten_name;         // "aten::mm"
  std::string layer;             // layer token of command names: "mm"
  bool device_supported = true;  // eager kernel exists on the device
  bool elementwise = false;      // subject to the 64-element last-dim alignment rule
  compiler::OpClass op_class = compiler::OpClass::kElementwise;
  double ops_per_element = 1.0;
  bool weight_transposed = false;
  bool is_view = false;  // reshape/view: no kernel, no launch
};

StatusOr<OpTraits> LookupOpTraits(const std::string& op);

}  // namespace rblnsim::host

#endif  // RBLNSIM_MODELS_HOST_OP_TRAITS_H_
