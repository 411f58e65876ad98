// <DIR>/sweep.json: the whole sweep as planned (every point's key, canonical index and
// parameters), written by every shard with identical bytes. `rblnsim merge` takes the expected
// points from it, so it can name the parameters of a point that never produced a file and tell
// current point files from stale ones left by an earlier version of the sweep. Without it merge
// falls back to the index and point count recorded in each point file.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_MANIFEST_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_MANIFEST_H_

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "tools/rblnsim/lib/sweep/sweep_plan.h"

namespace rblnsim::cli {

inline constexpr char kManifestFormat[] = "rblnsim-sweep/1";

struct ManifestPoint {
  std::string key;
  std::vector<std::pair<std::string, std::string>> params;
};

struct Manifest {
  std::string scenario;
  std::string sweep_id;
  std::vector<std::string> axes;
  std::vector<ManifestPoint> points;  // canonical order
};

Status WriteManifest(const std::string& path, const SweepPlan& plan);
StatusOr<Manifest> ReadManifest(const std::string& path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_MANIFEST_H_
