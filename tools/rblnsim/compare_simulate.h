// One simulated run of a resolved scenario, in this process, as the Chrome-trace model that
// `rblnsim run` writes: warm-up, then the profiled window seen through the C-ABI and the bridge
// with the deterministic simulated clock. This is `run`'s sequence (run_command.cc) without its
// printing and files, kept separate so `run` itself stays untouched. Once per process: SystemC
// elaborates once.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMPARE_SIMULATE_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMPARE_SIMULATE_H_

#include "profiler/base/status.h"
#include "profiler/trace/trace.h"
#include "sim/scenario/scenario.h"

namespace rblnsim::cli {

struct SimulatedTrace {
  trace::Trace trace;
  bool window_ok = true;  // false when the simulated window failed (e.g. a command timed out)
  std::string window_error;
};

// |scenario| must have its env applied; errors are bad input (the runtime refused the scenario).
StatusOr<SimulatedTrace> SimulateTrace(const scenario::Scenario& scenario);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMPARE_SIMULATE_H_
