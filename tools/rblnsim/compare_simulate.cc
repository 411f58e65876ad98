#include "tools/rblnsim/compare_simulate.h"

#include <optional>

#include "profiler/abi/rbln_kineto_api.h"
#include "profiler/bridge/clock.h"
#include "profiler/bridge/kineto_api.h"
#include "profiler/bridge/rbln_bridge.h"
#include "sim/runtime/simulated_runtime.h"
#include "tools/rblnsim/host_trace.h"

namespace rblnsim::cli {

namespace {

// The bridge's clocks, read from the simulation so every run of a scenario gives the same trace.
class SimulatedClock final : public bridge::BridgeClock {
 public:
  explicit SimulatedClock(sim::SimulatedRuntime* runtime) : runtime_(runtime) {}
  int64_t SteadyNowNs() override { return runtime_->SteadyNowNs(); }
  int64_t SystemNowNs() override { return runtime_->SystemNowNs(); }

 private:
  sim::SimulatedRuntime* runtime_;
};

}  // namespace

StatusOr<SimulatedTrace> SimulateTrace(const scenario::Scenario& scenario) {
  sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
  RBLNSIM_RETURN_IF_ERROR(runtime.Configure(scenario, sim::ClockMode::kSimulated));
  Status warm = runtime.RunWarmup();
  if (!warm.ok())
    return warm.WithPrefix("warm-up failed: ");

  // The consumer side sees the producer only through the C-ABI, exactly as torch-rbln does.
  RBLNSIM_ASSIGN_OR_RETURN(
      bridge::KinetoApi api,
      bridge::KinetoApi::FromFunctions(&rbln_kineto_is_active, &rbln_kineto_begin_session,
                                       &rbln_kineto_end_session_and_export,
                                       &rblnsim_kineto_last_session_stats));
  SimulatedClock clock(&runtime);
  bridge::RblnBridge bridge(api, &clock);
  RBLNSIM_ASSIGN_OR_RETURN(bool has_session, bridge.Configure());

  const int64_t capture_start = runtime.SystemNowNs();
  RBLNSIM_RETURN_IF_ERROR(bridge.Start());
  sim::Simulation* simulation = runtime.simulation();
  if (!has_session)
    simulation->BeginSession();
  Status window = runtime.RunWindow();
  const int64_t capture_end = runtime.SystemNowNs();

  std::optional<bridge::BridgeResult> device_side;
  sim::SessionData session;
  if (has_session) {
    RBLNSIM_ASSIGN_OR_RETURN(bridge::BridgeResult result, bridge.Stop(capture_start, capture_end));
    device_side = std::move(result);
    if (auto taken = runtime.TakeLastSession())
      session = std::move(*taken);
  } else {
    session = simulation->EndSession();
  }

  SimulatedTrace out;
  out.window_ok = window.ok();
  out.window_error = window.message();
  trace::Trace& trace = out.trace;
  trace.capture_start_ns = capture_start;
  trace.capture_end_ns = capture_end;
  trace.base_time_ns = trace::KinetoBaseTimeNs(capture_start);
  trace.device_properties.push_back(DeviceProperties(scenario));
  AppendHostTrace(scenario, session.timeline, scenario.host.system_epoch_ns, &trace);
  if (device_side)
    device_side->AppendTo(&trace);
  return out;
}

}  // namespace rblnsim::cli
