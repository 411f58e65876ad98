// What the compiler model hands the device: a program of named commands with the work each one
// does and the dependencies fixed at compile time (the command processor enforces them).
#ifndef RBLNSIM_MODELS_COMPILER_PROGRAM_H_
#define RBLNSIM_MODELS_COMPILER_PROGRAM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "models/rebel100/command_demand.h"
#include "models/rebel100/engine_types.h"
#include "scenario/scenario.h"

namespace rblnsim::compiler {

// C[m×n] += A[m×k] · B[k×n] on one chiplet, |batch| times.
struct MatmulWork {
  int64_t m = 0, k = 0, n = 0, batch = 1;
  scenario::DType dtype = scenario::DType::kFp16;  // as stored: sets the bytes moved
  // As the array computes when it differs from |dtype|: fp32 under RBLN_FLOAT32_PRECISION=device
  // runs at 16-bit width.
  std::optional<scenario::DType> compute_dtype;
  scenario::DType ComputeDType() const { return compute_dtype.value_or(dtype); }
  // Bytes of the stationary operand a load command put in SRAM before this compute; the rest
  // streams during it. -1: no load command, half the SRAM is taken as staged.
  int64_t staged_bytes = -1;
  // Where the streamed weights live when not in this chiplet's HBM (a share of a matmul split
  // along m reads them from the first chiplet over the die-to-die link); -1: its own.
  int weights_chiplet = -1;
};

struct TransferWork {
  int64_t bytes = 0;
  bool crosses_chiplet = false;  // pays the die-to-die hop
};

struct VectorWork {
  int64_t elements = 0;
  double ops_per_element = 1.0;
  int64_t bytes = 0;  // HBM traffic the engine streams while computing
};

struct SyncWork {
  int participants = 1;
};

using Work = std::variant<MatmulWork, TransferWork, VectorWork, SyncWork>;
template <rebel100::WorkKind kKind>
using WorkOf = std::variant_alternative_t<static_cast<size_t>(kKind), Work>;
static_assert(std::is_same_v<WorkOf<rebel100::WorkKind::kMatmul>, MatmulWork> &&
                  std::is_same_v<WorkOf<rebel100::WorkKind::kTransfer>, TransferWork> &&
                  std::is_same_v<WorkOf<rebel100::WorkKind::kVector>, VectorWork> &&
                  std::is_same_v<WorkOf<rebel100::WorkKind::kSync>, SyncWork>,
              "Work follows rebel100::WorkKind");

// The kind of work |work| is, as the engine descriptors name it.
inline rebel100::WorkKind KindOf(const Work& work) {
  return static_cast<rebel100::WorkKind>(work.index());
}

struct Command {
  std::string layer;  // "args_0", "mm", "softmax", ...
  int index = 0;      // command index within the layer
  rebel100::EngineType engine = rebel100::EngineType::kNeuralEngine;
  int chiplet = 0;
  Work work;
  std::vector<int> deps;  // indices into Program::commands, all smaller than this one's
};

struct Program {
  std::string key;  // cache key: op, shapes, dtypes, scalars
  std::vector<Command> commands;
  // Each command's timing on the device it was compiled for (rebel100::TimeCommands), by index:
  // worked out once, read by the executor on every run.
  std::vector<rebel100::CommandDemand> demands;
  int64_t flops = 0;
};

}  // namespace rblnsim::compiler

#endif  // RBLNSIM_MODELS_COMPILER_PROGRAM_H_
