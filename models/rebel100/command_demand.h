// What one command asks of its engine and of its chiplet's HBM (command_timing.h computes it):
// plain data, so a compiled program can carry it and the executor read it per run.
#ifndef RBLNSIM_MODELS_REBEL100_COMMAND_DEMAND_H_
#define RBLNSIM_MODELS_REBEL100_COMMAND_DEMAND_H_

#include <cstdint>

#include "base/rbln_vocabulary.h"

namespace rblnsim::rebel100 {

using platform::Bound;

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

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_COMMAND_DEMAND_H_
