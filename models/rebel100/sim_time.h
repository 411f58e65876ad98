// Simulated time as ns. The kernel keeps time as an integer count of its resolution (1 ps by
// default); converting that count directly keeps every timestamp exact to the picosecond, where
// going through seconds as a double would add rounding noise.
#ifndef RBLNSIM_MODELS_REBEL100_SIM_TIME_H_
#define RBLNSIM_MODELS_REBEL100_SIM_TIME_H_

#include <systemc>

namespace rblnsim::rebel100 {

inline double SimNowNs() {
  static const double kNsPerTick = sc_core::sc_get_time_resolution().to_seconds() * 1e9;
  return static_cast<double>(sc_core::sc_time_stamp().value()) * kNsPerTick;
}

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_SIM_TIME_H_
