// What torch.profiler's record_shapes=True leaves on a cpu_op ("Input Dims", "Input type") and
// the device rules torch-rbln's pre-dispatch check applies to it (rbln-platform.md, "Pre-dispatch
// checks"): the reasons a CPU fallback can be read off a trace without the runtime's logs.
#ifndef RBLNSIM_PROFILER_ANALYSIS_INPUT_ARGS_H_
#define RBLNSIM_PROFILER_ANALYSIS_INPUT_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

// Why an op ran on the CPU: the runtime's fallback reasons (base/rbln_vocabulary.h), whose names
// match torch.rbln.explain()'s why: lines and the simulator's ground truth; kUnknown when the
// trace does not show the cause.
using FallbackCause = platform::FallbackReason;
inline constexpr int kFallbackCauseCount = platform::kFallbackReasonCount;
inline const char* FallbackCauseName(FallbackCause cause) {
  return platform::FallbackReasonName(cause);
}

// One input of an op as record_shapes writes it. A non-tensor argument has empty dims and a
// type such as "Scalar" or ""; a 0-dim tensor has empty dims and its dtype ("c10::Half").
struct OpInput {
  std::vector<int64_t> dims;
  std::string type;     // empty when the trace has no "Input type"
  bool nested = false;  // a TensorList entry ([[2,3],[2,3]]): dims not read
  bool IsTensor(bool types_known) const;
};

inline constexpr std::string_view kInputDimsArg = platform::kInputDimsArg;
inline constexpr std::string_view kInputTypeArg = platform::kInputTypeArg;

// The inputs of |event|, or nullopt when it carries no parsable "Input Dims".
std::optional<std::vector<OpInput>> ReadOpInputs(const trace::Event& event);

// ATen name without the overload and in-place suffix: "aten::add.Tensor" / "aten::add_" ->
// "aten::add".
std::string_view BaseOpName(std::string_view name);

// On torch-rbln's verified eager list (supported_ops.html); matmul via mm/bmm.
bool IsDeviceSupportedOp(std::string_view aten_name);
// Elementwise ops of that list: the 64-element last-dim alignment rule applies to them.
bool IsElementwiseOp(std::string_view aten_name);

// The runtime's rules in its order, from the op's name and its inputs when known: an op with no
// device kernel is unsupported (or pinned to the fallback by name); a device op falls back for
// its dtype, all-scalar inputs or an unaligned last dim. kUnknown if none applies (NaN/Inf shows
// only as the scan before the fallback, which the caller sees).
FallbackCause InferCause(std::string_view aten_name,
                         const std::optional<std::vector<OpInput>>& inputs);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_INPUT_ARGS_H_
