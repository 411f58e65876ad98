#include "tools/rblnsim/calibrate/calibrate_command.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/temp_cleanup.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/calibrate/calibrate_fit.h"
#include "tools/rblnsim/calibrate/calibrate_report.h"
#include "tools/rblnsim/calibrate/calibrate_runner.h"
#include "tools/rblnsim/lib/compare/capture_context.h"
#include "tools/rblnsim/lib/compare/compare_digest.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

namespace {

// The children read the four variables from the process environment, which wins over the
// scenario (as in `run`): pin them to what the capture ran with, whatever this shell has.
void PinChildEnvironment(const scenario::EnvConfig& env) {
  setenv("RBLN_PROFILER", "1", 1);
  setenv("RBLN_PROFILER_DIR", env.rbln_profiler_dir.c_str(), 1);
  setenv("TORCH_RBLN_DEPLOY", env.torch_rbln_deploy ? "ON" : "OFF", 1);
  setenv("RBLN_RUNTIME_FORCE_SYNC", env.runtime_force_sync ? "1" : "0", 1);
}

// A private directory for the candidates, removed afterwards unless the user named one.
class WorkDir {
 public:
  static StatusOr<WorkDir> Create(const std::string& requested) {
    WorkDir dir;
    if (!requested.empty()) {
      std::error_code error;
      std::filesystem::create_directories(requested, error);
      if (error)
        return Status::Error(fmt::format("{}: cannot create: {}", requested, error.message()));
      dir.path_ = requested;
      return dir;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/rblnsim-calibrate-XXXXXX";
    // Created and registered for removal on SIGINT/SIGTERM with those signals held back, so no
    // interrupt falls between the two and leaves the directory behind.
    const trace::SignalsHeldBack held;
    if (mkdtemp(pattern.data()) == nullptr)
      return Status::Error(pattern + ": cannot create a temporary directory");
    dir.path_ = pattern;
    dir.owned_ = true;
    dir.guard_ = trace::ScopedTempPath(pattern, /*directory=*/true);
    return dir;
  }
  WorkDir(WorkDir&& other) noexcept
      : path_(std::move(other.path_)), owned_(other.owned_), guard_(std::move(other.guard_)) {
    other.owned_ = false;
  }
  WorkDir& operator=(WorkDir&&) = delete;
  ~WorkDir() {
    std::error_code ignored;
    if (owned_)
      std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  WorkDir() = default;
  std::string path_;
  bool owned_ = false;
  trace::ScopedTempPath guard_;  // removed by the signal handler if interrupted between rounds
};

// One round of the closed-form steps anchored at |from|.
CalibrationParams Step(const CandidateRun& from,
                       const EfficiencyModel& efficiency,
                       const TraceDigest& hw,
                       bool force_sync) {
  CalibrationParams next = from.params;
  efficiency.Update(from, &next);
  FitSubmissionPath(from, hw, force_sync, &next);
  FitHostCosts(from, hw, &next);
  FitCompile(from, hw, &next);
  return next;
}

}  // namespace

int CalibrateCommand(const CalibrateOptions& options) {
  std::vector<trace::NamedPath> inputs = Named("--overlay", options.overlays);
  inputs.push_back({"scenario", options.scenario_path});
  inputs.push_back({"trace", options.trace_path});
  Status outputs = CheckOutputsBeforeWork(inputs, {{"--out", options.out_path}});
  if (!outputs.ok())
    return ReportError(outputs);
  auto loaded =
      LoadCapture(options.scenario_path, options.overlays, options.sets, options.trace_path);
  if (!loaded.ok())
    return ReportError(loaded.status());
  const CaptureContext& context = loaded->context;
  const TraceDigest& captured = loaded->digest;
  bool device_work = false;
  for (const DigestLaunch& launch : captured.launches)
    device_work |= launch.has_device();
  if (!device_work) {
    return ReportError(Status::Error(
        options.trace_path +
        ": no rbln_run launch (or \"rbln launch\") with device slices: nothing to calibrate "
        "against (was RBLN_PROFILER=1 set when the capture started?)"));
  }
  auto work_dir = WorkDir::Create(options.work_dir);
  if (!work_dir.ok())
    return ReportError(work_dir.status());

  const scenario::Scenario& scenario = context.scenario;
  const bool force_sync = scenario.env.runtime_force_sync;
  PinChildEnvironment(scenario.env);
  std::set<std::string> keys;
  for (const auto& [key, time] : captured.host_keys)
    keys.insert(key);
  CalibrationReport report(scenario, context, options.trace_path);
  std::fputs(report.Header().c_str(), stdout);

  CandidateSimulator simulator(options.scenario_path, options.overlays, options.sets, &captured,
                               work_dir->path(), loaded->dialect);
  const CalibrationParams start = ParamsFromScenario(scenario, keys);
  CalibrationParams probe = start;
  for (EngineKind kind : {EngineKind::kMatmul, EngineKind::kGce, EngineKind::kDma})
    *probe.Efficiency(kind) /= 2;
  auto first = simulator.Run({{"baseline", start}, {"probe", probe}});
  if (!first.ok())
    return report.Fail(first.status(), simulator.interrupted_exit());
  // A fit to another program's trace would be an overlay that describes nothing: refuse it
  // before anything is written.
  if (!options.force) {
    Status same = CheckSameWorkload((*first)[0].digest, captured, options.trace_path);
    if (!same.ok())
      return ReportError(same);
  }
  std::vector<CandidateRun> runs = {(*first)[0]};
  const EfficiencyModel efficiency((*first)[0], (*first)[1]);
  report.Progress("baseline (the scenario as given)", runs.back());
  report.ProbeLine(efficiency);

  // Host costs move only the keys both runs charge; the rest stay out of the overlay.
  const auto uncharged = [&](const auto& entry) {
    return runs.front().digest.host_keys.count(entry.first) == 0;
  };
  std::erase_if(runs.front().params.op_costs_ns, uncharged);
  std::erase_if(runs.front().params.op_costs_per_element_ns, uncharged);
  for (int round = 0; round <= options.refinements; ++round) {
    const CalibrationParams next = Step(runs.back(), efficiency, captured, force_sync);
    auto simulated =
        simulator.Run({{round == 0 ? "closed_form" : fmt::format("refine{}", round), next}});
    if (!simulated.ok())
      return report.Fail(simulated.status(), simulator.interrupted_exit());
    runs.push_back(std::move((*simulated)[0]));
    report.Progress(round == 0 ? "closed form" : fmt::format("refinement {}", round), runs.back());
  }
  const CandidateRun* best = &runs.front();
  for (const CandidateRun& run : runs) {
    if (run.error.Objective() < best->error.Objective())
      best = &run;
  }
  const double drift_ppm = ResidualDriftPpm(*best, captured);
  const std::string overlay =
      OverlayYaml(best->params, report.OverlayComment(runs.front(), *best, drift_ppm));
  Status written = trace::WriteFileAtomically(options.out_path, [&](trace::OutputSink& sink) {
    sink.Append(overlay);
    return sink.status();
  });
  if (!written.ok())
    return ReportError(written);
  std::fputs(
      report.Summary(runs.front(), *best, drift_ppm, simulator.simulations(), options.out_path)
          .c_str(),
      stdout);
  std::fputs(ConvergenceLine(runs).c_str(), stdout);
  return 0;
}

}  // namespace rblnsim::cli
