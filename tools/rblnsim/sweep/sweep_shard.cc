#include "tools/rblnsim/sweep/sweep_shard.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace rblnsim::cli {
namespace {

constexpr int kMaxShards = 1 << 20;

// The variable as a non-negative integer; nullopt when unset or empty.
StatusOr<std::optional<int>> EnvInt(const GetEnv& getenv, const char* name) {
  const char* text = getenv(name);
  if (text == nullptr || text[0] == '\0')
    return std::optional<int>();
  int value = 0;
  const char* end = text + std::strlen(text);
  const auto [ptr, error] = std::from_chars(text, end, value);
  if (error != std::errc() || ptr != end || value < 0) {
    return Status::Error(std::string("environment variable ") + name + "='" + text +
                         "' is not a non-negative integer");
  }
  return std::optional<int>(value);
}

// |count_source| names where the count came from: it is often not where the index came from.
Status CheckRange(const ShardSpec& shard, const std::string& count_source) {
  if (shard.count < 1 || shard.count > kMaxShards) {
    return Status::Error("shard count " + std::to_string(shard.count) + " (from " + count_source +
                         ") must be between 1 and " + std::to_string(kMaxShards));
  }
  if (shard.index < 0 || shard.index >= shard.count) {
    return Status::Error("shard index " + std::to_string(shard.index) + " (from " + shard.source +
                         ") must be in [0, " + std::to_string(shard.count) + ")");
  }
  return Status::Ok();
}

// Slurm numbers array tasks as the --array range says: 0-3, 1-4 or 0-15:4 all make 4 shards.
StatusOr<std::optional<ShardSpec>> FromSlurm(const GetEnv& getenv) {
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> id, EnvInt(getenv, "SLURM_ARRAY_TASK_ID"));
  if (!id)
    return std::optional<ShardSpec>();
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> count, EnvInt(getenv, "SLURM_ARRAY_TASK_COUNT"));
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> min, EnvInt(getenv, "SLURM_ARRAY_TASK_MIN"));
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> step, EnvInt(getenv, "SLURM_ARRAY_TASK_STEP"));
  if (!count) {
    return Status::Error(
        "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; pass --shard-count");
  }
  const int first = min.value_or(0), stride = std::max(1, step.value_or(1));
  if (*id < first || (*id - first) % stride != 0) {
    return Status::Error("SLURM_ARRAY_TASK_ID=" + std::to_string(*id) +
                         " is not on the array's range (min " + std::to_string(first) + ", step " +
                         std::to_string(stride) + ")");
  }
  return std::optional<ShardSpec>(
      ShardSpec{(*id - first) / stride, *count, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT"});
}

}  // namespace

StatusOr<ShardSpec> ResolveShard(std::optional<int> flag_index,
                                 std::optional<int> flag_count,
                                 const GetEnv& getenv) {
  ShardSpec shard;
  if (flag_index) {
    shard.index = *flag_index;
    shard.source = "--shard-index";
    RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> env_count, EnvInt(getenv, "RBLNSIM_SHARD_COUNT"));
    if (!flag_count && !env_count)
      return Status::Error("--shard-index needs --shard-count (or RBLNSIM_SHARD_COUNT)");
    shard.count = flag_count ? *flag_count : *env_count;
    RBLNSIM_RETURN_IF_ERROR(
        CheckRange(shard, flag_count ? "--shard-count" : "RBLNSIM_SHARD_COUNT"));
    return shard;
  }
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<ShardSpec> slurm, FromSlurm(getenv));
  if (slurm) {
    if (flag_count && *flag_count != slurm->count) {
      return Status::Error(
          "--shard-count " + std::to_string(*flag_count) +
          " disagrees with SLURM_ARRAY_TASK_COUNT=" + std::to_string(slurm->count));
    }
    RBLNSIM_RETURN_IF_ERROR(CheckRange(*slurm, "SLURM_ARRAY_TASK_COUNT"));
    return *slurm;
  }
  RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> k8s, EnvInt(getenv, "JOB_COMPLETION_INDEX"));
  if (k8s) {
    RBLNSIM_ASSIGN_OR_RETURN(std::optional<int> env_count, EnvInt(getenv, "RBLNSIM_SHARD_COUNT"));
    if (!flag_count && !env_count) {
      return Status::Error(
          "JOB_COMPLETION_INDEX is set but the shard count is unknown; pass --shard-count or set "
          "RBLNSIM_SHARD_COUNT to the Job's completions");
    }
    shard.index = *k8s;
    shard.count = flag_count ? *flag_count : *env_count;
    shard.source = "JOB_COMPLETION_INDEX";
    RBLNSIM_RETURN_IF_ERROR(
        CheckRange(shard, flag_count ? "--shard-count" : "RBLNSIM_SHARD_COUNT"));
    return shard;
  }
  if (flag_count) {
    return Status::Error(
        "--shard-count without a shard index: pass --shard-index, or run under a Slurm array "
        "(SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)");
  }
  shard.source = "no sharding";
  return shard;
}

}  // namespace rblnsim::cli
