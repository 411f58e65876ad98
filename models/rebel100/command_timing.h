// Closed-form demand of one command on its engine: a fixed per-command overhead (descriptor
// decode, engine set-up, completion signal) plus the work, where transfers and streamed operands
// move their bytes through the chiplet's HBM. Each command also says which term set its length,
// so a run's time can be split by what bounds it (the roofline report).
#ifndef RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_
#define RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_

#include <cstdint>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "models/compiler/program.h"
#include "models/rebel100/bandwidth_channel.h"
#include "models/rebel100/command_demand.h"
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

using platform::BoundName;
using platform::kBoundCount;

// The demand of |command| as its engine type's timing function (engine_types.h) gives it.
CommandDemand DemandOf(const compiler::Command& command, const scenario::DeviceConfig& device);

// Fills the program's demands for |device|: the compiler does it once per program, so the
// executor never recomputes a closed form per run.
void TimeCommands(compiler::Program* program, const scenario::DeviceConfig& device);

// The timing functions of the engine types, one per kind of work.
CommandDemand MatmulDemand(const compiler::Command& command, const scenario::DeviceConfig& device);
CommandDemand TransferDemand(const compiler::Command& command,
                             const scenario::DeviceConfig& device);
CommandDemand VectorDemand(const compiler::Command& command, const scenario::DeviceConfig& device);
CommandDemand SyncDemand(const compiler::Command& command, const scenario::DeviceConfig& device);

// What set a finished command's length, given its demand and the time it took.
Bound BoundOf(const CommandDemand& demand,
              double duration_ns,
              const scenario::DeviceConfig& device);

struct CommandCost {
  double duration_ns = 0;
  Bound bound = Bound::kFixed;
  int64_t hbm_bytes = 0;  // booked on the chiplet's HBM channel
};

// The command's cost when it starts at |now_ns| with the chiplet's HBM booked first come, first
// served; books it as a side effect.
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

// Saturates a duration at the simulated-time limit: past it every command has long timed out
// (command_timeout is at most 1000 s), and it keeps the result finite when a rate underflows.
double SaturatedNs(double duration_ns);

double CommandOverheadNs(const scenario::DeviceConfig& device);

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_COMMAND_TIMING_H_
