// One simulated run of a resolved scenario, in this process, as the Chrome-trace model that
// `rblnsim run` writes: warm-up, then the profiled window through SimulateProfiledWindow (the
// same session `run` takes) in the dialect of the trace it is compared with, so both sides
// measure host time the same way. Once per process: SystemC elaborates once.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_SIMULATE_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_SIMULATE_H_

#include "base/status.h"
#include "profiler/trace/dialect.h"
#include "profiler/trace/trace.h"
#include "scenario/scenario.h"

namespace rblnsim::cli {

struct SimulatedTrace {
  trace::Trace trace;
  bool window_ok = true;  // false when the simulated window failed (e.g. a command timed out)
  std::string window_error;
};

// |scenario| must have its env applied; errors are bad input (the runtime refused the scenario).
StatusOr<SimulatedTrace> SimulateTrace(const scenario::Scenario& scenario, trace::Dialect dialect);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_SIMULATE_H_
