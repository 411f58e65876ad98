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
                const std::string& out_name);
  std::optional<sim::FallbackReason> QuickCheck(const OpTraits& traits,
                                                const std::vector<Operand>& inputs,
                                                const TensorType& out_type) const;
  void NanInfScan(TensorState* tensor);
  // Sets the record_shapes args of timeline event |event| when recording; a signature seen before
  // in this timeline formats no text (HostRuntime::shapes_memo_).
  void RecordShapes(size_t event, const std::vector<TensorType>& inputs);
  void RecordShapes(size_t event, const std::vector<Operand>& inputs);
  compiler::OpLaunch MakeLaunch(const OpTraits& traits,
                                const std::vector<Operand>& inputs,
                                const TensorType& out_type) const;
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
  void Fallback(const std::string& aten,
                sim::FallbackReason reason,
                const std::vector<Operand>& inputs,
                const TensorType& out_type,
                TensorState* out);
  // to → _to_copy → (empty_strided, copy_ → _copy_from): device data to a host tensor.
  int64_t Download(TensorState* tensor, const char* why);
  void Upload(TensorState* tensor, const char* why);
  // The aten::_copy_from body: waits for the producing run, then moves the bytes.
  int64_t CopyToHost(TensorState* tensor, const char* why);

  HostRuntime* host_;
  Status status_;
};

}  // namespace rblnsim::host

#endif  // RBLNSIM_MODELS_HOST_EAGER_OPS_H_
