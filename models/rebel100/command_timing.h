// Closed-form duration of one command on its engine, given the shared HBM channels: a fixed
// per-command overhead (descriptor decode, engine set-up, completion signal) plus the work,
// where transfers and streamed operands book their bytes on the chiplet's HBM channel. Each
// command also says which term set its length, so a run's time can be split by what bounds it
// (the roofline report).
#ifndef RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_
#define RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_

#include <cstdint>
#include <vector>

#include "models/compiler/program.h"
#include "models/rebel100/bandwidth_channel.h"
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

// What set a command's length: the engine's own rate (compute: matmul or vector work; dma: the
// DMA engine), the chiplet's HBM channel, the die-to-die link, or the fixed cost alone (command
// overhead, synchronisation).
enum class Bound : uint8_t { kCompute = 0, kHbm = 1, kDma = 2, kD2d = 3, kFixed = 4 };
inline constexpr int kBoundCount = 5;
const char* BoundName(Bound bound);  // "compute", "hbm", "dma", "d2d", "fixed"

struct CommandCost {
  double duration_ns = 0;
  Bound bound = Bound::kFixed;
  int64_t hbm_bytes = 0;  // booked on the chiplet's HBM channel
};

// The command's cost when it starts at |now_ns|; books HBM as a side effect.
CommandCost CommandCostAt(const compiler::Command& command,
                          const scenario::DeviceConfig& device,
                          double now_ns,
                          std::vector<BandwidthChannel>* hbm);

inline double CommandDurationNs(const compiler::Command& command,
                                const scenario::DeviceConfig& device,
                                double now_ns,
                                std::vector<BandwidthChannel>* hbm) {
  return CommandCostAt(command, device, now_ns, hbm).duration_ns;
}

double CommandOverheadNs(const scenario::DeviceConfig& device);

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_
