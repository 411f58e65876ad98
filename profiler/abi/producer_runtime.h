// The producer side of both seams as plain C++: the rbln_kineto C-ABI (return codes, the one
// synchronous sink call, the status report) and the runtime activity API (beginActivities /
// endActivities). One session at a time across both seams. Where the capture comes from (the
// simulator, or a test) is behind CaptureSource, so this layer knows nothing of SystemC.
//
// Locking: the mutex guards the session state and the capture source while a session is begun
// and while its capture is taken. It is never held while the end call waits for device work or
// while the sink runs, so a sink (or another thread) calling back in gets a defined answer:
// is_active and the stats answer normally, begin/end get RBLN_KINETO_ERR_BUSY.
#ifndef RBLNSIM_PROFILER_ABI_PRODUCER_RUNTIME_H_
#define RBLNSIM_PROFILER_ABI_PRODUCER_RUNTIME_H_

#include <cstdio>
#include <mutex>

#include "base/status.h"
#include "profiler/abi/producer_capture.h"
#include "profiler/abi/rbln_kineto_api.h"
#include "rbln/runtime/activity.h"

namespace rblnsim::abi {

class CaptureSource {
 public:
  virtual ~CaptureSource() = default;
  // C-ABI: whether profiling was enabled when the runtime was created.
  virtual StatusOr<bool> Active() = 0;
  // Activity API: whether profiling is enabled now (RBLN_PROFILER read at session begin).
  virtual StatusOr<bool> ActiveForActivities() = 0;
  virtual Status Begin() = 0;
  virtual StatusOr<ProducerCapture> End() = 0;
  virtual double nominal_clock_ghz() const = 0;
  // True when records are stamped on this process's real steady clock: ending a session then
  // waits until the last record has ended. False for a simulated clock (the CLI).
  virtual bool stamps_real_clock() const = 0;
};

class ProducerRuntime {
 public:
  // |report| receives the status report at each session end and one line per misuse (stderr in
  // the library).
  ProducerRuntime(CaptureSource* source, std::FILE* report);

  // The C-ABI (rbln_kineto_api.h).
  RBLNRetCode IsActive(int32_t* active_out);
  RBLNRetCode BeginSession();
  RBLNRetCode EndSession(RblnKinetoExportSink sink, void* user_data, int32_t* exported_out);
  RBLNRetCode LastSessionStats(RblnsimKinetoStats* stats_out);

  // The activity API (<rbln/runtime/activity.h>). Misuse (end without begin, begin while a
  // session is open) prints one line on |report| and records / returns nothing.
  void BeginActivities();
  ::rbln::runtime::Activities EndActivities();

 private:
  enum class Seam { kCAbi, kActivities };
  enum class State {
    kIdle,
    kOpen,          // begun; the source records
    kOpenDisabled,  // begun through the activity API with the profiler off: records nothing
    kEnding,        // the capture is taken; waiting for the device or delivering it
  };

  RBLNRetCode Fail(RBLNRetCode code, const Status& status);
  // Takes the capture of the open session of |seam| (state kEnding afterwards), or says why not.
  // |disabled|: the activity session recorded nothing because the profiler was off at begin.
  StatusOr<ProducerCapture> TakeCapture(Seam seam,
                                        const char* call,
                                        RBLNRetCode* code,
                                        bool* disabled);
  // Without the lock: waits for device work (real clock), then records and reports the stats.
  void Settle(ProducerCapture* capture);
  void FinishEnding();

  CaptureSource* source_;
  std::FILE* report_;
  std::mutex mutex_;  // both seams may be called from any thread
  State state_ = State::kIdle;
  Seam seam_ = Seam::kCAbi;
  bool begin_failed_ = false;  // the last begin failed and said so on |report_|
  RblnsimKinetoStats last_stats_{};
};

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_PRODUCER_RUNTIME_H_
