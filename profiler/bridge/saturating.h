// Overflow-free shifts of producer timestamps. Garbage times must not overflow (UB) when the
// clock offset is added; saturated values land outside any real capture window and are dropped
// and counted there.
#ifndef RBLNSIM_PROFILER_BRIDGE_SATURATING_H_
#define RBLNSIM_PROFILER_BRIDGE_SATURATING_H_

#include <cstdint>
#include <limits>

namespace rblnsim::bridge {

inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum))
    return sum;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

inline int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t diff = 0;
  if (!__builtin_sub_overflow(a, b, &diff))
    return diff;
  return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_SATURATING_H_
