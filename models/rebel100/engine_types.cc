#include "models/rebel100/engine_types.h"

namespace rblnsim::rebel100 {

const char* EngineTypeName(EngineType type) {
  switch (type) {
    case EngineType::kNeuralEngine:
      return "Neural Engine Clusters";
    case EngineType::kNeuralDma:
      return "Neural DMA";
    case EngineType::kTaskDma:
      return "Task DMA";
    case EngineType::kExternalHdma:
      return "External HDMA";
    case EngineType::kDeviceHdma:
      return "Device HDMA";
    case EngineType::kDeviceSync:
      return "Device Sync";
    case EngineType::kGeneralCompute:
      return "General Compute Engine";
  }
  return "unknown";
}

ActivityKind EngineActivityKind(EngineType type) {
  switch (type) {
    case EngineType::kNeuralEngine:
    case EngineType::kGeneralCompute:
      return ActivityKind::kCompute;
    case EngineType::kDeviceSync:
      return ActivityKind::kSync;
    default:
      return ActivityKind::kDma;
  }
}

}  // namespace rblnsim::rebel100
