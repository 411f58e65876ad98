// The consumer of the rbln_kineto C-ABI, driven the way Kineto drives torch-rbln's RblnProfiler
// session: Configure() when the profiler is configured, Start() at the capture start, Stop() at
// the capture end with Kineto's capture window. It converts what the producer exports into trace
// rows and PrivateUse1 events exactly like torch-rbln's adapter and emitter, plus the ac2g flows
// the alignment test requires and counters for everything it had to drop or repair.
//
// Typical use:
//   RealClock clock;
//   RblnBridge bridge(api, &clock);
//   RBLNSIM_ASSIGN_OR_RETURN(bool active, bridge.Configure());
//   RBLNSIM_RETURN_IF_ERROR(bridge.Start());
//   ... run ...
//   RBLNSIM_ASSIGN_OR_RETURN(BridgeResult result, bridge.Stop(window_start_ns, window_end_ns));
//   result.AppendTo(&trace);
#ifndef RBLNSIM_PROFILER_BRIDGE_RBLN_BRIDGE_H_
#define RBLNSIM_PROFILER_BRIDGE_RBLN_BRIDGE_H_

#include <cstdint>

#include "base/status.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/clock.h"
#include "profiler/bridge/kineto_api.h"
#include "profiler/bridge/session_lifecycle.h"

namespace rblnsim::bridge {

class RblnBridge {
 public:
  // |clock| is not owned and must outlive the bridge.
  RblnBridge(KinetoApi api, BridgeClock* clock);

  RblnBridge(const RblnBridge&) = delete;
  RblnBridge& operator=(const RblnBridge&) = delete;

  // Asks rbln_kineto_is_active and creates a session only if it reports 1; returns whether a
  // session exists. Without one, Start() and Stop() do nothing (Kineto would have no session
  // object to call), so an inactive profiler never sees begin or end. A failing is_active is an
  // error, not "inactive".
  StatusOr<bool> Configure();

  // Records the (steady, system) anchor pair, then calls rbln_kineto_begin_session.
  Status Start();

  // Ends the session: calls rbln_kineto_end_session_and_export with a sink that copies the
  // export, then converts it against the anchor and the capture window [start, end] (system-clock
  // ns, as Kineto passes them to processTrace). The session can be started again afterwards.
  StatusOr<BridgeResult> Stop(int64_t capture_start_system_ns, int64_t capture_end_system_ns);

  bool has_session() const { return lifecycle_.has_session(); }
  // Room Stop's result keeps in its events for |events| more (ConvertWindow::spare_events).
  void ReserveSpareEvents(size_t events) { lifecycle_.set_spare_events(events); }

 private:
  KinetoApi api_;
  BridgeClock* clock_;
  SessionLifecycle lifecycle_;
};

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_RBLN_BRIDGE_H_
