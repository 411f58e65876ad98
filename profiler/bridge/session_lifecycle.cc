#include "profiler/bridge/session_lifecycle.h"

namespace rblnsim::bridge {

Status SessionLifecycle::CanConfigure() const {
  if (started_)
    return Status::Error(who_ + ": Configure() while a session is running");
  return Status::Ok();
}

Status SessionLifecycle::Configure(bool has_session) {
  RBLNSIM_RETURN_IF_ERROR(CanConfigure());
  has_session_ = has_session;
  return Status::Ok();
}

StatusOr<bool> SessionLifecycle::Start(BridgeClock* clock) {
  if (!has_session_)
    return false;
  if (started_)
    return Status::Error(who_ + ": Start() twice without Stop()");
  // The anchor comes first so it brackets the whole session, as in the adapter's start().
  anchor_steady_ns_ = clock->SteadyNowNs();
  anchor_system_ns_ = clock->SystemNowNs();
  return true;
}

StatusOr<std::optional<ConvertWindow>> SessionLifecycle::Stop(int64_t capture_start_system_ns,
                                                              int64_t capture_end_system_ns) {
  if (!has_session_)
    return std::optional<ConvertWindow>();
  if (!started_)
    return Status::Error(who_ + ": Stop() without Start()");
  if (capture_end_system_ns < capture_start_system_ns)
    return Status::Error(who_ + ": capture window ends before it starts");
  started_ = false;
  ConvertWindow window;
  window.offset_ns = anchor_system_ns_ - anchor_steady_ns_;
  window.capture_start_ns = capture_start_system_ns;
  window.capture_end_ns = capture_end_system_ns;
  window.spare_events = spare_events_;
  return std::optional<ConvertWindow>(window);
}

void AttachProducerStats(LastSessionStatsFn last_session_stats, BridgeStats* stats) {
  if (last_session_stats == nullptr)
    return;
  RblnsimKinetoStats producer = {};
  if (last_session_stats(&producer) == RBLN_KINETO_OK) {
    stats->has_producer_stats = true;
    stats->producer = producer;
  }
}

}  // namespace rblnsim::bridge
