#include "profiler/abi/producer_runtime.h"

#include <string>
#include <utility>

#include "profiler/abi/clock_fit.h"
#include "profiler/abi/export_builder.h"
#include "profiler/abi/session_window.h"

namespace rblnsim::abi {

namespace {
constexpr const char* kEndName = "rbln_kineto_end_session_and_export";
}  // namespace

ProducerRuntime::ProducerRuntime(CaptureSource* source, std::FILE* report)
    : source_(source), report_(report) {}

RBLNRetCode ProducerRuntime::Fail(RBLNRetCode code, const Status& status) {
  // An empty message was reported already (the end that follows a failed begin).
  if (report_ != nullptr && !status.ok() && !status.message().empty()) {
    std::fprintf(report_, "rblnsim: %s\n", status.message().c_str());
  }
  return code;
}

RBLNRetCode ProducerRuntime::IsActive(int32_t* active_out) {
  if (active_out == nullptr)
    return RBLN_KINETO_ERR_INVALID_ARGUMENT;
  // Free while a session waits for the device or delivers to its sink: this answers from there.
  std::lock_guard<std::mutex> lock(mutex_);
  StatusOr<bool> active = source_->Active();
  if (!active.ok()) {
    *active_out = 0;
    return Fail(RBLN_KINETO_ERR_RUNTIME, active.status());
  }
  *active_out = *active ? 1 : 0;
  return RBLN_KINETO_OK;
}

RBLNRetCode ProducerRuntime::BeginSession() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ == State::kEnding) {
    return Fail(
        RBLN_KINETO_ERR_BUSY,
        Status::Error("rbln_kineto_begin_session: the previous session is still being ended "
                      "(called from its sink or during its end call)"));
  }
  StatusOr<bool> active = source_->Active();
  if (!active.ok())
    return Fail(RBLN_KINETO_ERR_RUNTIME, active.status());
  if (!*active)
    return RBLN_KINETO_ERR_NOT_ACTIVE;
  if (state_ != State::kIdle) {
    return Fail(
        RBLN_KINETO_ERR_SESSION_ACTIVE,
        Status::Error(seam_ == Seam::kCAbi
                          ? "rbln_kineto_begin_session: a session is already open; end it first"
                          : "rbln_kineto_begin_session: a session begun with beginActivities() "
                            "is open; call endActivities() first"));
  }
  Status begun = source_->Begin();
  begin_failed_ = !begun.ok();
  if (!begun.ok())
    return Fail(RBLN_KINETO_ERR_RUNTIME, begun);
  seam_ = Seam::kCAbi;
  state_ = State::kOpen;
  return RBLN_KINETO_OK;
}

StatusOr<ProducerCapture> ProducerRuntime::TakeCapture(Seam seam,
                                                       const char* call,
                                                       RBLNRetCode* code,
                                                       bool* disabled) {
  *disabled = false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ == State::kEnding) {
    *code = RBLN_KINETO_ERR_BUSY;
    return Status::Error(std::string(call) +
                         ": the session is already being ended (called from its sink or during "
                         "its end call)");
  }
  if (state_ == State::kIdle) {
    *code = RBLN_KINETO_ERR_NO_SESSION;
    // After a begin that failed (and said why), the end that follows is expected: no second line.
    const bool reported = std::exchange(begin_failed_, false);
    return Status::Error(reported ? std::string() : std::string(call) + ": no session was begun");
  }
  if (seam_ != seam) {
    *code = RBLN_KINETO_ERR_NO_SESSION;
    return Status::Error(
        std::string(call) +
        (seam_ == Seam::kCAbi
             ? ": the open session was begun with rbln_kineto_begin_session; end it "
               "with rbln_kineto_end_session_and_export"
             : ": the open session was begun with beginActivities(); end it with "
               "endActivities()"));
  }
  if (state_ == State::kOpenDisabled) {
    state_ = State::kIdle;
    *disabled = true;
    *code = RBLN_KINETO_OK;
    return ProducerCapture{};
  }
  state_ = State::kEnding;  // from here on the session is closed for reuse whatever happens
  StatusOr<ProducerCapture> capture = source_->End();
  if (!capture.ok()) {
    state_ = State::kIdle;
    *code = RBLN_KINETO_ERR_RUNTIME;
  }
  return capture;
}

void ProducerRuntime::Settle(ProducerCapture* capture) {
  RblnsimKinetoStats stats{};
  stats.records_captured = capture->slices.size();
  stats.records_dropped = capture->records_dropped;
  stats.launches = capture->markers.size();
  stats.commands_timed_out = capture->commands_timed_out;
  if (source_->stamps_real_clock()) {
    const ClockFit fit(capture->sync_points, source_->nominal_clock_ghz());
    const SettleResult settled = SettleOnSteadyClock(capture, fit, kMaxSyncWaitNs);
    stats.sync_wait_ns = static_cast<uint64_t>(settled.wait_ns);
    stats.records_after_wait = settled.records_dropped;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  last_stats_ = stats;
  if (report_ != nullptr) {
    std::fprintf(report_,
                 "RBLN Profiler Generation Status Report: %llu device records captured, %llu "
                 "dropped (record buffer full), %llu launches, %llu commands timed out, %llu ns "
                 "device sync wait, %llu records past the wait dropped\n",
                 static_cast<unsigned long long>(stats.records_captured),
                 static_cast<unsigned long long>(stats.records_dropped),
                 static_cast<unsigned long long>(stats.launches),
                 static_cast<unsigned long long>(stats.commands_timed_out),
                 static_cast<unsigned long long>(stats.sync_wait_ns),
                 static_cast<unsigned long long>(stats.records_after_wait));
  }
}

void ProducerRuntime::FinishEnding() {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = State::kIdle;
}

RBLNRetCode ProducerRuntime::EndSession(RblnKinetoExportSink sink,
                                        void* user_data,
                                        int32_t* exported_out) {
  if (exported_out != nullptr)
    *exported_out = 0;
  RBLNRetCode code = RBLN_KINETO_OK;
  bool disabled = false;
  StatusOr<ProducerCapture> capture = TakeCapture(Seam::kCAbi, kEndName, &code, &disabled);
  if (!capture.ok())
    return Fail(code, capture.status());
  Settle(&*capture);
  const ExportBuilder builder(std::move(*capture), source_->nominal_clock_ghz());
  RBLNRetCode result = RBLN_KINETO_OK;
  if (builder.empty()) {
    // Nothing captured: the sink is not called.
  } else if (sink == nullptr) {
    result = Fail(RBLN_KINETO_ERR_INVALID_ARGUMENT,
                  Status::Error(std::string(kEndName) + ": the sink is null"));
  } else {
    sink(&builder.view(), user_data);  // no lock held: the sink may call back in
    if (exported_out != nullptr)
      *exported_out = 1;
  }
  FinishEnding();
  return result;
}

RBLNRetCode ProducerRuntime::LastSessionStats(RblnsimKinetoStats* stats_out) {
  if (stats_out == nullptr)
    return RBLN_KINETO_ERR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(mutex_);
  *stats_out = last_stats_;
  return RBLN_KINETO_OK;
}

}  // namespace rblnsim::abi
