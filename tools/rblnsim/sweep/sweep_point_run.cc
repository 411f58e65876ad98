#include "tools/rblnsim/sweep/sweep_point_run.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "profiler/trace/json_writer.h"
#include "tools/rblnsim/lib/artifacts/metrics_file.h"
#include "tools/rblnsim/lib/sweep/sweep_workload.h"

namespace rblnsim::cli {

namespace fs = std::filesystem;

namespace {

// The host name and pid: unique among the processes that may share an output directory.
std::string ProcessTag() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0)
    host[0] = '\0';
  return std::string(host[0] != '\0' ? host : "host") + "-" + std::to_string(getpid());
}

}  // namespace

std::string Absolute(const std::string& path) {
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

Status MakeDirectories(const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error)
      return Status::Error("cannot create " + dir + ": " + error.message());
  }
  return Status::Ok();
}

Layout::Layout(const std::string& out) : dir(out), tmp(out + "/.tmp/" + ProcessTag()) {}

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
    current.device_active_ns = existing->device_active_ns;
    Status refreshed = WritePointRecord(path, current);
    if (!refreshed.ok())
      return false;
  }
  return true;
}

ChildSpec ChildFor(const SweepInputs& inputs,
                   bool keep_traces,
                   const Layout& layout,
                   const SweepPoint& point) {
  ChildSpec spec;
  spec.log_path = layout.LogFile(point.key);
  spec.argv = {"rblnsim", "run", inputs.scenario_path};
  for (const std::string& overlay : inputs.overlays)
    spec.argv.insert(spec.argv.end(), {"--overlay", overlay});
  for (const std::string& set : inputs.sets)
    spec.argv.insert(spec.argv.end(), {"--set", set});
  for (const std::string& set : point.sets)
    spec.argv.insert(spec.argv.end(), {"--set", set});
  const std::string trace =
      keep_traces ? layout.TraceFile(point.key) : layout.TmpFile(point.key, "trace");
  spec.argv.insert(
      spec.argv.end(),
      {"--seed", std::to_string(point.seed), "--metrics", layout.TmpFile(point.key, "metrics"),
       "--truth", layout.TmpFile(point.key, "truth"), "--trace", trace, "--no-expect"});
  return spec;
}

namespace {

// Why a point failed, in one line: the child's last "rblnsim:" message if it left one.
std::string FailureReason(const std::string& log_path, const ChildExit& exit) {
  if (!exit.spawn_error.empty())
    return exit.spawn_error;
  std::string reason = exit.signal != 0
                           ? "rblnsim run was killed by signal " + std::to_string(exit.signal)
                           : "rblnsim run exited with status " + std::to_string(exit.exit_code);
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

}  // namespace

bool Collect(const SweepPlan& plan,
             const SweepPoint& point,
             bool keep_traces,
             const Layout& layout,
             const ChildExit& exit,
             std::string* report) {
  PointRecord record = RecordFor(plan, point);
  const std::string metrics_path = layout.TmpFile(point.key, "metrics");
  std::error_code ignored;
  if (exit.stopped) {  // cut short by our own SIGTERM: not a result; a rerun will run it
    for (const char* what : {"metrics", "truth", "trace"})
      fs::remove(layout.TmpFile(point.key, what), ignored);
    *report =
        "rblnsim: sweep: point " + std::to_string(point.index) + " (" + point.key + ") interrupted";
    return false;
  }
  record.ok = exit.spawn_error.empty() && exit.signal == 0 && exit.exit_code == 0;
  if (fs::exists(metrics_path, ignored)) {
    StatusOr<RunMetrics> metrics = ReadMetricsFile(metrics_path);
    if (metrics.ok()) {
      trace::StringSink sink;
      trace::JsonWriter json(&sink, 0);
      WriteMetricsJson(*metrics, json);
      record.metrics_json = sink.text();
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
  const std::string truth_path = layout.TmpFile(point.key, "truth");
  if (record.ok) {
    StatusOr<double> active_ns = DeviceActiveNsFromTruth(truth_path);
    if (active_ns.ok())
      record.device_active_ns = *active_ns;
  }
  fs::remove(metrics_path, ignored);
  fs::remove(truth_path, ignored);
  if (!keep_traces)
    fs::remove(layout.TmpFile(point.key, "trace"), ignored);
  Status written = WritePointRecord(layout.PointFile(point.key), record);
  if (!written.ok()) {
    *report = "rblnsim: sweep: " + written.message();
    return false;
  }
  if (!record.ok) {
    *report = "rblnsim: sweep: point " + std::to_string(point.index) + " (" + point.key +
              ") failed: " + record.error + " (log: " + layout.LogFile(point.key) + ")";
  }
  return record.ok;
}

}  // namespace rblnsim::cli
