// The consumer of the runtime activity API (rbln::runtime::beginActivities / endActivities, the
// seam of today's torch-rbln), driven the way Kineto drives torch-rbln's current session:
// Configure() when the profiler is configured (reads the RBLN_PROFILER flag then, not at process
// start), Start() at the capture start, Stop() at the capture end with Kineto's capture window.
// It writes the current dialect (profiler/trace/dialect.h) through ConvertActivities.
//
// Typical use (the same shape as RblnBridge):
//   RBLNSIM_ASSIGN_OR_RETURN(ActivityApi api, ActivityApi::FromFunctions(flag, begin, end));
//   ActivityBridge bridge(api, &clock);
//   RBLNSIM_ASSIGN_OR_RETURN(bool active, bridge.Configure());
//   RBLNSIM_RETURN_IF_ERROR(bridge.Start());
//   ... run ...
//   RBLNSIM_ASSIGN_OR_RETURN(BridgeResult result, bridge.Stop(window_start_ns, window_end_ns));
//   result.AppendTo(&trace);
#ifndef RBLNSIM_PROFILER_BRIDGE_ACTIVITY_BRIDGE_H_
#define RBLNSIM_PROFILER_BRIDGE_ACTIVITY_BRIDGE_H_

#include <rbln/runtime/activity.h>

#include <cstdint>

#include "base/status.h"
#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/clock.h"
#include "profiler/bridge/session_lifecycle.h"

namespace rblnsim::bridge {

// The producer's entry points as function pointers: the CLI passes the linked symbols, tests
// pass fakes, and the bridge has one code path for both.
struct ActivityApi {
  // rbln::runtime::flags::kProfiler.value() (a member function, so callers wrap it).
  using ProfilerFlagFn = bool (*)();
  using BeginActivitiesFn = void (*)();
  using EndActivitiesFn = rbln::runtime::Activities (*)();
  // rblnsim's stats extension (the C-ABI library's rblnsim_kineto_last_session_stats, or an
  // equivalent for this seam): the producer's counters for the session that just ended.
  using LastSessionStatsFn = RBLNRetCode (*)(RblnsimKinetoStats* stats_out);

  ProfilerFlagFn profiler_flag = nullptr;
  BeginActivitiesFn begin_activities = nullptr;
  EndActivitiesFn end_activities = nullptr;
  LastSessionStatsFn last_session_stats = nullptr;  // optional

  // The three required pointers must be non-null; |last_session_stats| may be null.
  static StatusOr<ActivityApi> FromFunctions(ProfilerFlagFn profiler_flag,
                                             BeginActivitiesFn begin_activities,
                                             EndActivitiesFn end_activities,
                                             LastSessionStatsFn last_session_stats = nullptr);
};

class ActivityBridge {
 public:
  // |clock| is not owned and must outlive the bridge.
  ActivityBridge(ActivityApi api, BridgeClock* clock);

  ActivityBridge(const ActivityBridge&) = delete;
  ActivityBridge& operator=(const ActivityBridge&) = delete;

  // Reads the profiler flag; a session exists only if it is set. Without one, Start() and Stop()
  // do nothing (the adapter's configure() returns no session), so the producer never sees
  // beginActivities or endActivities and the trace gets no device rows.
  StatusOr<bool> Configure();

  // Records the (steady, system) anchor pair, then calls beginActivities().
  Status Start();

  // Calls endActivities() and converts what it returns against the anchor and the capture window
  // [start, end] (system-clock ns, as Kineto passes them to processTrace). The session can be
  // started again afterwards.
  StatusOr<BridgeResult> Stop(int64_t capture_start_system_ns, int64_t capture_end_system_ns);

  bool has_session() const { return lifecycle_.has_session(); }
  // Room Stop's result keeps in its events for |events| more (ConvertWindow::spare_events).
  void ReserveSpareEvents(size_t events) { lifecycle_.set_spare_events(events); }

 private:
  ActivityApi api_;
  BridgeClock* clock_;
  SessionLifecycle lifecycle_;
};

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_ACTIVITY_BRIDGE_H_
