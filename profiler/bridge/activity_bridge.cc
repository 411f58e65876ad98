#include "profiler/bridge/activity_bridge.h"

#include <utility>

#include "profiler/bridge/activity_converter.h"

namespace rblnsim::bridge {

StatusOr<ActivityApi> ActivityApi::FromFunctions(ProfilerFlagFn profiler_flag,
                                                 BeginActivitiesFn begin_activities,
                                                 EndActivitiesFn end_activities,
                                                 LastSessionStatsFn last_session_stats) {
  if (profiler_flag == nullptr)
    return Status::Error("rbln::runtime::flags::kProfiler reader is null");
  if (begin_activities == nullptr)
    return Status::Error("rbln::runtime::beginActivities is null");
  if (end_activities == nullptr)
    return Status::Error("rbln::runtime::endActivities is null");
  ActivityApi api;
  api.profiler_flag = profiler_flag;
  api.begin_activities = begin_activities;
  api.end_activities = end_activities;
  api.last_session_stats = last_session_stats;
  return api;
}

ActivityBridge::ActivityBridge(ActivityApi api, BridgeClock* clock) : api_(api), clock_(clock) {}

StatusOr<bool> ActivityBridge::Configure() {
  if (started_)
    return Status::Error("activity bridge: Configure() while a session is running");
  has_session_ = api_.profiler_flag();
  return has_session_;
}

Status ActivityBridge::Start() {
  if (!has_session_)
    return Status::Ok();
  if (started_)
    return Status::Error("activity bridge: Start() twice without Stop()");
  // The anchor comes first so it brackets the whole session, as in the adapter's start().
  anchor_steady_ns_ = clock_->SteadyNowNs();
  anchor_system_ns_ = clock_->SystemNowNs();
  api_.begin_activities();
  started_ = true;
  return Status::Ok();
}

StatusOr<BridgeResult> ActivityBridge::Stop(int64_t capture_start_system_ns,
                                            int64_t capture_end_system_ns) {
  if (!has_session_)
    return BridgeResult{};
  if (!started_)
    return Status::Error("activity bridge: Stop() without Start()");
  if (capture_end_system_ns < capture_start_system_ns)
    return Status::Error("activity bridge: capture window ends before it starts");
  started_ = false;

  ConvertWindow window;
  window.offset_ns = anchor_system_ns_ - anchor_steady_ns_;
  window.capture_start_ns = capture_start_system_ns;
  window.capture_end_ns = capture_end_system_ns;
  BridgeResult result = ConvertActivities(api_.end_activities(), window);

  if (api_.last_session_stats != nullptr) {
    RblnsimKinetoStats producer = {};
    if (api_.last_session_stats(&producer) == RBLN_KINETO_OK) {
      result.stats.has_producer_stats = true;
      result.stats.producer = producer;
    }
  }
  return result;
}

}  // namespace rblnsim::bridge
