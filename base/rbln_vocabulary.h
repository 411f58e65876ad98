// The platform's names, spelt once for both sides of the house: the simulator (models/, which
// writes them into traces and ground truth) and the profiler (which reads them back from traces
// captured on a card or simulated). Header-only and std-only, so models/ and profiler/ may both
// include it.
//
// What it holds: the launch markers and the args torch-rbln's runtime and torch.profiler put on
// events, the runtime's CPU-fallback reasons with their explain() wording, and the ops the device
// runs eagerly (torch-rbln's verified list, supported_ops.html).
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

// Why an eager op ran on the CPU, in the runtime's pre-dispatch order. The simulator records the
// first five as ground truth; kUnknown is only the trace reader's answer when the trace does not
// show the cause.
enum class FallbackReason : uint8_t {
  kDtype = 0,          // an input not fp16/bf16
  kNanInf = 1,         // NaN/Inf found by the pre-dispatch scan
  kAllScalar = 2,      // every tensor input 0-dim
  kUnaligned = 3,      // elementwise output last dim % 64 != 0
  kUnsupportedOp = 4,  // no device kernel
  kUnknown = 5,
};
inline constexpr int kFallbackReasonCount = 6;

// torch.rbln.explain()'s why: wording, which the truth file and the analyses share.
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
    case FallbackReason::kUnknown:
      return "unknown";
  }
  return "unknown";
}

// The device's eager ops (ATen base names): the elementwise ones, where the 64-element last-dim
// alignment rule applies, and the rest (matmul via mm/bmm).
inline constexpr std::array<std::string_view, 24> kDeviceElementwiseOps = {
    "aten::abs",  "aten::add",   "aten::ceil",  "aten::clamp",       "aten::div",
    "aten::eq",   "aten::ge",    "aten::gt",    "aten::le",          "aten::lt",
    "aten::ne",   "aten::floor", "aten::log",   "aten::logical_not", "aten::masked_fill",
    "aten::mul",  "aten::neg",   "aten::pow",   "aten::rsqrt",       "aten::sigmoid",
    "aten::silu", "aten::sub",   "aten::trunc", "aten::where"};
inline constexpr std::array<std::string_view, 10> kDeviceOtherOps = {
    "aten::addmm", "aten::bmm", "aten::linear", "aten::max",     "aten::mean",
    "aten::min",   "aten::mm",  "aten::matmul", "aten::softmax", "aten::_softmax"};

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
