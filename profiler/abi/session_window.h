// Holding a session inside its real window. A consumer's window is [begin call, end return] on
// the process's steady clock; simulated device work may outlast it (the host ran ahead of a
// queued device). Ending a session then waits until the last record has ended, as a device
// synchronize would, so no record lies in the future when the end call returns. The wait is
// bounded: records that would end past the bound are dropped and counted, never stamped ahead.
#ifndef RBLNSIM_PROFILER_ABI_SESSION_WINDOW_H_
#define RBLNSIM_PROFILER_ABI_SESSION_WINDOW_H_

#include <cstdint>

#include "profiler/abi/clock_fit.h"
#include "profiler/abi/producer_capture.h"

namespace rblnsim::abi {

// A device synchronize that takes longer than this is a hung device, not a slow one.
inline constexpr int64_t kMaxSyncWaitNs = 30'000'000'000;

struct SettleResult {
  int64_t wait_ns = 0;           // how long the caller slept
  uint64_t records_dropped = 0;  // device slices and markers that would end past the wait
};

// The latest end of any record (device slice or marker) on the steady clock; INT64_MIN when the
// capture holds none.
int64_t LastRecordEndNs(const ProducerCapture& capture, const ClockFit& fit);

// Removes every record that ends after |deadline_ns|; returns how many.
uint64_t DropRecordsEndingAfter(ProducerCapture* capture, const ClockFit& fit, int64_t deadline_ns);

int64_t SteadyNowNs();

// Sleeps until the capture's last record has ended (at most |max_wait_ns|), then drops what
// still lies in the future. Call it without holding any lock.
SettleResult SettleOnSteadyClock(ProducerCapture* capture,
                                 const ClockFit& fit,
                                 int64_t max_wait_ns);

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_SESSION_WINDOW_H_
