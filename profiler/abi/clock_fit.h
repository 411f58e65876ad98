// Device cycles → host steady-clock ns: a least-squares line through the clock-sync points, the
// offset-plus-scale method the Kineto notes recommend (kineto-and-trace-format §5). With two or
// more points it follows both a constant offset and a linear drift.
#ifndef RBLNSIM_PROFILER_ABI_CLOCK_FIT_H_
#define RBLNSIM_PROFILER_ABI_CLOCK_FIT_H_

#include <cstdint>
#include <vector>

#include "profiler/abi/producer_capture.h"

namespace rblnsim::abi {

class ClockFit {
 public:
  // |nominal_ghz| is used when fewer than two points exist (offset only).
  ClockFit(const std::vector<ClockSyncPoint>& points, double nominal_ghz);

  int64_t ToSteadyNs(int64_t device_cycles) const;
  double ns_per_cycle() const { return ns_per_cycle_; }

 private:
  // Anchored at the first point so the arithmetic stays exact for large absolute values.
  int64_t anchor_cycles_ = 0;
  int64_t anchor_ns_ = 0;
  double ns_per_cycle_ = 1.0;
  double intercept_ns_ = 0.0;
};

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_CLOCK_FIT_H_
