// The Rebel100 command tracks (engines) of one chiplet, as the RBLN Profiler names them: one
// descriptor per engine type holds its name, the rbln_kineto activity kind it maps to, how many
// lanes a chiplet has of it, its timing function and the scenario keys that set it, so everything
// that lists or times engines (the executor's lanes and costs, the producer's tracks, the busy
// counters, describe) reads one table. A new engine is an enum value and a row.
#ifndef RBLNSIM_MODELS_REBEL100_ENGINE_TYPES_H_
#define RBLNSIM_MODELS_REBEL100_ENGINE_TYPES_H_

#include <cstdint>

namespace rblnsim::compiler {
struct Command;
}
namespace rblnsim::scenario {
struct DeviceConfig;
}

namespace rblnsim::rebel100 {

struct CommandDemand;

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

// The kind of work an engine's commands carry: the index of its alternative in compiler::Work
// (program.h holds the order).
enum class WorkKind : uint8_t { kMatmul = 0, kTransfer = 1, kVector = 2, kSync = 3 };

struct EngineDescriptor {
  EngineType type;
  const char* name;  // "Neural Engine Clusters", "Neural DMA", ...
  ActivityKind kind;
  // Lanes per chiplet. Rebel100 has eight DMA execution engines per die (press); how they split
  // between Neural DMA, Task DMA and HDMA is unpublished: an estimate.
  int lanes;
  WorkKind work;
  // The engine's timing function: what one command asks of the engine and of HBM
  // (command_timing.h).
  CommandDemand (*demand)(const compiler::Command& command, const scenario::DeviceConfig& device);
  // The scenario sections whose keys set that timing (scenarios/README.md).
  const char* config_keys;
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
