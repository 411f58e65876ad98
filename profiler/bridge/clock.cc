#include "profiler/bridge/clock.h"

#include <chrono>

namespace rblnsim::bridge {

namespace {
template <typename Clock>
int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}
}  // namespace

int64_t RealClock::SteadyNowNs() {
  return NowNs<std::chrono::steady_clock>();
}

int64_t RealClock::SystemNowNs() {
  return NowNs<std::chrono::system_clock>();
}

}  // namespace rblnsim::bridge
