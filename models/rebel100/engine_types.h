// The Rebel100 command tracks (engines) of one chiplet, as the RBLN Profiler names them: one
// descriptor per engine type holds its name, the rbln_kineto activity kind it maps to and how many
// lanes a chiplet has of it, so everything that lists engines (the executor's lanes, the
// producer's tracks, the busy counters) reads one table.
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

struct EngineDescriptor {
  EngineType type;
  const char* name;  // "Neural Engine Clusters", "Neural DMA", ...
  ActivityKind kind;
  // Lanes per chiplet. Rebel100 has eight DMA execution engines per die (press); how they split
  // between Neural DMA, Task DMA and HDMA is unpublished: an estimate.
  int lanes;
};

// Indexed by EngineType.
const EngineDescriptor& Engine(EngineType type);

inline const char* EngineTypeName(EngineType type) {
  return Engine(type).name;
}
inline ActivityKind EngineActivityKind(EngineType type) {
  return Engine(type).kind;
}
inline int EnginesOfType(EngineType type) {
  return Engine(type).lanes;
}

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_ENGINE_TYPES_H_
