// A scenario's expect: block checked against the run: each assertion printed with PASS/FAIL, so a
// scenario file doubles as a CI test of the profiling stack.
#ifndef RBLNSIM_TOOLS_RBLNSIM_RUN_EXPECTATIONS_H_
#define RBLNSIM_TOOLS_RBLNSIM_RUN_EXPECTATIONS_H_

#include <cstdio>
#include <vector>

#include "profiler/trace/trace.h"
#include "scenario/scenario.h"
#include "sim/simulation.h"

namespace rblnsim::cli {

// Prints one line per assertion to |out|; returns false when any fails. |device_events| are
// report::DeviceEvents of |trace|; only expect.device_events and expect.self_rbln_total_us read
// them (a caller may pass none when neither is set).
bool CheckExpectations(const scenario::Scenario& scenario,
                       const trace::Trace& trace,
                       const std::vector<const trace::Event*>& device_events,
                       const sim::SessionData& session,
                       std::FILE* out);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_RUN_EXPECTATIONS_H_
