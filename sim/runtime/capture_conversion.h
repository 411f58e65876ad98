// Turns a simulated session into what the producer seams export: device rows per chiplet, lanes
// per engine, names from the scenario's template, rbln_run markers in steady ns on the launching
// host thread, and clock-sync points relating the device cycle counter to the host's steady
// clock. The host process is not a device: markers name its pid/tid, which no device row has.
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

// The OS process and thread the markers (launches) are recorded on.
struct HostThread {
  int32_t pid = 0;
  int32_t tid = 0;
};

abi::ProducerCapture ConvertSession(const Simulation& simulation,
                                    const SessionData& session,
                                    const SteadyMapping& steady,
                                    const HostThread& host);

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_RUNTIME_CAPTURE_CONVERSION_H_
