// The activity-API half of ProducerRuntime: the same session state as the C-ABI, so one session
// at a time across both seams, and the same wait for device work at the end.
#include <string>

#include "profiler/abi/activity_builder.h"
#include "profiler/abi/producer_runtime.h"

namespace rblnsim::abi {

void ProducerRuntime::BeginActivities() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ == State::kEnding) {
    Fail(RBLN_KINETO_ERR_BUSY, Status::Error("beginActivities: the previous session is still being "
                                             "ended; nothing is recorded"));
    return;
  }
  if (state_ != State::kIdle) {
    Fail(
        RBLN_KINETO_ERR_SESSION_ACTIVE,
        Status::Error(seam_ == Seam::kActivities
                          ? "beginActivities: a session is already open; call endActivities() first"
                          : "beginActivities: a session begun with rbln_kineto_begin_session is "
                            "open; end it first"));
    return;
  }
  begin_failed_ = false;
  StatusOr<bool> active = source_->ActiveForActivities();
  if (!active.ok()) {
    begin_failed_ = true;
    Fail(RBLN_KINETO_ERR_RUNTIME, active.status().WithPrefix("beginActivities: "));
    return;
  }
  seam_ = Seam::kActivities;
  if (!*active) {
    state_ = State::kOpenDisabled;  // the profiler is off: endActivities() returns empty lists
    return;
  }
  Status begun = source_->Begin();
  if (!begun.ok()) {
    begin_failed_ = true;
    Fail(RBLN_KINETO_ERR_RUNTIME, begun.WithPrefix("beginActivities: "));
    return;
  }
  state_ = State::kOpen;
}

::rbln::runtime::Activities ProducerRuntime::EndActivities() {
  RBLNRetCode code = RBLN_KINETO_OK;
  bool disabled = false;
  StatusOr<ProducerCapture> capture =
      TakeCapture(Seam::kActivities, "endActivities", &code, &disabled);
  if (!capture.ok()) {
    Fail(code, capture.status());
    return {};
  }
  if (disabled)
    return {};
  Settle(&*capture);
  ::rbln::runtime::Activities activities = BuildActivities(*capture, source_->nominal_clock_ghz());
  FinishEnding();
  return activities;
}

}  // namespace rblnsim::abi
