// CPU fallbacks as torch-rbln runs them: which layer decides, the call tree each one leaves in a
// trace, the log line, and TORCH_RBLN_DISABLE_FALLBACK. The shapes are those of
// base/rbln_vocabulary.h (FallbackShape); the sources read are named there and in
// scenario/scenario.h (HostConfig::FallbackPath).
#include <fmt/format.h>

#include <algorithm>

#include "models/host/eager_ops.h"

namespace rblnsim::host {

using Location = TensorState::Location;

namespace {

// CPU matmul throughput for fallbacks: an estimate of one core.
constexpr double kCpuMatmulFlopsPerNs = 20.0;

// "aten::add_" -> "aten::add": the in-place form dispatches like its base op.
std::string_view BaseName(std::string_view aten) {
  if (aten.size() > 1 && aten.back() == '_' && aten[aten.size() - 2] != '_')
    aten.remove_suffix(1);
  return platform::OverloadlessName(aten);
}

}  // namespace

platform::FallbackShape EagerOps::ShapeFor(const std::string& aten,
                                           sim::FallbackReason reason) const {
  using platform::FallbackShape;
  // No device kernel: the catch-all (or the by-name registration) is the boxed C++ handler in
  // every release.
  // A failed compile is caught in the C++ kernel, which hands the op to the same boxed handler.
  if (reason == sim::FallbackReason::kUnsupportedOp || reason == sim::FallbackReason::kExplicitOp ||
      reason == sim::FallbackReason::kCompileError)
    return FallbackShape::kBoxed;
  if (host_->scenario_.host.fallback_path == scenario::HostConfig::FallbackPath::kPython)
    return FallbackShape::kNested;
  // Today the C++ shim checks the ops it carries (dtype, NaN/Inf, all-scalar, the align fast
  // path) and calls cpu_fallback_rbln; the Python wrapper still decides for the others.
  return platform::IsShimOp(BaseName(aten)) ? FallbackShape::kBoxed : FallbackShape::kNested;
}

double EagerOps::CpuKernelNs(const std::string& aten,
                             const std::vector<Operand>& inputs,
                             const TensorType& out_type) {
  // Matmuls by FLOPs, everything else by output elements.
  const int64_t elements = out_type.NumElements();
  double ns = host_->costs_.SelfNs("cpu::kernel", elements);
  const std::string_view base = BaseName(aten);
  if (inputs.size() >= 2 && (base == "aten::mm" || base == "aten::bmm" || base == "aten::linear")) {
    const auto& a = inputs[0].state->type.shape;
    const double k = a.empty() ? 1.0 : static_cast<double>(a.back());
    ns += 2.0 * static_cast<double>(elements) * k / kCpuMatmulFlopsPerNs;
  }
  return ns;
}

void EagerOps::Fallback(const std::string& aten,
                        sim::FallbackReason reason,
                        const std::vector<Operand>& inputs,
                        const TensorType& out_type,
                        TensorState* out,
                        bool in_place) {
  const scenario::EnvConfig& env = host_->scenario_.env;
  // With unsupported_op disabled torch-rbln registers an error handler as the catch-all
  // (RBLNRegisterOps.cpp error_fallback_rbln); ops pinned to the fallback by name keep their
  // handler, and the dispatch shim's checks are not a category of this variable.
  if (reason == sim::FallbackReason::kUnsupportedOp &&
      (env.disabled_fallbacks & scenario::kFallbackUnsupportedOp) != 0) {
    status_ = Status::Error(fmt::format(
        "RuntimeError: The operator `{}` is not implemented for RBLN devices. To request this op, "
        "please contact client_support@rebellions.ai. To enable fallback to CPU operation, remove "
        "'unsupported_op' from `TORCH_RBLN_DISABLE_FALLBACK`.",
        aten));
    return;
  }
  // c10::rbln::log_cpu_fallback: the schema name, at INFO.
  host_->Log(scenario::LogLevel::kInfo,
             "`" + aten + "`" + std::string(platform::kFallbackLogSuffix));
  sim::FallbackTruth truth{aten, reason, ShapeFor(aten, reason), host_->next_external_id_ - 1,
                           0,    0};
  out->type = out_type;
  if (truth.shape == platform::FallbackShape::kBoxed) {
    BoxedFallback(aten, inputs, out_type, out, in_place, &truth);
  } else {
    NestedFallback(aten, inputs, out_type, out, &truth);
  }
  if (host_->recording_)
    host_->truth_.fallbacks.push_back(std::move(truth));
}

void EagerOps::BoxedFallback(const std::string& aten,
                             const std::vector<Operand>& inputs,
                             const TensorType& out_type,
                             TensorState* out,
                             bool in_place,
                             sim::FallbackTruth* truth) {
  HostCosts& costs = host_->costs_;
  // at::_to_cpu moves every tensor argument in one call.
  host_->Op("aten::_to_cpu", costs.SelfNs("aten::_to_cpu", 0),
            [&] { truth->bytes_to_host += DownloadDeviceInputs(inputs); });
  // The CPU kernel runs through redispatchBoxed, which records no op: its time is the frame's.
  host_->Spend(CpuKernelNs(aten, inputs, out_type));
  MarkCpuResult(inputs, out);
  // A write-alias argument (self of an in-place op, out=) gets the CPU result back through
  // _copy_from_and_resize and is returned as itself; a fresh result moves with .to(device).
  truth->bytes_to_device += in_place ? WriteBack(out, "fallback") : UploadByTo(out, "fallback");
}

void EagerOps::NestedFallback(const std::string& aten,
                              const std::vector<Operand>& inputs,
                              const TensorType& out_type,
                              TensorState* out,
                              sim::FallbackTruth* truth) {
  truth->bytes_to_host += DownloadDeviceInputs(inputs);
  // The wrapper calls the op again on the CPU tensors: torch records it, nested, by the same name.
  const size_t kernel = host_->timeline_.events.size();
  host_->Op(aten, CpuKernelNs(aten, inputs, out_type));
  RecordShapes(kernel, inputs);
  MarkCpuResult(inputs, out);
  truth->bytes_to_device += Upload(out, "fallback");
}

int64_t EagerOps::DownloadDeviceInputs(const std::vector<Operand>& inputs) {
  // Each device tensor is copied once, however many arguments name it.
  std::vector<const TensorState*> copied;
  int64_t bytes = 0;
  for (const Operand& in : inputs) {
    if (!in.state->on_device || std::find(copied.begin(), copied.end(), in.state) != copied.end())
      continue;
    copied.push_back(in.state);
    bytes += Download(in.state, "fallback");
  }
  return bytes;
}

void EagerOps::MarkCpuResult(const std::vector<Operand>& inputs, TensorState* out) {
  // A device tensor whose newest data is the CPU result until it is copied back.
  out->on_device = true;
  out->location = Location::kHostLatest;
  for (const Operand& in : inputs) {
    out->has_nan |= in.state->has_nan;
    out->has_inf |= in.state->has_inf;
  }
}

int64_t EagerOps::UploadByTo(TensorState* tensor, const char* why) {
  int64_t moved = 0;
  ToChain([&] { moved = Upload(tensor, why); });
  return moved;
}

int64_t EagerOps::WriteBack(TensorState* tensor, const char* why) {
  const int64_t bytes = tensor->type.Bytes();
  const size_t event = host_->timeline_.events.size();
  host_->Op("aten::_copy_from_and_resize", host_->costs_.SelfNs("aten::_copy_from_and_resize", 0),
            [&] { host_->Spend(PcieTransferNs(bytes)); });
  if (host_->recording_) {
    host_->timeline_.events[event].bytes = bytes;
    host_->truth_.round_trips.push_back({why, false, bytes, host_->next_external_id_ - 1});
  }
  tensor->location = Location::kSynced;
  return bytes;
}

}  // namespace rblnsim::host
