// The ops a workload may use. Each entry carries what the rest of the simulator needs to know
// about it without re-deriving it from the op name: the ATen name the host model records, whether
// the Rebel100 runs it in eager mode (otherwise torch-rbln falls back to the CPU), whether the
// 64-element alignment rule for elementwise ops applies, and the class the compiler model uses to
// pick a cost formula. InferOutput gives each op's result type so the loader can reject shape and
// dtype mistakes before a simulation starts.
#ifndef RBLNSIM_SCENARIO_OP_CATALOG_H_
#define RBLNSIM_SCENARIO_OP_CATALOG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "scenario/scenario.h"

namespace rblnsim::scenario {

enum class OpClass { kMatmul, kElementwise, kReduction, kSoftmax, kNorm, kDataMovement };

// "matmul", "elementwise", "reduction", "softmax", "norm", "data-movement".
const char* OpClassName(OpClass op_class);

// Which shape/dtype rule InferOutput applies; one per family of ops.
enum class OpRule {
  kUnary,       // same shape; dtype per DTypePolicy
  kBinary,      // broadcast two tensors, or a tensor and a scalar
  kCompare,     // like kBinary, result bool
  kClamp,       // x, scalars min[, max]
  kMaskedFill,  // x, bool mask broadcastable to x, scalar value
  kWhere,       // bool cond, a, b: broadcast of all three
  kMm,          // [n,k] @ [k,m]
  kMatmul,      // torch.matmul: 1-D, 2-D and batched with broadcasting
  kBmm,         // [b,n,k] @ [b,k,m]
  kLinear,      // x[...,in], weight[out,in], optional bias[out]
  kAddmm,       // bias broadcastable to [n,m], a[n,k], b[k,m]; scalars beta, alpha
  kReduceLast,  // drop the last dim (mean, max, min)
  kArgmaxLast,  // drop the last dim, int64 result
  kKeepLast,    // same shape along the last dim (softmax, cumsum, sort)
  kTopk,        // last dim becomes k
  kRmsNorm,     // x, weight[x.shape[-1]]
  kRotary,      // x, cos, sin broadcastable to x
  kAttention,   // q[...,L,E], k[...,S,E], v[...,S,Ev], optional mask → [...,L,Ev]
  kEmbedding,   // weight[V,D], int64 indices → indices.shape + [D]
  kCat,         // along scalar dim (default 0)
  kTranspose,   // swap scalar dims d0, d1
  kReshape,     // scalars are the new shape, one -1 allowed
  kCast,        // same shape, dtype from the op
};

// How an op treats integer and bool inputs.
enum class DTypePolicy {
  kAny,           // keeps the input dtype
  kNotBool,       // keeps the dtype, bool rejected (neg)
  kFloatPromote,  // int64/bool become fp32, as torch does for log, exp, ...
  kFloatOnly,     // int64/bool rejected (softmax, mean, silu, ...)
};

struct OpInfo {
  std::string_view name;       // as written in a workload: "mm"
  std::string_view aten_name;  // as the host model records it: "aten::mm"
  int min_inputs = 1;
  int max_inputs = 1;
  int min_scalars = 0;
  int max_scalars = 0;
  bool device_supported = false;  // on the verified eager list; otherwise a CPU fallback
  bool elementwise = false;       // subject to the last-dim % 64 alignment rule
  OpClass op_class = OpClass::kElementwise;
  OpRule rule = OpRule::kUnary;
  DTypePolicy dtype_policy = DTypePolicy::kAny;
  DType cast_to = DType::kFp32;  // kCast only
};

// Largest tensor a scenario may declare or produce; keeps every size product far from int64
// overflow in the models.
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 40;
inline constexpr int kMaxRank = 8;

// Rejects ranks above kMaxRank, non-positive dims and tensors above kMaxTensorBytes.
Status CheckTensorType(const TensorType& type);

// Every op, in a stable order.
const std::vector<OpInfo>& AllOps();
// nullptr when `name` is not a workload op name.
const OpInfo* FindOp(std::string_view name);
// The op, or "unknown op 'mn'; did you mean 'mm'?".
StatusOr<const OpInfo*> LookupOp(std::string_view name);

// The op names the host model may record or charge time to: every catalogue op's aten_name, the
// calls torch makes around them (the .cpu() copy chain, the NaN/Inf scan, allocation, pad/slice)
// and the host model's own cost keys (rbln::kernel, rbln::graph, rbln::compile, rbln_run,
// cpu::kernel). host.op_costs and expect.op_calls keys must be one of these.
const std::vector<std::string_view>& KnownAtenNames();

// The result type of `op` applied to `inputs` and `scalars`. Errors name the op and the types.
StatusOr<TensorType> InferOutput(const OpInfo& op,
                                 const std::vector<TensorType>& inputs,
                                 const std::vector<double>& scalars);
StatusOr<TensorType> InferOutput(std::string_view op_name,
                                 const std::vector<TensorType>& inputs,
                                 const std::vector<double>& scalars);

// The ATen calls torch records when an op applied to |inputs| reaches the device: the
// CompositeImplicitAutograd frames the dispatcher passes through (outermost first) and the kernel
// inside them, which launches. matmul dispatches to aten::mm for 2-D operands (and folds
// batched-by-2-D into mm) and to aten::bmm when both operands are batched; softmax to
// aten::_softmax. linear, mm, bmm and addmm are registered on torch-rbln's dispatch shim, so under
// inference mode they are their own kernels, as is every other op. Assumes InferOutput accepted
// the inputs.
struct AtenCallTree {
  std::vector<std::string_view> frames;  // composite frames, outermost first; often none
  std::string_view kernel;               // the op that launches
  std::string_view layer;                // the layer token of its device commands ("mm")
};
AtenCallTree AtenCallTreeOf(const OpInfo& op, const std::vector<TensorType>& inputs);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_OP_CATALOG_H_
