// One launch (a run of a compiled program) as it travels host → ring → command processor →
// engines → completion, with the ground-truth times of every stage (sim ns).
#ifndef RBLNSIM_MODELS_REBEL100_RUN_H_
#define RBLNSIM_MODELS_REBEL100_RUN_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/compiler/program.h"
#include "models/rebel100/command_timing.h"

namespace rblnsim::rebel100 {

struct RunTruth {
  double submit_ns = 0;           // host runtime began the run call
  double ring_wait_start_ns = 0;  // host finished its own overhead and wanted a ring slot
  double ring_acquired_ns = 0;    // a ring slot was free and the descriptor was written
  double doorbell_ns = 0;         // the doorbell write reached the device
  double fetched_ns = 0;          // the command processor fetched the descriptor over PCIe
  double decoded_ns = 0;
  double released_ns = 0;      // earlier runs done: commands handed to the task manager
  double first_start_ns = -1;  // first command started on an engine
  double last_end_ns = -1;
  double completed_ns = 0;  // the host saw the completion
  // Engine time of the run's commands by what bounded each (command_timing.h Bound), and the
  // bytes they booked on HBM: the roofline of the launch.
  std::array<double, kBoundCount> bound_ns{};
  int64_t hbm_bytes = 0;
};

struct RunRequest {
  int64_t launch_id = 0;
  const compiler::Program* program = nullptr;
  int instance = 0;
  int64_t sequence = 0;
  bool record = true;  // the profiler unit records this run's commands
  RunTruth truth;
  int commands_done = 0;
  bool completed = false;
  bool failed = false;
  std::string error;  // why the run failed (a command timed out)
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_RUN_H_
