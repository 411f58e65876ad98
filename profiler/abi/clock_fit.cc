#include "profiler/abi/clock_fit.h"

#include <cmath>

namespace rblnsim::abi {

ClockFit::ClockFit(const std::vector<ClockSyncPoint>& points, double nominal_ghz) {
  ns_per_cycle_ = 1.0 / nominal_ghz;
  if (points.empty())
    return;
  anchor_cycles_ = points.front().device_cycles;
  anchor_ns_ = points.front().steady_ns;
  if (points.size() < 2)
    return;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(points.size());
  for (const ClockSyncPoint& p : points) {
    const double x = static_cast<double>(p.device_cycles - anchor_cycles_);
    const double y = static_cast<double>(p.steady_ns - anchor_ns_);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double denom = n * sxx - sx * sx;
  if (denom <= 0)
    return;
  ns_per_cycle_ = (n * sxy - sx * sy) / denom;
  intercept_ns_ = (sy - ns_per_cycle_ * sx) / n;
}

int64_t ClockFit::ToSteadyNs(int64_t device_cycles) const {
  const double dx = static_cast<double>(device_cycles - anchor_cycles_);
  return anchor_ns_ + static_cast<int64_t>(std::llround(intercept_ns_ + dx * ns_per_cycle_));
}

}  // namespace rblnsim::abi
