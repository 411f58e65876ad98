// Closed-form duration of one command on its engine, given the shared HBM channels: a fixed
// per-command overhead (descriptor decode, engine set-up, completion signal) plus the work,
// where transfers and streamed operands book their bytes on the chiplet's HBM channel.
#ifndef RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_
#define RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_

#include <vector>

#include "models/compiler/program.h"
#include "models/rebel100/bandwidth_channel.h"
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

// Returns the command's duration in ns when it starts at |now_ns|; books HBM as a side effect.
double CommandDurationNs(const compiler::Command& command,
                         const scenario::DeviceConfig& device,
                         double now_ns,
                         std::vector<BandwidthChannel>* hbm);

double CommandOverheadNs(const scenario::DeviceConfig& device);

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_
