// The ATen call trees of eager torch-rbln, emitted on the host thread: the dispatcher layer, the
// NaN/Inf pre-dispatch scan, the compiled-kernel path with its rbln_run launch, CPU fallbacks
// with their host round trips, and .cpu() downloads.
#ifndef RBLNSIM_MODELS_HOST_EAGER_OPS_H_
#define RBLNSIM_MODELS_HOST_EAGER_OPS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/host/host_runtime.h"

namespace rblnsim::host {

class EagerOps {
 public:
  explicit EagerOps(HostRuntime* host) : host_(host) {}

  Status Call(const scenario::Step& step);
  Status Cpu(const std::string& tensor, const scenario::Step& step);
  // A torch.compile'd graph call: one "Torch-Compiled Region", one launch.
  Status Graph(const scenario::Step& step);
  const Status& status() const { return status_; }

 private:
  struct Operand {
    std::string name;
    TensorState* state;
  };

  void Dispatch(const std::string& aten,
                const OpTraits& traits,
                const std::vector<Operand>& inputs,
                const TensorType& out_type,
                const std::string& out_name,
                bool in_place,
                bool compile_fails);
  std::optional<sim::FallbackReason> QuickCheck(const OpTraits& traits,
                                                const std::vector<Operand>& inputs,
                                                const TensorType& out_type) const;
  void NanInfScan(TensorState* tensor);
  // Sets the record_shapes args of timeline event |event| when recording: its index into the
  // timeline's distinct input signatures.
  void RecordShapes(size_t event, const std::vector<TensorType>& inputs);
  void RecordShapes(size_t event, const std::vector<Operand>& inputs);
  template <typename Inputs>
  void RecordShapesOf(size_t event, const Inputs& inputs);
  // The program key of a launch of |traits| over |inputs|. The compiler's view of the launch is
  // left in the host runtime's launch_scratch_, the key in its key_scratch_ (valid until the
  // next call).
  const std::string& KeyOfLaunch(const OpTraits& traits,
                                 const std::vector<Operand>& inputs,
                                 const TensorType& out_type);
  // The cached program for |key|, compiling (and recording a recompile) on a miss.
  CompiledProgram* GetOrCompile(const std::string& key,
                                const std::string& op,
                                const std::function<StatusOr<compiler::Program>()>& compile);
  // Submits one run of |compiled| with its rbln_run marker; sync dispatch waits for it.
  rebel100::RunRequest& Launch(const std::string& op, CompiledProgram* compiled);
  void Kernel(const std::string& aten,
              const OpTraits& traits,
              const std::vector<Operand>& inputs,
              const TensorType& out_type,
              TensorState* out);
  // The rbln::compile span a compile attempt records, successful or not: host.compile_ns.
  void CompileSpan();
  // The kernel frame of an op the device compiler refuses (compile: error): the compile attempt on
  // the signature's first call, then the compile_error fallback (refused when that category is
  // disabled).
  void FailedCompile(const std::string& aten,
                     const OpTraits& traits,
                     const std::vector<Operand>& inputs,
                     const TensorType& out_type,
                     TensorState* out,
                     bool in_place);
  // A CPU fallback as torch-rbln runs it (cpu_fallback.cc): refused when
  // TORCH_RBLN_DISABLE_FALLBACK disables its category (status_ is set), else logged and run in
  // the shape the deciding layer produces. |in_place|: the op writes its result into inputs[0].
  void Fallback(const std::string& aten,
                sim::FallbackReason reason,
                const std::vector<Operand>& inputs,
                const TensorType& out_type,
                TensorState* out,
                bool in_place);
  platform::FallbackShape ShapeFor(const std::string& aten, sim::FallbackReason reason) const;
  // The boxed cpu_fallback_rbln: _to_cpu, the CPU kernel (no op recorded), write-backs, .to().
  void BoxedFallback(const std::string& aten,
                     const std::vector<Operand>& inputs,
                     const TensorType& out_type,
                     TensorState* out,
                     bool in_place,
                     sim::FallbackTruth* truth);
  // The Python wrapper: .cpu() per tensor, the op again on the CPU (a nested same-name op), the
  // result copied back.
  void NestedFallback(const std::string& aten,
                      const std::vector<Operand>& inputs,
                      const TensorType& out_type,
                      TensorState* out,
                      sim::FallbackTruth* truth);
  double CpuKernelNs(const std::string& aten,
                     const std::vector<Operand>& inputs,
                     const TensorType& out_type);
  // to → _to_copy → (empty_strided, |copy|): the chain of a .to() in either direction.
  void ToChain(const std::function<void()>& copy);
  // A fallback's downloads of its device-resident inputs; the bytes moved.
  int64_t DownloadDeviceInputs(const std::vector<Operand>& inputs);
  // A fallback's result: on the device, its newest data on the host, NaN/Inf from its inputs.
  void MarkCpuResult(const std::vector<Operand>& inputs, TensorState* out);
  // to → _to_copy → (empty_strided, copy_ → _copy_from): device data to a host tensor.
  int64_t Download(TensorState* tensor, const char* why);
  // copy_ -> _copy_from: host data to the device tensor. Returns the bytes moved.
  int64_t Upload(TensorState* tensor, const char* why);
  // The boxed fallback's .to(device) of a returned tensor: to -> _to_copy -> (empty_strided,
  // copy_ -> _copy_from), host to device.
  int64_t UploadByTo(TensorState* tensor, const char* why);
  // aten::_copy_from_and_resize: a written (out= / in-place) argument's CPU result back to it.
  int64_t WriteBack(TensorState* tensor, const char* why);
  // The PCIe time of moving |bytes| either way: one link's latency and bandwidth.
  double PcieTransferNs(int64_t bytes);
  // The aten::_copy_from body: waits for the producing run, then moves the bytes.
  int64_t CopyToHost(TensorState* tensor, const char* why);

  HostRuntime* host_;
  Status status_;
};

}  // namespace rblnsim::host

#endif  // RBLNSIM_MODELS_HOST_EAGER_OPS_H_
