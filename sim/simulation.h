// The simulation facade: elaborates one Rebel100 device and its host once per process and runs
// the scenario's workload phases. The SystemC kernel stays behind this header (pimpl), so the
// runtime, the CLI and tests drive it as plain C++.
#ifndef RBLNSIM_SIM_SIMULATION_H_
#define RBLNSIM_SIM_SIMULATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "models/rebel100/engine_types.h"
#include "models/rebel100/profiler_unit.h"
#include "models/records.h"
#include "scenario/scenario.h"

namespace rblnsim::sim {

struct EngineBusy {
  int chiplet = 0;
  rebel100::EngineType engine = rebel100::EngineType::kNeuralEngine;
  int instances = 1;
  double busy_ns = 0;
};

struct SessionData {
  double begin_ns = 0;  // sim time of the session's begin and end
  double end_ns = 0;
  rebel100::RecordBuffer records;
  int64_t records_dropped = 0;
  HostTimeline timeline;
  GroundTruth truth;
  int64_t commands_timed_out = 0;
  std::vector<std::string> errors;
  std::vector<EngineBusy> busy;  // accumulated over the whole process
  int max_ring_occupancy = 0;
  // torch-rbln's log lines since the process started or the last session ended, warm-up
  // included (TORCH_RBLN_LOG_LEVEL; the CPU-fallback line is INFO).
  std::vector<std::string> runtime_log;
};

class Simulation {
 public:
  // Fails on a second call in the same process: SystemC elaborates once.
  static StatusOr<std::unique_ptr<Simulation>> Create(const scenario::Scenario& scenario,
                                                      bool profiler_enabled);
  ~Simulation();

  Status RunWarmup();
  // Runs any steps over the scenario's tensors (benchmarks, tools); |recording| as in a window.
  Status RunSteps(const std::vector<scenario::Step>& steps, bool recording);
  void BeginSession();
  Status RunWindow();
  SessionData EndSession();
  // Whether the sessions' ground truth has a record per launch (host/host_runtime.h).
  void RecordLaunchTruth(bool on);

  bool window_ran() const { return window_ran_; }
  // The open session's host timeline so far (EndSession takes it).
  const HostTimeline& host_timeline() const;
  double NowNs() const;
  int64_t DeviceCyclesAt(double host_ns) const;
  const scenario::Scenario& scenario() const;
  std::string CommandName(const rebel100::DeviceRecord& record) const;
  // The same name appended to |out|.
  void AppendCommandName(const rebel100::DeviceRecord& record, std::string* out) const;
  int64_t launches() const;
  // Launches the host still holds (host/host_runtime.h runs_held): bounded across sessions.
  size_t runs_held() const;
  int64_t commands_executed() const;

 private:
  struct Impl;
  explicit Simulation(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
  bool window_ran_ = false;
  double session_begin_ns_ = 0;
};

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_SIMULATION_H_
