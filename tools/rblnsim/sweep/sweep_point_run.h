// Running one sweep point: where its files go, the `rblnsim run` command line of its child
// process, and turning what the child left (exit status, metrics, ground truth, log) into the
// point's result file.
#ifndef RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_POINT_RUN_H_
#define RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_POINT_RUN_H_

#include <string>
#include <vector>

#include "tools/rblnsim/lib/process/child_pool.h"
#include "tools/rblnsim/lib/sweep/sweep_plan.h"
#include "tools/rblnsim/lib/sweep/sweep_point_file.h"

namespace rblnsim::cli {

// Where a sweep keeps its files. Shards of one sweep never share a point, but each process has
// its own temporary directory under .tmp/, so that one shard finishing (and removing its own)
// never pulls the directory from under another, on this machine or one sharing the filesystem.
struct Layout {
  explicit Layout(const std::string& out);
  std::string Points() const { return dir + "/points"; }
  std::string Logs() const { return dir + "/logs"; }
  std::string Traces() const { return dir + "/traces"; }
  std::string Tmp() const { return tmp; }
  std::string PointFile(const std::string& key) const { return Points() + "/" + key + ".json"; }
  std::string LogFile(const std::string& key) const { return Logs() + "/" + key + ".log"; }
  std::string TmpFile(const std::string& key, const char* what) const {
    return tmp + "/" + key + "." + what + ".json";
  }
  std::string TraceFile(const std::string& key) const {
    return Traces() + "/point-" + key + ".trace.json";
  }
  std::string dir;
  std::string tmp;
};

// |path| made absolute, so children and result files do not depend on the working directory.
std::string Absolute(const std::string& path);

// Creates each directory and its parents.
Status MakeDirectories(const std::vector<std::string>& dirs);

// The point's record before its run: everything but status, error and results.
PointRecord RecordFor(const SweepPlan& plan, const SweepPoint& point);

// True when the point already has a successful result. A result written by an earlier version
// of the sweep (same point, other index or count) gets the current metadata, without a rerun.
bool HasResult(const Layout& layout, const SweepPlan& plan, const SweepPoint& point);

// `rblnsim run SCENARIO --set ... --seed S --metrics --truth --trace --no-expect` for the point.
// |inputs| as planned (absolute paths); |keep_traces| puts the trace in layout.Traces().
ChildSpec ChildFor(const SweepInputs& inputs,
                   bool keep_traces,
                   const Layout& layout,
                   const SweepPoint& point);

// Turns a finished child into its point file. Returns whether the point succeeded; |report|
// gets the line to show for a failure or an interruption (which writes no file).
bool Collect(const SweepPlan& plan,
             const SweepPoint& point,
             bool keep_traces,
             const Layout& layout,
             const ChildExit& exit,
             std::string* report);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_SWEEP_SWEEP_POINT_RUN_H_
