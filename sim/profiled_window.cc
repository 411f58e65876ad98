#include "sim/profiled_window.h"

#include <rbln/runtime/activity.h>
#include <rbln/runtime/flags.h>

#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/activity_bridge.h"
#include "profiler/bridge/kineto_api.h"
#include "profiler/bridge/rbln_bridge.h"
#include "sim/host_trace.h"
#include "sim/simulated_clock.h"

namespace rblnsim::sim {

namespace {

// The session shape both bridges share: Configure when the profiler is configured, Start at the
// capture start, run the window, Stop with the capture window. |producer_began| says whether the
// producer opened a session (the activity seam opens none on ATOM even with the flag set).
template <typename Bridge>
StatusOr<Capture> DriveSession(SimulatedRuntime* runtime, Bridge* bridge) {
  Capture capture;
  RBLNSIM_ASSIGN_OR_RETURN(const bool has_session, bridge->Configure());
  capture.capture_start_ns = runtime->SystemNowNs();
  RBLNSIM_RETURN_IF_ERROR(bridge->Start());
  const bool producer_began = has_session && runtime->in_session();
  Simulation* simulation = runtime->simulation();
  if (!producer_began)
    simulation->BeginSession();
  capture.window = runtime->RunWindow();
  capture.capture_end_ns = runtime->SystemNowNs();
  if (has_session) {
    // The trace is one array, host events then device events: the device events' array keeps
    // room for the host events, so that array becomes the trace's (session.cc).
    bridge->ReserveSpareEvents(HostTraceEvents(simulation->host_timeline()));
    RBLNSIM_ASSIGN_OR_RETURN(bridge::BridgeResult result,
                             bridge->Stop(capture.capture_start_ns, capture.capture_end_ns));
    capture.device_side = std::move(result);
  }
  if (producer_began) {
    auto taken = runtime->TakeLastSession();
    if (taken)
      capture.session = std::move(*taken);
  } else {
    capture.session = simulation->EndSession();
  }
  capture.active = producer_began;
  return capture;
}

StatusOr<Capture> CaptureThroughCAbi(SimulatedRuntime* runtime, bridge::BridgeClock* clock) {
  RBLNSIM_ASSIGN_OR_RETURN(
      bridge::KinetoApi api,
      bridge::KinetoApi::FromFunctions(&rbln_kineto_is_active, &rbln_kineto_begin_session,
                                       &rbln_kineto_end_session_and_export,
                                       &rblnsim_kineto_last_session_stats));
  bridge::RblnBridge bridge(api, clock);
  return DriveSession(runtime, &bridge);
}

StatusOr<Capture> CaptureThroughActivities(SimulatedRuntime* runtime, bridge::BridgeClock* clock) {
  RBLNSIM_ASSIGN_OR_RETURN(
      bridge::ActivityApi api,
      bridge::ActivityApi::FromFunctions(
          [] { return rbln::runtime::flags::kProfiler.value(); }, &rbln::runtime::beginActivities,
          &rbln::runtime::endActivities, &rblnsim_kineto_last_session_stats));
  bridge::ActivityBridge bridge(api, clock);
  return DriveSession(runtime, &bridge);
}

}  // namespace

StatusOr<Capture> SimulateProfiledWindow(SimulatedRuntime* runtime, trace::Dialect dialect) {
  SimulatedClock clock(runtime);
  return dialect == trace::Dialect::kCAbi ? CaptureThroughCAbi(runtime, &clock)
                                          : CaptureThroughActivities(runtime, &clock);
}

}  // namespace rblnsim::sim
