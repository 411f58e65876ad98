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

ActivityBridge::ActivityBridge(ActivityApi api, BridgeClock* clock)
    : api_(api), clock_(clock), lifecycle_("activity bridge") {}

StatusOr<bool> ActivityBridge::Configure() {
  RBLNSIM_RETURN_IF_ERROR(lifecycle_.Configure(api_.profiler_flag()));
  return lifecycle_.has_session();
}

Status ActivityBridge::Start() {
  RBLNSIM_ASSIGN_OR_RETURN(const bool begin, lifecycle_.Start(clock_));
  if (!begin)
    return Status::Ok();
  api_.begin_activities();
  lifecycle_.Started();
  return Status::Ok();
}

StatusOr<BridgeResult> ActivityBridge::Stop(int64_t capture_start_system_ns,
                                            int64_t capture_end_system_ns) {
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<ConvertWindow> window,
                           lifecycle_.Stop(capture_start_system_ns, capture_end_system_ns));
  if (!window)
    return BridgeResult{};
  BridgeResult result = ConvertActivities(api_.end_activities(), *window);
  AttachProducerStats(api_.last_session_stats, &result.stats);
  return result;
}

}  // namespace rblnsim::bridge
