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
#include "scenario/scenario.h"

namespace rblnsim::rebel100 {

using platform::Bound;
using platform::BoundName;
using platform::kBoundCount;

// What a command asks of its engine and of its chiplet's HBM, before any other command is counted:
// the engine's own time, and the bytes it moves with the pace the engine alone could take them at.
// The executor shares each chiplet's HBM between the commands that stream at once; the closed form
// below books it first come, first served (what the op compiler's placement estimate uses).
struct CommandDemand {
  double setup_ns = 0;   // from start until its bytes begin to move (overhead, pipeline fill)
  double engine_ns = 0;  // from start until the engine alone is done, bytes at the engine's pace
  double tail_ns = 0;    // after the last byte has moved (the die-to-die hop)
  int64_t hbm_bytes = 0;
  double max_bytes_per_ns = 0;  // the engine's own pace for them; 0: no limit but the channel
  Bound engine_bound = Bound::kFixed;  // what holds the command when HBM does not
  // Bytes read from another chiplet's HBM over the die-to-die link (the weights of a matmul
  // share split along m), and the pace the link and the engine allow; they arrive a hop later.
  int remote_chiplet = -1;
  int64_t remote_bytes = 0;
  double remote_max_bytes_per_ns = 0;
  double remote_tail_ns = 0;
};

// The demand of |command| as its engine type's timing function (engine_types.h) gives it.
CommandDemand DemandOf(const compiler::Command& command, const scenario::DeviceConfig& device);

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
