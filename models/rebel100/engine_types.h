// The Rebel100 command tracks (engines) of one chiplet, as the RBLN Profiler names them, and how
// each maps onto the rbln_kineto activity kinds.
#ifndef RBLNSIM_MODELS_REBEL100_ENGINE_TYPES_H_
#define RBLNSIM_MODELS_REBEL100_ENGINE_TYPES_H_

#include <cstdint>

namespace rblnsim::rebel100 {

enum class EngineType : uint8_t {
  kNeuralEngine = 0,    // Neural Engine Clusters: matmul
  kNeuralDma = 1,       // HBM/SRAM traffic of the neural engines
  kTaskDma = 2,         // descriptors, activations, KV
  kExternalHdma = 3,    // host <-> device over PCIe
  kDeviceHdma = 4,      // device <-> device
  kDeviceSync = 5,      // synchronisation signalling
  kGeneralCompute = 6,  // vector / elementwise work (new on Rebel100)
};
inline constexpr int kEngineTypeCount = 7;

// How the producer classifies a command for the C-ABI (RblnKinetoActivityKind values).
enum class ActivityKind : uint8_t { kRuntime = 0, kCompute = 1, kDma = 2, kSync = 3 };

const char* EngineTypeName(EngineType type);  // "Neural Engine Clusters", "Neural DMA", ...
ActivityKind EngineActivityKind(EngineType type);

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_ENGINE_TYPES_H_
