#include "models/rebel100/engine_types.h"

namespace rblnsim::rebel100 {

namespace {

using K = ActivityKind;
using T = EngineType;

constexpr EngineDescriptor kEngines[kEngineTypeCount] = {
    {T::kNeuralEngine, "Neural Engine Clusters", K::kCompute, 1},
    {T::kNeuralDma, "Neural DMA", K::kDma, 4},
    {T::kTaskDma, "Task DMA", K::kDma, 2},
    {T::kExternalHdma, "External HDMA", K::kDma, 1},
    {T::kDeviceHdma, "Device HDMA", K::kDma, 1},
    {T::kDeviceSync, "Device Sync", K::kSync, 1},
    {T::kGeneralCompute, "General Compute Engine", K::kCompute, 1},
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
