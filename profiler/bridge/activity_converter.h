// Turns what rbln::runtime::endActivities() handed over into trace rows and events in the current
// dialect (profiler/trace/dialect.h), the way torch-rbln's current emitter does: one "NPU <id>"
// row per device, one lane per (device, kind) named after the kind, kind → category, only a
// launch_id arg, and per launch that ran something a zero-length "rbln launch" marker on the
// launching thread with an ac2g arrow to every activity of that launch. Unlike the emitter it
// clips to the capture window itself and counts everything it drops or cannot connect.
#ifndef RBLNSIM_PROFILER_BRIDGE_ACTIVITY_CONVERTER_H_
#define RBLNSIM_PROFILER_BRIDGE_ACTIVITY_CONVERTER_H_

#include <rbln/runtime/activity.h>

#include <cstdint>
#include <optional>

#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/slice_converter.h"
#include "profiler/trace/dialect.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bridge {

// kDevice → kernel, kCopy → gpu_memcpy, kCollective → privateuse1_driver, kHost →
// privateuse1_runtime; nullopt for a value outside the enum (no lane exists for it).
std::optional<trace::Category> CategoryForActivityKind(rbln::runtime::Activity::Kind kind);

// Converts |activities| against |window| (the system − steady offset and the capture window in
// system-clock ns). Events: the kept activities in their order, then the markers in launch
// order; rows: devices and lanes ascending. Deterministic for equal input. The activity names
// move into the events, so a caller done with |activities| passes it as a temporary. Counters of
// the C-ABI sink protocol and the producer are left at zero.
// |flow_slots| is how many launches (by index) can get a flow id; it is the size of the flow-id
// block, and smaller only in tests, which cannot afford 16M launches to reach the limit.
BridgeResult ConvertActivities(rbln::runtime::Activities activities,
                               const ConvertWindow& window,
                               uint64_t flow_slots = trace::kFlowIdBlockSize);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_ACTIVITY_CONVERTER_H_
