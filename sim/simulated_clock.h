// The bridge's two clocks read from the simulated runtime instead of the machine, so every run
// of a scenario stamps the same times and gives the same trace. Everything in the tree that
// drives a bridge against the simulator in ClockMode::kSimulated (the session pipeline, the
// benchmarks) anchors on this one clock.
#ifndef RBLNSIM_SIM_SIMULATED_CLOCK_H_
#define RBLNSIM_SIM_SIMULATED_CLOCK_H_

#include <cstdint>

#include "profiler/bridge/clock.h"
#include "sim/runtime/simulated_runtime.h"

namespace rblnsim::sim {

class SimulatedClock final : public bridge::BridgeClock {
 public:
  // |runtime| must outlive the clock and be configured with ClockMode::kSimulated.
  explicit SimulatedClock(SimulatedRuntime* runtime) : runtime_(runtime) {}
  int64_t SteadyNowNs() override { return runtime_->SteadyNowNs(); }
  int64_t SystemNowNs() override { return runtime_->SystemNowNs(); }

 private:
  SimulatedRuntime* runtime_;
};

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_SIMULATED_CLOCK_H_
