// Which shard of a sweep this process runs. Explicit flags win; otherwise the index comes from
// the job system, so one command line serves every launcher unchanged:
//   --shard-index I --shard-count K              GNU parallel, shell loops
//   SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT  Slurm job arrays (--array=0-3 or 1-4; with
//                                                SLURM_ARRAY_TASK_MIN/_STEP when set)
//   JOB_COMPLETION_INDEX                         Kubernetes Indexed Jobs; the count comes from
//                                                --shard-count or RBLNSIM_SHARD_COUNT (Kubernetes
//                                                does not export .spec.completions)
// With none of them the process runs every point (shard 0 of 1).
#ifndef RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_SHARD_H_
#define RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_SHARD_H_

#include <optional>
#include <string>

#include "base/status.h"
#include "tools/rblnsim/lib/sweep/sweep_plan.h"

namespace rblnsim::cli {

struct ShardSpec {
  int index = 0;
  int count = 1;
  std::string source;  // where the index came from, for the progress header
};

// Errors name the flag or variable: a non-integer, a count below 1, an index outside [0, count),
// or an index without a count.
StatusOr<ShardSpec> ResolveShard(std::optional<int> flag_index,
                                 std::optional<int> flag_count,
                                 const GetEnv& getenv);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_SHARD_H_
