// The producer side of the rbln_kineto C-ABI as plain C++: session state, return codes, the one
// synchronous sink call and the status report. Where the capture comes from (the simulator, or a
// test) is behind CaptureSource, so this layer knows nothing of SystemC.
#ifndef RBLNSIM_PROFILER_ABI_PRODUCER_RUNTIME_H_
#define RBLNSIM_PROFILER_ABI_PRODUCER_RUNTIME_H_

#include <cstdio>
#include <mutex>

#include "profiler/abi/producer_capture.h"
#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/base/status.h"

namespace rblnsim::abi {

class CaptureSource {
 public:
  virtual ~CaptureSource() = default;
  // Whether profiling was enabled when the runtime was created.
  virtual StatusOr<bool> Active() = 0;
  virtual Status Begin() = 0;
  virtual StatusOr<ProducerCapture> End() = 0;
  virtual double nominal_clock_ghz() const = 0;
};

class ProducerRuntime {
 public:
  // |report| receives the status report at each session end (stderr in the library).
  ProducerRuntime(CaptureSource* source, std::FILE* report);

  RBLNRetCode IsActive(int32_t* active_out);
  RBLNRetCode BeginSession();
  RBLNRetCode EndSession(RblnKinetoExportSink sink, void* user_data, int32_t* exported_out);
  RBLNRetCode LastSessionStats(RblnsimKinetoStats* stats_out);

 private:
  RBLNRetCode Fail(RBLNRetCode code, const Status& status);

  CaptureSource* source_;
  std::FILE* report_;
  std::mutex mutex_;  // the C-ABI may be called from any thread
  bool in_session_ = false;
  RblnsimKinetoStats last_stats_{};
};

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_PRODUCER_RUNTIME_H_
