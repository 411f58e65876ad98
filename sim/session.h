// One simulated session, the whole sequence in one place: configure the process-wide simulated
// runtime with a resolved scenario and the simulated clock, run the warm-up, take one profiled
// window through the seam of the requested dialect (profiled_window.h), and assemble the trace a
// consumer would write: the capture window, the card's deviceProperties, the host rows
// (host_trace.h), the device side from the bridge and the bridge's and producer's counters as
// top-level metadata. `rblnsim run`, `rblnsim compare` (and through `run` every sweep point and
// calibration candidate), the benchmarks and the reliability tests all simulate through it.
//
// SystemC elaborates once per process, so this runs once per process.
#ifndef RBLNSIM_SIM_SESSION_H_
#define RBLNSIM_SIM_SESSION_H_

#include <optional>

#include "base/status.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/trace/dialect.h"
#include "profiler/trace/trace.h"
#include "scenario/scenario.h"
#include "sim/simulation.h"

namespace rblnsim::sim {

struct SessionConfig {
  // Resolved, with the process environment already applied (scenario/env.h).
  const scenario::Scenario* scenario = nullptr;
  // The seam the consumer side uses: the runtime activity API (current) or the rbln_kineto C-ABI.
  trace::Dialect dialect = trace::Dialect::kCurrent;
  // SimulatedSession::session.records holds the device records (tests read them). Otherwise
  // they are let go once converted for the export: the trace carries them.
  bool keep_device_records = false;
  // SimulatedSession::session.truth.launches has a record per launch. A caller that reads none
  // turns it off before the window runs.
  bool keep_launch_truth = true;
};

struct SimulatedSession {
  // What the simulated program itself did. A failed warm-up ends the session before the window:
  // nothing below it is set. A failed window (a timed-out command) still leaves its trace.
  Status warmup;
  Status window;
  // A profiling session existed and the producer recorded device work.
  bool active = false;
  trace::Trace trace;
  // The ground truth, device records and run counters. Its host timeline is already in |trace|
  // (as host rows) and is left empty here.
  SessionData session;
  // The bridge's and producer's counters, when a profiling session existed.
  std::optional<bridge::BridgeStats> stats;
};

// Errors are the runtime refusing the scenario (bad input), or a seam or bridge failing.
StatusOr<SimulatedSession> SimulateSession(const SessionConfig& config);

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_SESSION_H_
