#include "profiler/abi/session_window.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

namespace rblnsim::abi {

int64_t LastRecordEndNs(const ProducerCapture& capture, const ClockFit& fit) {
  int64_t last = std::numeric_limits<int64_t>::min();
  for (const DeviceSliceRecord& s : capture.slices)
    last = std::max(last, fit.ToSteadyNs(s.end_cycles));
  for (const MarkerRecord& m : capture.markers)
    last = std::max(last, m.end_steady_ns);
  return last;
}

uint64_t DropRecordsEndingAfter(ProducerCapture* capture,
                                const ClockFit& fit,
                                int64_t deadline_ns) {
  const size_t before = capture->slices.size() + capture->markers.size();
  std::erase_if(capture->slices, [&](const DeviceSliceRecord& s) {
    return fit.ToSteadyNs(s.end_cycles) > deadline_ns;
  });
  std::erase_if(capture->markers,
                [&](const MarkerRecord& m) { return m.end_steady_ns > deadline_ns; });
  return before - (capture->slices.size() + capture->markers.size());
}

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

SettleResult SettleOnSteadyClock(ProducerCapture* capture,
                                 const ClockFit& fit,
                                 int64_t max_wait_ns) {
  SettleResult result;
  const int64_t last_end = LastRecordEndNs(*capture, fit);
  const int64_t start = SteadyNowNs();
  if (last_end > start) {
    const int64_t until = last_end - start > max_wait_ns ? start + max_wait_ns : last_end;
    // sleep_until on the steady clock itself: a wake-up is never early on that clock.
    std::this_thread::sleep_until(
        std::chrono::steady_clock::time_point(std::chrono::nanoseconds(until)));
    result.wait_ns = SteadyNowNs() - start;
  }
  result.records_dropped = DropRecordsEndingAfter(capture, fit, SteadyNowNs());
  return result;
}

}  // namespace rblnsim::abi
