#include "tools/rblnsim/sweep/sweep_command.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "profiler/trace/json_writer.h"
#include "profiler/trace/temp_cleanup.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/lib/process/child_pool.h"
#include "tools/rblnsim/lib/sweep/sweep_manifest.h"
#include "tools/rblnsim/lib/sweep/sweep_plan.h"
#include "tools/rblnsim/output_guard.h"
#include "tools/rblnsim/sweep/sweep_point_run.h"
#include "tools/rblnsim/sweep/sweep_progress.h"
#include "tools/rblnsim/sweep/sweep_shard.h"

namespace rblnsim::cli {
namespace {

namespace fs = std::filesystem;

}  // namespace

int SweepCommand(const SweepOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const GetEnv getenv = [](const char* name) { return std::getenv(name); };
  StatusOr<ShardSpec> shard = ResolveShard(options.shard_index, options.shard_count, getenv);
  if (!shard.ok())
    return ReportError(shard.status());
  SweepInputs inputs{Absolute(options.scenario_path), {}, options.sets, options.seed};
  for (const std::string& overlay : options.overlays)
    inputs.overlays.push_back(Absolute(overlay));
  StatusOr<SweepPlan> plan = PlanSweep(inputs, getenv);
  if (!plan.ok())
    return ReportError(plan.status());
  const Layout layout(options.out_dir);
  std::vector<std::string> dirs = {layout.Points(), layout.Logs(), layout.Tmp()};
  if (options.traces)
    dirs.push_back(layout.Traces());
  // This process's scratch directory goes on every way out: the normal end, an early error
  // (a full disk while writing the manifest), and SIGINT/SIGTERM through the signal handler. It
  // is created and registered with those signals held back, so none falls between the two.
  std::optional<trace::SignalsHeldBack> held(std::in_place);
  if (Status made = MakeDirectories(dirs); !made.ok())
    return ReportError(made);
  const trace::ScopedTempPath scratch_on_signal(layout.Tmp(), /*directory=*/true);
  held.reset();
  struct RemoveScratch {
    std::string dir;
    ~RemoveScratch() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } const remove_scratch{layout.Tmp()};
  if (Status manifest = WriteManifest(layout.dir + "/sweep.json", *plan); !manifest.ok())
    return ReportError(manifest);

  std::vector<size_t> to_run;
  const std::vector<size_t> selected = ShardPoints(plan->points.size(), shard->index, shard->count);
  for (size_t index : selected) {
    if (!options.skip_existing || !HasResult(layout, *plan, plan->points[index]))
      to_run.push_back(index);
  }
  const size_t skipped = selected.size() - to_run.size();
  std::fprintf(stderr,
               "sweep %s: %zu points; shard %d/%d (%s) holds %zu: %zu to run, %zu with results\n",
               plan->scenario_name.c_str(), plan->points.size(), shard->index, shard->count,
               shard->source.c_str(), selected.size(), to_run.size(), skipped);

  std::vector<ChildSpec> children;
  for (size_t index : to_run)
    children.push_back(ChildFor(inputs, options.traces, layout, plan->points[index]));
  const int jobs = std::max(1, std::min<int>(options.jobs.value_or(AvailableCpus()),
                                             static_cast<int>(std::max<size_t>(1, to_run.size()))));
  Progress progress(to_run.size(), isatty(STDERR_FILENO) == 1);
  size_t failed = 0;
  const int interrupted = RunChildren(children, jobs, [&](size_t child, const ChildExit& exit) {
    const SweepPoint& point = plan->points[to_run[child]];
    std::string report;
    const bool ok = Collect(*plan, point, options.traces, layout, exit, &report);
    if (!report.empty())
      progress.Message(report);
    if (exit.stopped)
      return;  // neither done nor failed: it has no result file
    failed += ok ? 0 : 1;
    progress.Done(point, ok, exit.wall_s);
  });
  progress.Finish();
  std::error_code ignored;
  fs::remove_all(layout.Tmp(), ignored);  // this process's own; .tmp/ stays for the others

  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t ran = progress.done();
  std::fprintf(stderr, "sweep %s: ran %zu (%zu failed), skipped %zu, in %.2f s; results in %s\n",
               plan->scenario_name.c_str(), ran, failed, skipped, wall_s, layout.Points().c_str());
  // One machine-readable line on stdout for scripts and job systems.
  trace::StringSink sink;
  trace::JsonWriter json(&sink, 0);
  json.BeginObject();
  json.Key("scenario").String(plan->scenario_name);
  json.Key("sweep_id").String(plan->sweep_id);
  json.Key("shard_index").Int(shard->index);
  json.Key("shard_count").Int(shard->count);
  json.Key("points_total").Int(static_cast<int64_t>(plan->points.size()));
  json.Key("selected").Int(static_cast<int64_t>(selected.size()));
  json.Key("skipped").Int(static_cast<int64_t>(skipped));
  json.Key("ran").Int(static_cast<int64_t>(ran));
  json.Key("failed").Int(static_cast<int64_t>(failed));
  json.Key("wall_s").Double(wall_s);
  json.EndObject();
  json.Finish();
  std::fputs(sink.text().c_str(), stdout);
  if (interrupted != 0) {
    std::fprintf(stderr, "rblnsim: sweep: interrupted by signal %d\n", interrupted - 128);
    return interrupted;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace rblnsim::cli
