// The platform's names, spelt once for both sides of the house: the simulator (models/, which
// writes them into traces and ground truth) and the profiler (which reads them back from traces
// captured on a card or simulated). Header-only and std-only, so models/ and profiler/ may both
// include it.
//
// What it holds: the launch markers and the args torch-rbln's runtime and torch.profiler put on
// events, what bounds a device command, the runtime's CPU-fallback reasons with their explain()
// wording, and the ops the device runs eagerly (torch-rbln's verified list, supported_ops.html).
#ifndef RBLNSIM_BASE_RBLN_VOCABULARY_H_
#define RBLNSIM_BASE_RBLN_VOCABULARY_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace rblnsim::platform {

// Launch markers: the c-abi runtime's timed "rbln_run" span around each submit, and the current
// runtime's zero-length "rbln launch" (both cat privateuse1_runtime).
inline constexpr std::string_view kCAbiLaunchMarker = "rbln_run";
inline constexpr std::string_view kCurrentLaunchMarker = "rbln launch";

// Event args. launch_id ties a marker to its device slices; the rest are torch.profiler's
// (record_shapes) and rblnsim's own "bytes" on host copies.
inline constexpr std::string_view kLaunchIdArg = "launch_id";
inline constexpr std::string_view kExternalIdArg = "External id";
inline constexpr std::string_view kInputDimsArg = "Input Dims";
inline constexpr std::string_view kInputTypeArg = "Input type";
inline constexpr std::string_view kBytesArg = "bytes";

// Host frames the runtime and the host model name: the compiled path's kernel frame, a compiled
// graph call, a program compile, a fallback's CPU kernel.
inline constexpr std::string_view kKernelFrame = "rbln::kernel";
inline constexpr std::string_view kGraphFrame = "rbln::graph";
inline constexpr std::string_view kCompileFrame = "rbln::compile";
inline constexpr std::string_view kCpuKernelFrame = "cpu::kernel";

// What set a device command's length (the roofline's bound): the engine's own rate (compute:
// matmul or vector work; dma: the DMA engine), the chiplet's HBM, the die-to-die link, or the fixed
// cost alone (command overhead, synchronisation). The simulator records it per command; the
// roofline report names it.
enum class Bound : uint8_t { kCompute = 0, kHbm = 1, kDma = 2, kD2d = 3, kFixed = 4 };
inline constexpr int kBoundCount = 5;

constexpr const char* BoundName(Bound bound) {
  switch (bound) {
    case Bound::kCompute:
      return "compute";
    case Bound::kHbm:
      return "hbm";
    case Bound::kDma:
      return "dma";
    case Bound::kD2d:
      return "d2d";
    case Bound::kFixed:
      return "fixed";
  }
  return "fixed";
}

// Why an eager op ran on the CPU, in the runtime's pre-dispatch order. The simulator records all
// but kUnknown as ground truth; kUnknown is only the trace reader's answer when the trace does not
// show the cause.
//  - kDtype, kNanInf, kAllScalar: the C++ dispatch shim's quick check (torch-rbln
//    DispatchShim.cpp quick_fallback_check, codes 1-3) or the Python gate for ops off the shim.
//  - kUnaligned: the Python wrapper's alignment gate (ops_utils.py compile_and_run_view_aware:
//    a tensor arg's last dim % 64 != 0).
//  - kUnsupportedOp: no PrivateUse1 kernel, so the catch-all boxed fallback
//    (RBLNRegisterOps.cpp TORCH_LIBRARY_IMPL(_, PrivateUse1)).
//  - kExplicitOp: torch-rbln registers the op to the boxed fallback by name
//    (m.impl(name, fallback_rbln)), kExplicitFallbackOps below.
//  - kCompileError: the op has a kernel and passed the checks, but compiling it for these inputs
//    failed (torch-rbln's compile_error category): the first call pays the compile attempt, and
//    the failure is remembered, so later calls of the same signature go to the CPU directly.
enum class FallbackReason : uint8_t {
  kDtype = 0,
  kNanInf = 1,
  kAllScalar = 2,
  kUnaligned = 3,
  kUnsupportedOp = 4,
  kExplicitOp = 5,
  kCompileError = 6,
  kUnknown = 7,
};
inline constexpr int kFallbackReasonCount = 8;

// torch.rbln.explain()'s why: wording for the shim's three reasons; rblnsim's own for the rest.
// The truth file and the analyses share it.
constexpr const char* FallbackReasonName(FallbackReason reason) {
  switch (reason) {
    case FallbackReason::kDtype:
      return "dtype-not-fp16";
    case FallbackReason::kNanInf:
      return "nan/inf input";
    case FallbackReason::kAllScalar:
      return "all-scalar inputs";
    case FallbackReason::kUnaligned:
      return "last dim not a multiple of 64";
    case FallbackReason::kUnsupportedOp:
      return "op not supported on the device";
    case FallbackReason::kExplicitOp:
      return "op registered to the CPU fallback";
    case FallbackReason::kCompileError:
      return "compile error";
    case FallbackReason::kUnknown:
      return "unknown";
  }
  return "unknown";
}

// The two call-tree shapes of a CPU fallback in a torch.profiler trace.
//  - kBoxed: torch-rbln's C++ cpu_fallback_rbln (RBLNCPUFallback.cpp). Under the dispatcher op:
//    one aten::_to_cpu (per tensor: to -> _to_copy -> empty_strided -> copy_ -> _copy_from), the
//    CPU kernel through redispatchBoxed, which records no op, aten::_copy_from_and_resize per
//    written (out= / in-place) argument, and aten::to per returned tensor.
//  - kNested: the Python wrapper's cpu_fallback_path (torch_rbln/_internal/ops_utils.py): x.cpu()
//    per tensor, the op called again through the public API (so a nested op of the same name runs
//    on the CPU), then the result copied back (copy_ -> _copy_from, or .to(device)). torch-rbln
//    takes it for ops decided in Python: the alignment gate and ops off the C++ shim.
enum class FallbackShape : uint8_t { kBoxed = 0, kNested = 1 };
constexpr const char* FallbackShapeName(FallbackShape shape) {
  return shape == FallbackShape::kBoxed ? "boxed" : "nested";
}

// The boxed fallback's own frames.
inline constexpr std::string_view kToCpuFrame = "aten::_to_cpu";
inline constexpr std::string_view kCopyBackFrame = "aten::_copy_from_and_resize";

// Ops torch-rbln registers to the boxed fallback by name (RBLNRegisterOps.cpp, the entries still
// pinned in the newest version read), with their overloads; trunc.out is left out because the
// verified op list above runs trunc on the device. Their dispatcher event carries the
// schema name without the overload ("aten::max"), so readers match on ExplicitFallbackBase.
inline constexpr std::array<std::string_view, 27> kExplicitFallbackOps = {"aten::view_as_real",
                                                                          "aten::max.dim_max",
                                                                          "aten::min.dim_min",
                                                                          "aten::flip",
                                                                          "aten::cumsum.out",
                                                                          "aten::sum.IntList_out",
                                                                          "aten::clamp.Tensor_out",
                                                                          "aten::masked_select",
                                                                          "aten::nonzero",
                                                                          "aten::gather.out",
                                                                          "aten::all.all_out",
                                                                          "aten::any.all_out",
                                                                          "aten::argmax.out",
                                                                          "aten::topk.values",
                                                                          "aten::cos.out",
                                                                          "aten::sin.out",
                                                                          "aten::exp.out",
                                                                          "aten::sgn.out",
                                                                          "aten::sign.out",
                                                                          "aten::pow.Scalar_out",
                                                                          "aten::isnan",
                                                                          "aten::nan_to_num.out",
                                                                          "aten::tril.out",
                                                                          "aten::triu.out",
                                                                          "aten::relu",
                                                                          "aten::native_batch_norm",
                                                                          "aten::native_dropout"};

// Ops on torch-rbln's C++ dispatch shim (tools/codegen/config.py), by base name: their dtype,
// NaN/Inf and all-scalar fallbacks take the boxed shape. Device ops off the shim decide in Python.
inline constexpr std::array<std::string_view, 29> kShimOps = {
    "aten::add",     "aten::sub",         "aten::mul",   "aten::div",   "aten::pow",
    "aten::maximum", "aten::minimum",     "aten::silu",  "aten::rsqrt", "aten::neg",
    "aten::abs",     "aten::ceil",        "aten::clamp", "aten::log",   "aten::floor",
    "aten::sigmoid", "aten::logical_not", "aten::ne",    "aten::eq",    "aten::gt",
    "aten::ge",      "aten::lt",          "aten::le",    "aten::where", "aten::mean",
    "aten::mm",      "aten::bmm",         "aten::addmm", "aten::linear"};

constexpr std::string_view OverloadlessName(std::string_view name) {
  const size_t dot = name.find('.');
  return dot == std::string_view::npos ? name : name.substr(0, dot);
}
// True when some overload of |aten_base| ("aten::max") is pinned to the fallback.
constexpr bool IsExplicitFallbackBase(std::string_view aten_base) {
  return std::any_of(kExplicitFallbackOps.begin(), kExplicitFallbackOps.end(),
                     [&](std::string_view op) { return OverloadlessName(op) == aten_base; });
}
constexpr bool IsShimOp(std::string_view aten_base) {
  return std::find(kShimOps.begin(), kShimOps.end(), aten_base) != kShimOps.end();
}

// Ops whose bool tensor argument is a mask or condition (masked_fill's mask, where's cond): the
// dtype rule looks past it, as the dispatch path skips those arguments' dtypes.
constexpr bool TakesBoolMask(std::string_view aten_base) {
  return aten_base == "aten::masked_fill" || aten_base == "aten::where";
}

// The runtime's fallback log line, `aten::<op>` op ran on CPU instead of RBLN (RBLNLogging.cpp,
// INFO level), is built by callers from this suffix and the schema name without overload.
inline constexpr std::string_view kFallbackLogSuffix = " op ran on CPU instead of RBLN";

// The device's eager ops (ATen base names): the elementwise ones, where the 64-element last-dim
// alignment rule applies, and the rest (matmul via mm/bmm).
inline constexpr std::array<std::string_view, 24> kDeviceElementwiseOps = {
    "aten::abs",  "aten::add",   "aten::ceil",  "aten::clamp",       "aten::div",
    "aten::eq",   "aten::ge",    "aten::gt",    "aten::le",          "aten::lt",
    "aten::ne",   "aten::floor", "aten::log",   "aten::logical_not", "aten::masked_fill",
    "aten::mul",  "aten::neg",   "aten::pow",   "aten::rsqrt",       "aten::sigmoid",
    "aten::silu", "aten::sub",   "aten::trunc", "aten::where"};
// max and min along a dim (max.dim_max, min.dim_min) are pinned to the fallback, not listed here.
inline constexpr std::array<std::string_view, 8> kDeviceOtherOps = {
    "aten::addmm", "aten::bmm",    "aten::linear",  "aten::mean",
    "aten::mm",    "aten::matmul", "aten::softmax", "aten::_softmax"};

// |aten_base| is an ATen name without overload or in-place suffix ("aten::add").
constexpr bool IsDeviceElementwiseOp(std::string_view aten_base) {
  return std::find(kDeviceElementwiseOps.begin(), kDeviceElementwiseOps.end(), aten_base) !=
         kDeviceElementwiseOps.end();
}
constexpr bool IsDeviceSupportedOp(std::string_view aten_base) {
  return IsDeviceElementwiseOp(aten_base) ||
         std::find(kDeviceOtherOps.begin(), kDeviceOtherOps.end(), aten_base) !=
             kDeviceOtherOps.end();
}

}  // namespace rblnsim::platform

#endif  // RBLNSIM_BASE_RBLN_VOCABULARY_H_
