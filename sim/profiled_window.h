// One profiled window of a configured simulated runtime, taken the way a consumer takes it: our
// bridge drives the producer through the seam of the requested dialect (the runtime activity API
// for current, the rbln_kineto C-ABI for c-abi) with the simulated clocks, so every run of a
// scenario gives the same trace. SimulateSession (session.h) is built on it.
#ifndef RBLNSIM_SIM_PROFILED_WINDOW_H_
#define RBLNSIM_SIM_PROFILED_WINDOW_H_

#include <cstdint>
#include <optional>

#include "base/status.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/trace/dialect.h"
#include "sim/runtime/simulated_runtime.h"

namespace rblnsim::sim {

// What one profiled window gave, whichever seam it went through.
struct Capture {
  bool active = false;  // a profiling session existed and the producer recorded device work
  int64_t capture_start_ns = 0;
  int64_t capture_end_ns = 0;
  Status window;  // the simulated run's own outcome (a timed-out command fails it)
  std::optional<bridge::BridgeResult> device_side;
  SessionData session;
};

// |runtime| must be configured with ClockMode::kSimulated and warmed up.
StatusOr<Capture> SimulateProfiledWindow(SimulatedRuntime* runtime, trace::Dialect dialect);

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_PROFILED_WINDOW_H_
