// Turns a ProducerCapture into what the runtime activity API (<rbln/runtime/activity.h>) hands a
// consumer: one Activity per device record, kinds by engine class, every chiplet of the card on
// NPU 0 (the card is one device to torch), times through the clock fit into steady ns, and one
// Launch per rbln_run marker at the marker's start, on the marker's pid/tid.
#ifndef RBLNSIM_PROFILER_ABI_ACTIVITY_BUILDER_H_
#define RBLNSIM_PROFILER_ABI_ACTIVITY_BUILDER_H_

#include "profiler/abi/producer_capture.h"
#include "rbln/runtime/activity.h"

namespace rblnsim::abi {

// compute -> kDevice, DMA -> kCopy, sync -> kCollective, runtime -> kHost.
::rbln::runtime::Activity::Kind ActivityKindFor(SliceKind kind);

// Activities in start order (stable for equal starts), launches in launch order.
::rbln::runtime::Activities BuildActivities(const ProducerCapture& capture, double nominal_ghz);

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_ACTIVITY_BUILDER_H_
