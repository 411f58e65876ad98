// The host side of a simulated run as torch.profiler would record it: the ATen call tree as
// cpu_op events with the args torch writes, on the process/thread rows of the simulated process.
// (rbln_run markers are not here: they reach the trace through the producer and the bridge.)
#ifndef RBLNSIM_SIM_HOST_TRACE_H_
#define RBLNSIM_SIM_HOST_TRACE_H_

#include "models/records.h"
#include "profiler/trace/trace.h"
#include "scenario/scenario.h"

namespace rblnsim::sim {

// Appends the host rows and events; |system_minus_sim_ns| maps sim ns to system-clock ns.
void AppendHostTrace(const scenario::Scenario& scenario,
                     const sim::HostTimeline& timeline,
                     int64_t system_minus_sim_ns,
                     trace::Trace* out);

// How many events AppendHostTrace appends for |timeline|: its runtime markers are not among them.
size_t HostTraceEvents(const sim::HostTimeline& timeline);

// The deviceProperties entry of the simulated card, as a JSON object.
trace::RawJson DeviceProperties(const scenario::Scenario& scenario);

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_HOST_TRACE_H_
