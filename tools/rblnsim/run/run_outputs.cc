#include "tools/rblnsim/run/run_outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "profiler/analysis/truth_file.h"
#include "profiler/report/device_events.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"
#include "sim/device_facts.h"

namespace rblnsim::cli {

namespace {

int64_t Ns(double sim_ns, int64_t offset) {
  return std::llround(sim_ns) + offset;
}

}  // namespace

std::vector<double> SortedSubmissionLatenciesNs(const sim::GroundTruth& truth) {
  std::vector<double> latencies;
  for (const sim::LaunchTruth& l : truth.launches) {
    if (l.first_device_start_ns >= 0)
      latencies.push_back(l.first_device_start_ns - l.marker_start_ns);
  }
  std::sort(latencies.begin(), latencies.end());
  return latencies;
}

double NearestRank(const std::vector<double>& sorted, int p) {
  if (sorted.empty())
    return 0.0;
  // ceil(p/100 * n) in integers: 0.99 * 100 must not round up to rank 100.
  const size_t rank = (static_cast<size_t>(p) * sorted.size() + 99) / 100;
  return sorted[std::min(std::max<size_t>(rank, 1), sorted.size()) - 1];
}

RunMetrics MetricsOf(const scenario::Scenario& scenario,
                     const std::vector<const trace::Event*>& device_events,
                     const sim::SessionData& session) {
  const double window_ns = session.end_ns - session.begin_ns;
  const std::vector<double> latencies = SortedSubmissionLatenciesNs(session.truth);
  int64_t device_ns = 0;
  for (const trace::Event* e : device_events)
    device_ns += e->dur_ns;
  RunMetrics m;
  m.scenario = scenario.name;
  m.seed = scenario.seed;
  m.end_to_end_ns = window_ns;
  m.launches = static_cast<int64_t>(session.truth.launches.size());
  m.launches_per_s = window_ns > 0 ? session.truth.launches.size() / (window_ns * 1e-9) : 0.0;
  m.device_events = static_cast<int64_t>(device_events.size());
  m.self_rbln_total_ns = device_ns;
  m.latency_p50_ns = NearestRank(latencies, 50);
  m.latency_p90_ns = NearestRank(latencies, 90);
  m.latency_p99_ns = NearestRank(latencies, 99);
  m.latency_max_ns = latencies.empty() ? 0.0 : latencies.back();
  m.fallbacks = static_cast<int64_t>(session.truth.fallbacks.size());
  m.recompiles = static_cast<int64_t>(session.truth.recompiles.size());
  m.records_dropped = session.records_dropped;
  m.commands_timed_out = session.commands_timed_out;
  m.max_ring_occupancy = session.max_ring_occupancy;
  // Per-engine busy time divided by the window and the engine count is what each track's
  // utilisation shows; the union of all engines' activity would need intervals.
  for (const sim::EngineBusy& b : session.busy) {
    if (b.busy_ns <= 0)
      continue;
    const double pct = window_ns > 0 ? 100.0 * b.busy_ns / (window_ns * b.instances) : 0.0;
    m.engine_busy_pct.emplace_back(
        fmt::format("chiplet{}/{}", b.chiplet, sim::EngineName(b.engine)), pct);
  }
  m.device_busy_pct = window_ns > 0 ? std::min(100.0, 100.0 * device_ns / window_ns) : 0.0;
  return m;
}

Status WriteTruth(const std::string& path,
                  const scenario::Scenario& scenario,
                  const sim::SessionData& session,
                  int64_t offset) {
  const sim::GroundTruth& truth = session.truth;
  analysis::TruthFile file;
  file.scenario = scenario.name;
  for (const sim::LaunchTruth& l : truth.launches) {
    file.launches.push_back(
        {l.launch_id, l.op, l.external_id, l.instance, l.sequence, Ns(l.marker_start_ns, offset),
         Ns(l.first_device_start_ns, offset), Ns(l.last_device_end_ns, offset),
         Ns(l.completed_ns, offset), Ns(l.first_device_start_ns, 0) - Ns(l.marker_start_ns, 0),
         l.host_overhead_ns, l.ring_wait_ns, l.queue_wait_ns, l.transport_ns, l.failed});
  }
  for (const sim::FallbackTruth& f : truth.fallbacks) {
    file.fallbacks.push_back({f.op, sim::FallbackReasonName(f.reason),
                              platform::FallbackShapeName(f.shape), f.external_id, f.bytes_to_host,
                              f.bytes_to_device});
  }
  for (const sim::RecompileTruth& r : truth.recompiles)
    file.recompiles.push_back({r.op, r.program_key, r.instance, r.eviction, r.failed});
  for (const sim::RoundTripTruth& r : truth.round_trips)
    file.round_trips.push_back({r.reason, r.to_host, r.bytes});
  file.nan_inf_scans = truth.nan_inf_scans;
  file.records_dropped = session.records_dropped;
  file.commands_timed_out = session.commands_timed_out;
  return analysis::WriteTruthFile(path, file);
}

}  // namespace rblnsim::cli
