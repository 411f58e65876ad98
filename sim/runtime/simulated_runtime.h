// The process-wide simulated RBLN runtime behind both producer seams (the rbln_kineto C-ABI and
// the runtime activity API). It is created once per process, elaborates the device once and
// keeps it, so a second session continues simulated time instead of re-elaborating.
//
// Two ways in:
//  - A foreign consumer (torch-rbln's bridge, any program loading librblnsim_kineto.so or
//    librblnsim_runtime.so): the first call loads the scenario named by RBLNSIM_SCENARIO and runs
//    its warm-up; every session end delivers one run of the scenario's profiled window. Each
//    session's simulated window is laid onto the real steady clock at its own begin call, markers
//    and launches carry the calling thread's pid/tid, and the end call waits for simulated device
//    work that outlasts the real window. RBLNSIM_CLOCK=sim is refused here: simulated time would
//    be stamped far away from the consumer's steady clock.
//  - The rblnsim CLI configures it with a resolved scenario and ClockMode::kSimulated, drives the
//    phases itself with a deterministic clock, and reads the host timeline and ground truth.
//
// RBLN_PROFILER: the C-ABI reads it once, when the runtime is created; the activity API reads it
// when a session begins (the process environment, else the scenario's env: section).
#ifndef RBLNSIM_SIM_RUNTIME_SIMULATED_RUNTIME_H_
#define RBLNSIM_SIM_RUNTIME_SIMULATED_RUNTIME_H_

#include <memory>
#include <mutex>
#include <optional>

#include "profiler/abi/producer_runtime.h"
#include "sim/runtime/capture_conversion.h"
#include "sim/simulation.h"

namespace rblnsim::sim {

enum class ClockMode { kReal, kSimulated };

class SimulatedRuntime : public abi::CaptureSource {
 public:
  static SimulatedRuntime& Get();

  // Creates the runtime from a resolved scenario (env already applied). Once per process.
  Status Configure(const scenario::Scenario& scenario, ClockMode mode);
  Status RunWarmup();
  Status RunWindow();

  // Simulated host clocks (ClockMode::kSimulated): what the CLI's bridge anchors on.
  int64_t SteadyNowNs() const;
  int64_t SystemNowNs() const;

  bool profiler_enabled() const { return profiler_enabled_; }
  // The last ended session's host side and ground truth (taken once).
  std::optional<SessionData> TakeLastSession();
  // Whether the last session keeps its device records once they are converted for the export.
  // Off by default: the export and the trace carry them, and a long session's records would sit
  // beside the export while the consumer reads it, in the consumer's own process too.
  void KeepDeviceRecords(bool keep) { keep_device_records_ = keep; }
  Simulation* simulation() { return simulation_.get(); }
  // True between a seam's begin that started recording and its end. A caller that drives the
  // window itself (the CLI) begins the simulation's session on its own when this stays false
  // after beginActivities(): the profiler off, or an ATOM card.
  bool in_session() const { return in_session_; }
  abi::ProducerRuntime& producer() { return producer_; }

  // RBLN_PROFILER as the activity API reads it now: the process environment when set and
  // non-empty, else the scenario's env: section (false when no scenario can be loaded).
  bool ProfilerFlagNow();

  // CaptureSource.
  StatusOr<bool> Active() override;
  StatusOr<bool> ActiveForActivities() override;
  Status Begin() override;
  StatusOr<abi::ProducerCapture> End() override;
  double nominal_clock_ghz() const override;
  bool stamps_real_clock() const override { return clock_mode_ == ClockMode::kReal; }

 private:
  SimulatedRuntime();
  // Foreign consumers: loads RBLNSIM_SCENARIO once (the process environment applied, except
  // RBLN_PROFILER, which each seam reads at its own time).
  Status LoadForeignScenarioLocked();
  // Creates the simulation for a foreign consumer, the profiler on or off for the device model.
  Status EnsureSimulation(bool profiler_enabled);

  abi::ProducerRuntime producer_;
  std::mutex load_mutex_;  // Flag::value() may load the scenario from any thread
  std::optional<scenario::Scenario> foreign_scenario_;
  Status foreign_status_;
  bool foreign_loaded_ = false;
  Status clock_refusal_;            // why a foreign session may not begin (RBLNSIM_CLOCK)
  bool scenario_profiler_ = false;  // the scenario's own RBLN_PROFILER
  bool scenario_known_ = false;     // scenario_profiler_ is set (CLI scenario or foreign load)

  std::unique_ptr<Simulation> simulation_;
  Status configure_status_;
  bool configured_ = false;
  bool profiler_enabled_ = false;
  bool warmed_up_ = false;
  ClockMode clock_mode_ = ClockMode::kReal;
  SteadyMapping steady_;
  HostThread host_thread_;
  bool in_session_ = false;
  bool keep_device_records_ = false;
  std::optional<SessionData> last_session_;
};

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_RUNTIME_SIMULATED_RUNTIME_H_
