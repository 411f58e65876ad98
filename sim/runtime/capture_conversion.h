// Turns a simulated session into what the producer C-ABI layer exports: device rows per chiplet,
// lanes per engine, names from the scenario's template, rbln_run markers in steady ns, and
// clock-sync points relating the device cycle counter to the host's steady clock.
#ifndef RBLNSIM_SIM_RUNTIME_CAPTURE_CONVERSION_H_
#define RBLNSIM_SIM_RUNTIME_CAPTURE_CONVERSION_H_

#include <cstdint>

#include "profiler/abi/producer_capture.h"
#include "sim/simulation.h"

namespace rblnsim::sim {

// Device rows start here so they never collide with Kineto's default "GPU 0..15" rows.
inline constexpr int32_t kDevicePidBase = 100;

int32_t ChipletPid(int chiplet);
int32_t EngineTid(rebel100::EngineType type, int instance);

struct SteadyMapping {
  int64_t steady_minus_sim_ns = 0;  // steady ns = sim ns + this
  int64_t ToSteady(double sim_ns) const;
};

abi::ProducerCapture ConvertSession(const Simulation& simulation,
                                    const SessionData& session,
                                    const SteadyMapping& steady);

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_RUNTIME_CAPTURE_CONVERSION_H_
