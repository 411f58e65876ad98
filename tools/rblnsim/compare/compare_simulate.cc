#include "tools/rblnsim/compare/compare_simulate.h"

#include <optional>

#include "sim/runtime/simulated_runtime.h"
#include "sim/host_trace.h"
#include "tools/rblnsim/run/simulated_session.h"

namespace rblnsim::cli {

StatusOr<SimulatedTrace> SimulateTrace(const scenario::Scenario& scenario, trace::Dialect dialect) {
  sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
  RBLNSIM_RETURN_IF_ERROR(runtime.Configure(scenario, sim::ClockMode::kSimulated));
  Status warm = runtime.RunWarmup();
  if (!warm.ok())
    return warm.WithPrefix("warm-up failed: ");
  RBLNSIM_ASSIGN_OR_RETURN(Capture capture, SimulateProfiledWindow(&runtime, dialect));
  const Status& window = capture.window;
  const int64_t capture_start = capture.capture_start_ns;
  const int64_t capture_end = capture.capture_end_ns;
  std::optional<bridge::BridgeResult>& device_side = capture.device_side;
  sim::SessionData& session = capture.session;

  SimulatedTrace out;
  out.window_ok = window.ok();
  out.window_error = window.message();
  trace::Trace& trace = out.trace;
  trace.capture_start_ns = capture_start;
  trace.capture_end_ns = capture_end;
  trace.base_time_ns = trace::KinetoBaseTimeNs(capture_start);
  trace.device_properties.push_back(sim::DeviceProperties(scenario));
  sim::AppendHostTrace(scenario, session.timeline, scenario.host.system_epoch_ns, &trace);
  if (device_side)
    std::move(*device_side).AppendTo(&trace);
  return out;
}

}  // namespace rblnsim::cli
