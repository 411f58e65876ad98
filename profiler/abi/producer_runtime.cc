#include "profiler/abi/producer_runtime.h"

#include "profiler/abi/export_builder.h"

namespace rblnsim::abi {

ProducerRuntime::ProducerRuntime(CaptureSource* source, std::FILE* report)
    : source_(source), report_(report) {}

RBLNRetCode ProducerRuntime::Fail(RBLNRetCode code, const Status& status) {
  if (report_ != nullptr && !status.ok()) std::fprintf(report_, "rblnsim: %s\n", status.message().c_str());
  return code;
}

RBLNRetCode ProducerRuntime::IsActive(int32_t* active_out) {
  if (active_out == nullptr) return RBLN_KINETO_ERR_INVALID_ARGUMENT;
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
  StatusOr<bool> active = source_->Active();
  if (!active.ok()) return Fail(RBLN_KINETO_ERR_RUNTIME, active.status());
  if (!*active) return RBLN_KINETO_ERR_NOT_ACTIVE;
  if (in_session_) {
    return Fail(RBLN_KINETO_ERR_SESSION_ACTIVE,
                Status::Error("rbln_kineto_begin_session: a session is already open; end it first"));
  }
  Status begun = source_->Begin();
  if (!begun.ok()) return Fail(RBLN_KINETO_ERR_RUNTIME, begun);
  in_session_ = true;
  return RBLN_KINETO_OK;
}

RBLNRetCode ProducerRuntime::EndSession(RblnKinetoExportSink sink,
                                        void* user_data,
                                        int32_t* exported_out) {
  if (exported_out != nullptr) *exported_out = 0;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!in_session_) {
    return Fail(RBLN_KINETO_ERR_NO_SESSION,
                Status::Error("rbln_kineto_end_session_and_export: no session was begun"));
  }
  in_session_ = false;  // reset for reuse whatever happens next
  StatusOr<ProducerCapture> capture = source_->End();
  if (!capture.ok()) return Fail(RBLN_KINETO_ERR_RUNTIME, capture.status());
  last_stats_ = RblnsimKinetoStats{};
  last_stats_.records_captured = capture->slices.size();
  last_stats_.records_dropped = capture->records_dropped;
  last_stats_.launches = capture->markers.size();
  last_stats_.commands_timed_out = capture->commands_timed_out;
  if (report_ != nullptr) {
    std::fprintf(report_,
                 "RBLN Profiler Generation Status Report: %llu device records captured, %llu "
                 "dropped (record buffer full), %llu launches, %llu commands timed out\n",
                 static_cast<unsigned long long>(last_stats_.records_captured),
                 static_cast<unsigned long long>(last_stats_.records_dropped),
                 static_cast<unsigned long long>(last_stats_.launches),
                 static_cast<unsigned long long>(last_stats_.commands_timed_out));
  }
  const ExportBuilder builder(std::move(*capture), source_->nominal_clock_ghz());
  if (builder.empty()) return RBLN_KINETO_OK;  // nothing captured: the sink is not called
  if (sink == nullptr) {
    return Fail(RBLN_KINETO_ERR_INVALID_ARGUMENT,
                Status::Error("rbln_kineto_end_session_and_export: the sink is null"));
  }
  sink(&builder.view(), user_data);
  if (exported_out != nullptr) *exported_out = 1;
  return RBLN_KINETO_OK;
}

RBLNRetCode ProducerRuntime::LastSessionStats(RblnsimKinetoStats* stats_out) {
  if (stats_out == nullptr) return RBLN_KINETO_ERR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(mutex_);
  *stats_out = last_stats_;
  return RBLN_KINETO_OK;
}

}  // namespace rblnsim::abi
