#include "tools/rblnsim/sweep_command.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "profiler/trace/json_writer.h"
#include "tools/rblnsim/sweep_manifest.h"
#include "tools/rblnsim/sweep_plan.h"
#include "tools/rblnsim/sweep_point_file.h"
#include "tools/rblnsim/sweep_progress.h"
#include "tools/rblnsim/sweep_runner.h"
#include "tools/rblnsim/sweep_shard.h"

namespace rblnsim::cli {
namespace {

namespace fs = std::filesystem;

int BadInput(const Status& status) {
  std::fprintf(stderr, "rblnsim: sweep: %s\n", status.message().c_str());
  return 2;
}

std::string Absolute(const std::string& path) {
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

// Where a sweep keeps its files. Temporary names carry the pid: shards of one sweep never share
// a point, but two sweeps started into one directory by mistake must not clobber each other.
struct Layout {
  explicit Layout(const std::string& out) : dir(out) {}
  std::string Points() const { return dir + "/points"; }
  std::string Logs() const { return dir + "/logs"; }
  std::string Traces() const { return dir + "/traces"; }
  std::string Tmp() const { return dir + "/.tmp"; }
  std::string PointFile(const std::string& key) const { return Points() + "/" + key + ".json"; }
  std::string LogFile(const std::string& key) const { return Logs() + "/" + key + ".log"; }
  std::string TmpFile(const std::string& key, const char* what) const {
    return Tmp() + "/" + key + "." + std::to_string(getpid()) + "." + what + ".json";
  }
  std::string TraceFile(const std::string& key) const {
    return Traces() + "/point-" + key + ".trace.json";
  }
  std::string dir;
};

Status MakeDirectories(const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error)
      return Status::Error("cannot create " + dir + ": " + error.message());
  }
  return Status::Ok();
}

PointRecord RecordFor(const SweepPlan& plan, const SweepPoint& point) {
  PointRecord record;
  record.key = point.key;
  record.index = static_cast<int64_t>(point.index);
  record.points_total = static_cast<int64_t>(plan.points.size());
  record.sweep_id = plan.sweep_id;
  record.scenario = plan.scenario_name;
  record.params = point.params;
  record.seed = point.seed;
  record.matmul_flops = point.matmul_flops;
  record.peak_flops_per_s = point.peak_flops_per_s;
  return record;
}

// True when the point already has a successful result. A result written by an earlier version
// of the sweep (same point, other index or count) gets the current metadata, without a rerun.
bool HasResult(const Layout& layout, const SweepPlan& plan, const SweepPoint& point) {
  const std::string path = layout.PointFile(point.key);
  std::error_code error;
  if (!fs::exists(path, error))
    return false;
  StatusOr<PointRecord> existing = ReadPointRecord(path);
  if (!existing.ok() || !existing->ok || existing->key != point.key)
    return false;
  PointRecord current = RecordFor(plan, point);
  if (existing->index != current.index || existing->points_total != current.points_total ||
      existing->sweep_id != current.sweep_id) {
    current.ok = true;
    current.metrics_json = existing->metrics_json;
    Status refreshed = WritePointRecord(path, current);
    if (!refreshed.ok())
      return false;
  }
  return true;
}

ChildSpec ChildFor(const SweepOptions& options, const Layout& layout, const SweepPoint& point) {
  ChildSpec spec;
  spec.log_path = layout.LogFile(point.key);
  spec.argv = {"rblnsim", "run", Absolute(options.scenario_path)};
  for (const std::string& overlay : options.overlays)
    spec.argv.insert(spec.argv.end(), {"--overlay", Absolute(overlay)});
  for (const std::string& set : options.sets)
    spec.argv.insert(spec.argv.end(), {"--set", set});
  for (const std::string& set : point.sets)
    spec.argv.insert(spec.argv.end(), {"--set", set});
  const std::string trace =
      options.traces ? layout.TraceFile(point.key) : layout.TmpFile(point.key, "trace");
  spec.argv.insert(spec.argv.end(),
                   {"--seed", std::to_string(point.seed), "--metrics",
                    layout.TmpFile(point.key, "metrics"), "--trace", trace, "--no-expect"});
  return spec;
}

// Why a point failed, in one line: the child's last "rblnsim:" message if it left one.
std::string FailureReason(const std::string& log_path, const ChildExit& exit) {
  if (!exit.spawn_error.empty())
    return exit.spawn_error;
  std::string reason = exit.signal != 0 ? "rblnsim run was killed by signal " +
                                              std::to_string(exit.signal)
                                        : "rblnsim run exited with status " +
                                              std::to_string(exit.exit_code);
  if (FILE* log = std::fopen(log_path.c_str(), "rb")) {
    std::string last;
    char line[4096];
    while (std::fgets(line, sizeof(line), log) != nullptr) {
      std::string text(line);
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
      if (text.rfind("rblnsim: ", 0) == 0)
        last = text;
    }
    std::fclose(log);
    if (!last.empty())
      reason += ": " + last.substr(9);
  }
  return reason;
}

// Turns a finished child into its point file; returns whether the point succeeded.
bool Collect(const SweepPlan& plan, const SweepPoint& point, const SweepOptions& options,
             const Layout& layout, const ChildExit& exit) {
  PointRecord record = RecordFor(plan, point);
  const std::string metrics_path = layout.TmpFile(point.key, "metrics");
  record.ok = exit.spawn_error.empty() && exit.signal == 0 && exit.exit_code == 0;
  std::error_code ignored;
  if (fs::exists(metrics_path, ignored)) {
    StatusOr<std::string> metrics = ReadJsonObjectCompact(metrics_path);
    if (metrics.ok()) {
      record.metrics_json = *metrics;
    } else if (record.ok) {
      record.ok = false;
      record.error = metrics.status().message();
    }
  } else if (record.ok) {
    record.ok = false;
    record.error = "rblnsim run succeeded but wrote no metrics file";
  }
  if (!record.ok && record.error.empty())
    record.error = FailureReason(layout.LogFile(point.key), exit);
  fs::remove(metrics_path, ignored);
  if (!options.traces)
    fs::remove(layout.TmpFile(point.key, "trace"), ignored);
  Status written = WritePointRecord(layout.PointFile(point.key), record);
  if (!written.ok()) {
    std::fprintf(stderr, "rblnsim: sweep: %s\n", written.message().c_str());
    return false;
  }
  if (!record.ok) {
    std::fprintf(stderr, "rblnsim: sweep: point %zu (%s) failed: %s (log: %s)\n", point.index,
                 point.key.c_str(), record.error.c_str(), layout.LogFile(point.key).c_str());
  }
  return record.ok;
}

}  // namespace

void AddSweepCommand(CLI::App* app, SweepOptions* options) {
  CLI::App* sweep = app->add_subcommand(
      "sweep", "Run the points of a scenario's sweep: block, one process per point");
  sweep->add_option("scenario", options->scenario_path, "Scenario YAML file with a sweep: block")
      ->required();
  sweep->add_option("--out", options->out_dir, "Output directory (points/, logs/, sweep.json)")
      ->required();
  sweep->add_option("--jobs,-j", options->jobs, "Points run at once (default: available CPUs)")
      ->check(CLI::Range(1, 4096));
  sweep->add_option("--shard-index", options->shard_index,
                    "This shard (default: SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)");
  sweep->add_option("--shard-count", options->shard_count,
                    "Number of shards (default: SLURM_ARRAY_TASK_COUNT, RBLNSIM_SHARD_COUNT)");
  sweep->add_flag("--skip-existing", options->skip_existing,
                  "Skip points that already have a successful result file (resume)");
  sweep->add_flag("--traces", options->traces,
                  "Keep each point's Chrome trace as DIR/traces/point-KEY.trace.json");
  sweep->add_option("--set", options->sets, "Override a scenario key in every point: path=value");
  sweep->add_option("--overlay", options->overlays, "Layer a YAML overlay over the scenario");
  sweep->add_option("--seed", options->seed, "Replace the scenario's seed (the base of each point's)");
}

int SweepCommand(const SweepOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const GetEnv getenv = [](const char* name) { return std::getenv(name); };
  StatusOr<ShardSpec> shard = ResolveShard(options.shard_index, options.shard_count, getenv);
  if (!shard.ok())
    return BadInput(shard.status());
  SweepInputs inputs{Absolute(options.scenario_path), {}, options.sets, options.seed};
  for (const std::string& overlay : options.overlays)
    inputs.overlays.push_back(Absolute(overlay));
  StatusOr<SweepPlan> plan = PlanSweep(inputs, getenv);
  if (!plan.ok())
    return BadInput(plan.status());
  const Layout layout(options.out_dir);
  std::vector<std::string> dirs = {layout.Points(), layout.Logs(), layout.Tmp()};
  if (options.traces)
    dirs.push_back(layout.Traces());
  if (Status made = MakeDirectories(dirs); !made.ok())
    return BadInput(made);
  if (Status manifest = WriteManifest(layout.dir + "/sweep.json", *plan); !manifest.ok())
    return BadInput(manifest);

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
    children.push_back(ChildFor(options, layout, plan->points[index]));
  const int jobs = std::max(1, std::min<int>(options.jobs.value_or(AvailableCpus()),
                                             static_cast<int>(std::max<size_t>(1, to_run.size()))));
  Progress progress(to_run.size(), isatty(STDERR_FILENO) == 1);
  size_t failed = 0;
  const int interrupted = RunChildren(children, jobs, [&](size_t child, const ChildExit& exit) {
    const SweepPoint& point = plan->points[to_run[child]];
    const bool ok = Collect(*plan, point, options, layout, exit);
    failed += ok ? 0 : 1;
    progress.Done(point, ok, exit.wall_s);
  });
  progress.Finish();
  std::error_code ignored;
  fs::remove(layout.Tmp(), ignored);  // only when empty: another shard may still be using it

  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t ran = progress.done();
  std::fprintf(stderr, "sweep %s: ran %zu (%zu failed), skipped %zu, in %.2f s; results in %s\n",
               plan->scenario_name.c_str(), ran, failed, skipped, wall_s,
               layout.Points().c_str());
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
