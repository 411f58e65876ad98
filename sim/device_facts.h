// What commands report about the simulated device without running it: the peak matrix rate a
// sweep's achieved TFLOPS is held against, and the engine names its metrics are keyed by. The
// models own these figures; tools read them here, past the facade, never from models/ directly.
#ifndef RBLNSIM_SIM_DEVICE_FACTS_H_
#define RBLNSIM_SIM_DEVICE_FACTS_H_

#include "models/rebel100/engine_types.h"
#include "scenario/scenario.h"

namespace rblnsim::sim {

// Peak dense FLOP/s of the configured device's matrix engines for |dtype| (2 per multiply-add).
double PeakMatmulFlopsPerSecond(const scenario::DeviceConfig& device, scenario::DType dtype);

// The engine's name as the device rows and metrics spell it: "Neural Engine Clusters", ...
const char* EngineName(rebel100::EngineType engine);

}  // namespace rblnsim::sim

#endif  // RBLNSIM_SIM_DEVICE_FACTS_H_
