#include "sim/device_facts.h"

#include "models/rebel100/matmul_timing.h"

namespace rblnsim::sim {

double PeakMatmulFlopsPerSecond(const scenario::DeviceConfig& device, scenario::DType dtype) {
  return rebel100::PeakFlopsPerSecond(device, dtype);
}

const char* EngineName(rebel100::EngineType engine) {
  return rebel100::EngineTypeName(engine);
}

}  // namespace rblnsim::sim
