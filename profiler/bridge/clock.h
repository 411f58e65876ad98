// The two clocks the bridge anchors against. The producer stamps slices with steady_clock ns; the
// trace needs system_clock (Unix epoch) ns like PyTorch's CPU ops, so Start() records one pair
// and Stop() shifts every slice by system - steady. Tests substitute a fake to check the shift.
#ifndef RBLNSIM_PROFILER_BRIDGE_CLOCK_H_
#define RBLNSIM_PROFILER_BRIDGE_CLOCK_H_

#include <cstdint>

namespace rblnsim::bridge {

class BridgeClock {
 public:
  virtual ~BridgeClock() = default;
  // std::chrono::steady_clock, ns since its epoch: the domain of the export's timestamps.
  virtual int64_t SteadyNowNs() = 0;
  // std::chrono::system_clock, ns since the Unix epoch: the domain of the trace.
  virtual int64_t SystemNowNs() = 0;
};

class RealClock final : public BridgeClock {
 public:
  int64_t SteadyNowNs() override;
  int64_t SystemNowNs() override;
};

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_CLOCK_H_
