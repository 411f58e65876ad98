// The process-wide simulated RBLN runtime behind the rbln_kineto C-ABI. It is created once per
// process, reads RBLN_PROFILER once at creation, elaborates the device once and keeps it, so a
// second begin/end session continues simulated time instead of re-elaborating.
//
// Two ways in:
//  - A consumer that knows only the three C functions (torch-rbln's bridge): the first call loads
//    the scenario named by RBLNSIM_SCENARIO, runs its warm-up, and every end_session delivers one
//    run of the scenario's profiled window. Timestamps follow the real steady clock from the
//    session's begin (RBLNSIM_CLOCK=sim makes them deterministic instead).
//  - The rblnsim CLI configures it with a resolved scenario and drives the phases itself, with a
//    deterministic clock, and reads the host timeline and ground truth afterwards.
#ifndef RBLNSIM_SIM_RUNTIME_SIMULATED_RUNTIME_H_
#define RBLNSIM_SIM_RUNTIME_SIMULATED_RUNTIME_H_

#include <memory>
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
  Simulation* simulation() { return simulation_.get(); }
  abi::ProducerRuntime& producer() { return producer_; }

  // CaptureSource.
  StatusOr<bool> Active() override;
  Status Begin() override;
  StatusOr<abi::ProducerCapture> End() override;
  double nominal_clock_ghz() const override;

 private:
  SimulatedRuntime();
  Status EnsureConfigured();

  abi::ProducerRuntime producer_;
  std::unique_ptr<Simulation> simulation_;
  Status configure_status_;
  bool configured_ = false;
  bool profiler_enabled_ = false;
  bool warmed_up_ = false;
  ClockMode clock_mode_ = ClockMode::kReal;
  bool real_clock_anchored_ = false;
  SteadyMapping steady_;
  std::optional<SessionData> last_session_;
};

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_RUNTIME_SIMULATED_RUNTIME_H_
