// Turns a copied export into trace rows and events the way torch-rbln's adapter and emitter do
// (kind → category, steady → system clock, annotations and categories as args, device/lane rows),
// with every deviation from a well-formed export counted instead of silently dropped.
#ifndef RBLNSIM_PROFILER_BRIDGE_SLICE_CONVERTER_H_
#define RBLNSIM_PROFILER_BRIDGE_SLICE_CONVERTER_H_

#include <cstdint>

#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bridge {

// Kineto writes device rows with sort index kExceedMaxPid + pid so they sort after host pids.
inline constexpr int64_t kDeviceSortIndexBase = 5'000'000;

struct ConvertWindow {
  int64_t offset_ns = 0;         // system − steady, added to every slice time
  int64_t capture_start_ns = 0;  // system-clock ns, inclusive
  int64_t capture_end_ns = 0;    // system-clock ns, inclusive
};

// COMPUTE → kernel, DMA → gpu_memcpy, SYNC → privateuse1_driver, RUNTIME or unknown →
// privateuse1_runtime (the adapter's mapping).
trace::Category CategoryForKind(int32_t kind);

// The categories the bridge treats as device work of a launch: they carry device/stream/
// correlation args and receive flow finishes. Unlike trace::IsDeviceCategory this includes the
// SYNC kind's privateuse1_driver, which PyTorch maps to the CPU but which is still device work.
bool IsLaunchDeviceCategory(trace::Category category);

// Converts |exp| into rows, events (export order, flows assigned) and counters; its strings move
// into the events, so a caller done with the copy passes it as a temporary. Counters that
// belong to the sink protocol and the producer are left for the caller to fill.
BridgeResult ConvertExport(CopiedExport exp, const ConvertWindow& window);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_SLICE_CONVERTER_H_
