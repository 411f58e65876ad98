#include "models/rebel100/engine_types.h"

#include "models/rebel100/command_timing.h"

namespace rblnsim::rebel100 {

namespace {

using K = ActivityKind;
using T = EngineType;
using W = WorkKind;

constexpr EngineDescriptor kEngines[kEngineTypeCount] = {
    {T::kNeuralEngine, "Neural Engine Clusters", K::kCompute, 1, W::kMatmul, MatmulDemand,
     "device.matmul device.hbm.bandwidth device.clock device.queue.command_overhead"},
    {T::kNeuralDma, "Neural DMA", K::kDma, 4, W::kTransfer, TransferDemand,
     "device.dma device.hbm.bandwidth device.d2d device.queue.command_overhead"},
    {T::kTaskDma, "Task DMA", K::kDma, 2, W::kTransfer, TransferDemand,
     "device.dma device.hbm.bandwidth device.queue.command_overhead"},
    {T::kExternalHdma, "External HDMA", K::kDma, 1, W::kTransfer, TransferDemand,
     "device.dma device.hbm.bandwidth device.queue.command_overhead"},
    {T::kDeviceHdma, "Device HDMA", K::kDma, 1, W::kTransfer, TransferDemand,
     "device.dma device.d2d device.queue.command_overhead"},
    {T::kDeviceSync, "Device Sync", K::kSync, 1, W::kSync, SyncDemand,
     "device.d2d.latency device.queue.command_overhead"},
    {T::kGeneralCompute, "General Compute Engine", K::kCompute, 1, W::kVector, VectorDemand,
     "device.gce device.hbm.bandwidth device.clock device.queue.command_overhead"},
};

// The table is indexed by the enum: a row out of place would silently describe another engine.
constexpr bool InEnumOrder() {
  for (int i = 0; i < kEngineTypeCount; ++i) {
    if (static_cast<int>(kEngines[i].type) != i)
      return false;
  }
  return true;
}
static_assert(InEnumOrder(), "kEngines rows follow EngineType");

}  // namespace

const EngineDescriptor& Engine(EngineType type) {
  return kEngines[static_cast<int>(type)];
}

}  // namespace rblnsim::rebel100
