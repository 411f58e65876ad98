#include "tools/rblnsim/calibrate/calibrate_runner.h"

#include <fmt/format.h>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tools/rblnsim/lib/process/child_pool.h"

namespace rblnsim::cli {

namespace {

constexpr int kParallelChildren = 2;

Status WriteText(const std::string& path, const std::string& text) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    sink.Append(text);
    return sink.status();
  });
}

}  // namespace

CandidateSimulator::CandidateSimulator(std::string scenario_path,
                                       std::vector<std::string> overlays,
                                       std::vector<std::string> sets,
                                       const TraceDigest* captured,
                                       std::string work_dir,
                                       trace::Dialect dialect)
    : scenario_path_(std::move(scenario_path)),
      overlays_(std::move(overlays)),
      sets_(std::move(sets)),
      captured_(captured),
      work_dir_(std::move(work_dir)),
      dialect_(dialect) {}

StatusOr<std::vector<CandidateRun>> CandidateSimulator::Run(
    const std::vector<CandidateSpec>& candidates) {
  std::vector<ChildSpec> children;
  std::vector<std::string> traces;
  for (const CandidateSpec& candidate : candidates) {
    const std::string stem = fmt::format("{}/sim{}_{}", work_dir_, ++simulations_, candidate.label);
    const std::string overlay = stem + ".yaml";
    RBLNSIM_RETURN_IF_ERROR(WriteText(
        overlay, OverlayYaml(candidate.params, "calibrate candidate " + candidate.label)));
    ChildSpec child;
    child.argv = {"rblnsim", "run", scenario_path_};
    for (const std::string& user_overlay : overlays_)
      child.argv.insert(child.argv.end(), {"--overlay", user_overlay});
    // After the user's overlays, so the candidate wins; --set values still win over both.
    child.argv.insert(child.argv.end(), {"--overlay", overlay});
    for (const std::string& set : sets_)
      child.argv.insert(child.argv.end(), {"--set", set});
    child.argv.insert(child.argv.end(),
                      {"--trace", stem + ".json", "--no-expect", "--row-limit", "0", "--bridge",
                       std::string(trace::DialectName(dialect_))});
    child.log_path = stem + ".log";
    children.push_back(std::move(child));
    traces.push_back(stem + ".json");
  }
  std::vector<ChildExit> exits(children.size());
  const int stopped =
      RunChildren(children, kParallelChildren,
                  [&](size_t index, const ChildExit& exit) { exits[index] = exit; });
  if (stopped != 0) {
    interrupted_exit_ = stopped;
    return Status::Error(fmt::format("calibrate: interrupted by signal {}", stopped - 128));
  }

  std::vector<CandidateRun> runs;
  for (size_t i = 0; i < children.size(); ++i) {
    const ChildExit& exit = exits[i];
    if (!exit.spawn_error.empty())
      return Status::Error("calibrate: " + exit.spawn_error);
    if (exit.exit_code != 0) {
      return Status::Error(fmt::format(
          "calibrate: simulation of candidate '{}' failed ({}); see {}", candidates[i].label,
          exit.signal != 0 ? fmt::format("signal {}", exit.signal)
                           : fmt::format("exit {}", exit.exit_code),
          children[i].log_path));
    }
    RBLNSIM_ASSIGN_OR_RETURN(trace::ImportResult imported, trace::ImportChromeTrace(traces[i]));
    CandidateRun run;
    run.params = candidates[i].params;
    RBLNSIM_ASSIGN_OR_RETURN(run.digest, DigestTrace(imported.trace));
    run.comparison = CompareDigests(run.digest, *captured_, CompareTolerance{});
    run.error = ComputeFitError(run.comparison);
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace rblnsim::cli
