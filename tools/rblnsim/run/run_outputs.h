// Machine-readable outputs of `rblnsim run`, beside the trace:
//  - metrics: the run's figures (RunMetrics), the unit of a sweep point's result;
//  - truth: the simulator's ground truth (every launch's latency decomposition, every fallback,
//    recompile and host round trip), which trace-only analyses are scored against.
// Both are written atomically with the project's one JSON writer.
#ifndef RBLNSIM_TOOLS_RBLNSIM_RUN_RUN_OUTPUTS_H_
#define RBLNSIM_TOOLS_RBLNSIM_RUN_RUN_OUTPUTS_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/trace/trace.h"
#include "scenario/scenario.h"
#include "sim/simulation.h"
#include "tools/rblnsim/lib/artifacts/metrics_file.h"

namespace rblnsim::cli {

// Ground-truth submission latencies (rbln_run start to the launch's first device work), sim ns,
// sorted ascending; launches that never reached the device are left out.
std::vector<double> SortedSubmissionLatenciesNs(const sim::GroundTruth& truth);

// Nearest-rank percentile |p| (1..100) of |sorted|; 0 when empty.
double NearestRank(const std::vector<double>& sorted, int p);

// The figures of `run --metrics` (written by lib/artifacts/metrics_file.h); |device_events| are
// report::DeviceEvents of the run's trace.
RunMetrics MetricsOf(const scenario::Scenario& scenario,
                     const std::vector<const trace::Event*>& device_events,
                     const sim::SessionData& session);

// Times in the truth file are system-clock ns (the trace's domain): sim ns + |system_minus_sim_ns|.
Status WriteTruth(const std::string& path,
                  const scenario::Scenario& scenario,
                  const sim::SessionData& session,
                  int64_t system_minus_sim_ns);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_RUN_RUN_OUTPUTS_H_
