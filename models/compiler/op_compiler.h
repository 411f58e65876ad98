// The compiler model: turns one op launch into a program of named commands, the way the RBLN
// compiler turns an eager op into a command stream. The split into commands is an estimate:
//   args_<i>_0  Task DMA      argument descriptor and page-table entries
//   args_<i>_1  Neural DMA    prefetch of the argument's first tile (at most 512 KiB)
//   args_<i>_2  GCE           conversion of that tile to the device's physical layout
//   <layer>_0.. the op itself: for a matmul, the stationary operand's first stage (Neural DMA;
//               the rest streams from HBM during the compute), the compute (Neural Engine
//               Clusters), the output drain (Neural DMA), once per chiplet used. A matmul is
//               split over the chiplets when the closed forms say that finishes clearly sooner
//               (compute, bytes and the extra commands counted): a GEMV streams its weights from
//               every chiplet's HBM, a small square mm stays on one.
// A 512×512 fp16 mm therefore compiles to args_0_{0,1,2} and mm_{0,1,2}, as the seed trace shows.
#ifndef RBLNSIM_MODELS_COMPILER_OP_COMPILER_H_
#define RBLNSIM_MODELS_COMPILER_OP_COMPILER_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "models/compiler/program.h"
#include "scenario/scenario.h"

namespace rblnsim::compiler {

enum class OpClass {
  kMatmul,        // mm, bmm, matmul, linear, addmm
  kElementwise,   // add, mul, silu, ...
  kReduction,     // mean, max, sum along the last dim
  kSoftmax,       // softmax along the last dim
  kNorm,          // rms_norm
  kAttention,     // scaled dot-product attention: QK^T, softmax, PV
  kDataMovement,  // cat, transpose, embedding gather
};

struct TensorArg {
  std::vector<int64_t> shape;
  scenario::DType dtype = scenario::DType::kFp16;
  int distinct_index = 0;  // inputs that are the same tensor share one args_<i> group
  bool on_device = true;
};

struct OpLaunch {
  std::string layer;  // "mm", "add", ... (becomes the layer token of command names)
  OpClass op_class = OpClass::kElementwise;
  std::vector<TensorArg> inputs;
  std::vector<int64_t> output_shape;
  scenario::DType output_dtype = scenario::DType::kFp16;
  bool weight_transposed = false;  // linear: the weight is [n, k]
  double ops_per_element = 1.0;    // elementwise cost, e.g. silu ~4, softmax ~5
  // RBLN_FLOAT32_PRECISION=device: fp32 computes at 16-bit width (DLFloat16); part of the key.
  bool fp32_at_16bit = false;
};

int64_t NumElements(const std::vector<int64_t>& shape);

StatusOr<Program> CompileOp(const OpLaunch& launch, const scenario::DeviceConfig& device);
// The compile-cache key of a launch: op, input shapes and dtypes (torch-rbln's warm cache key).
std::string ProgramKey(const OpLaunch& launch);
// The same key written over |key|: the host looks one up on every eager launch, and a string
// kept from the last launch already has the room.
void ProgramKeyInto(const OpLaunch& launch, std::string* key);

// One op of a compiled graph. Its inputs with |producer| >= 0 come from an earlier node, the
// others are graph inputs (TensorArg::distinct_index numbers the graph's distinct inputs).
struct GraphNode {
  OpLaunch launch;
  std::vector<int> producers;  // per input: index of the producing node, or -1
};

// A whole graph as one program: args groups for the graph's inputs, then every node's commands,
// each waiting for the nodes it consumes. Layers are named after the ops (linear, linear_1, ...).
StatusOr<Program> CompileGraph(const std::string& key,
                               const std::vector<GraphNode>& nodes,
                               const scenario::DeviceConfig& device);

}  // namespace rblnsim::compiler

#endif  // RBLNSIM_MODELS_COMPILER_OP_COMPILER_H_
