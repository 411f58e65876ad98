// Simulated time as ns. The kernel keeps time as an integer count of its resolution (1 ps by
// default); converting that count directly keeps every timestamp exact to the picosecond, where
// going through seconds as a double would add rounding noise.
#ifndef RBLNSIM_MODELS_REBEL100_SIM_TIME_H_
#define RBLNSIM_MODELS_REBEL100_SIM_TIME_H_

#include <cstdint>
#include <systemc>

#include "scenario/limits.h"

namespace rblnsim::rebel100 {

inline double NsPerTick() {
  static const double kNsPerTick = sc_core::sc_get_time_resolution().to_seconds() * 1e9;
  return kNsPerTick;
}

inline double SimNowNs() {
  return static_cast<double>(sc_core::sc_time_stamp().value()) * NsPerTick();
}

inline double TicksPerNs() {
  static const double kTicksPerNs =
      static_cast<double>(sc_core::sc_time(1, sc_core::SC_NS).value());
  return kTicksPerNs;
}

// The kernel ticks of the simulated-time limit: no single delay, and no host clock, goes past it.
inline uint64_t MaxSimulatedTicks() {
  static const uint64_t kMax = static_cast<uint64_t>(scenario::kMaxSimulatedNs * TicksPerNs());
  return kMax;
}

// Kernel ticks in |delay_ns| rounded as sc_time(delay_ns, SC_NS) rounds them (v * scale + 0.5,
// truncated), without the constructor's per-call lookup of the time parameters. Saturates at
// MaxSimulatedTicks() (NaN too) rather than wrapping through the integer conversion.
inline uint64_t DelayTicks(double delay_ns) {
  if (!(delay_ns > 0))
    return 0;
  if (!(delay_ns < scenario::kMaxSimulatedNs))
    return MaxSimulatedTicks();
  volatile double ticks = delay_ns * TicksPerNs() + 0.5;  // no excess precision, as in sc_time
  return static_cast<uint64_t>(ticks);
}

// A delay as wait(sc_time(delay_ns, SC_NS)) would advance it: rounded to the kernel's resolution.
inline double KernelDelayNs(double delay_ns) {
  return static_cast<double>(DelayTicks(delay_ns)) * NsPerTick();
}

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_SIM_TIME_H_
