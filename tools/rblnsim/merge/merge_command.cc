#include "tools/rblnsim/merge/merge_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/lib/sweep/sweep_manifest.h"
#include "tools/rblnsim/lib/sweep/sweep_plots.h"
#include "tools/rblnsim/lib/sweep/sweep_point_file.h"
#include "tools/rblnsim/lib/sweep/sweep_table.h"

namespace rblnsim::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxListed = 20;

// Every readable point file of every directory, one per key. A successful result wins over a
// failed one; otherwise the first directory given wins.
std::map<std::string, PointRecord> Gather(const std::vector<std::string>& dirs) {
  std::map<std::string, PointRecord> by_key;
  for (const std::string& dir : dirs) {
    std::vector<std::string> names;
    std::error_code error;
    for (fs::directory_iterator it(dir + "/points", error), end; !error && it != end;
         it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name.size() == 21 && name.ends_with(".json") && IsPointKey(name.substr(0, 16))) {
        names.push_back(name);
      } else if (name.ends_with(".json")) {
        std::fprintf(stderr, "rblnsim: merge: ignoring %s/points/%s: not named <key>.json\n",
                     dir.c_str(), name.c_str());
      }
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      const std::string path = dir + "/points/" + name;
      StatusOr<PointRecord> record = ReadPointRecord(path);
      if (!record.ok() || record->key != name.substr(0, 16)) {
        std::fprintf(
            stderr, "rblnsim: merge: ignoring %s: %s\n", path.c_str(),
            record.ok() ? "its key does not match its name" : record.status().message().c_str());
        continue;
      }
      const auto [it, added] = by_key.emplace(record->key, *record);
      if (!added && !it->second.ok && record->ok)
        it->second = std::move(*record);
    }
  }
  return by_key;
}

// Without a manifest the point files describe the sweep themselves: they must all come from one
// sweep and agree on its size and on which key sits at which index.
StatusOr<Manifest> ManifestFromRecords(const std::map<std::string, PointRecord>& records) {
  if (records.empty())
    return Status::Error("no sweep.json and no point files (points/<key>.json)");
  Manifest manifest;
  const PointRecord& first = records.begin()->second;
  manifest.scenario = first.scenario;
  manifest.sweep_id = first.sweep_id;
  for (const auto& [axis, value] : first.params)
    manifest.axes.push_back(axis);
  manifest.points.resize(static_cast<size_t>(std::max<int64_t>(0, first.points_total)));
  for (const auto& [key, record] : records) {
    if (record.sweep_id != first.sweep_id || record.points_total != first.points_total) {
      return Status::Error("point files from different sweeps (" + first.key + " and " + key +
                           "); merge each sweep's directory on its own");
    }
    if (record.index < 0 || record.index >= first.points_total)
      return Status::Error("point " + key + " has index " + std::to_string(record.index) +
                           " outside its sweep of " + std::to_string(first.points_total));
    ManifestPoint& slot = manifest.points[static_cast<size_t>(record.index)];
    if (!slot.key.empty())
      return Status::Error("points " + slot.key + " and " + key + " share index " +
                           std::to_string(record.index));
    slot.key = key;
    slot.params = record.params;
  }
  return manifest;
}

std::string Describe(size_t index, const ManifestPoint& point) {
  std::string params;
  for (const auto& [path, value] : point.params)
    params += (params.empty() ? "" : ", ") + path + "=" + value;
  return "point " + std::to_string(index) + " (" + (params.empty() ? "?" : params) + ")" +
         (point.key.empty() ? "" : " key " + point.key);
}

}  // namespace

int MergeCommand(const MergeOptions& options) {
  const std::string& out = options.dirs.front();
  for (const std::string& dir : options.dirs) {
    std::error_code error;
    if (!fs::is_directory(dir, error))
      return BadInput(dir + ": not a directory");
  }
  std::map<std::string, PointRecord> records = Gather(options.dirs);
  StatusOr<Manifest> manifest = Status::Error("no manifest");
  for (const std::string& dir : options.dirs) {
    std::error_code error;
    if (!fs::exists(dir + "/sweep.json", error))
      continue;
    manifest = ReadManifest(dir + "/sweep.json");
    if (!manifest.ok())
      return ReportError(manifest.status());
    break;
  }
  if (!manifest.ok())
    manifest = ManifestFromRecords(records);
  if (!manifest.ok())
    return ReportError(manifest.status().WithPrefix(out + ": "));

  std::vector<const PointRecord*> ok_points;
  std::vector<int64_t> indices;
  std::vector<std::string> missing, failed;
  std::set<std::string> expected;
  for (size_t i = 0; i < manifest->points.size(); ++i) {
    const ManifestPoint& point = manifest->points[i];
    expected.insert(point.key);
    const auto found = records.find(point.key);
    if (point.key.empty() || found == records.end()) {
      missing.push_back(Describe(i, point));
    } else if (!found->second.ok) {
      failed.push_back(Describe(i, point) + ": " + found->second.error);
    } else {
      ok_points.push_back(&found->second);
      indices.push_back(static_cast<int64_t>(i));
    }
  }
  size_t stale = 0;
  for (const auto& [key, record] : records)
    stale += expected.contains(key) ? 0 : 1;
  if (stale > 0) {
    std::fprintf(stderr,
                 "rblnsim: merge: ignoring %zu point file(s) that are not in the current sweep "
                 "(left by an earlier version of it)\n",
                 stale);
  }

  StatusOr<ResultTable> table = BuildTable(manifest->scenario, manifest->axes, ok_points, indices);
  if (!table.ok())
    return ReportError(table.status());
  Status csv = WriteCsv(out + "/results.csv", *table);
  Status jsonl = csv.ok() ? WriteJsonl(out + "/results.jsonl", *table) : csv;
  if (!jsonl.ok())
    return ReportError(jsonl);
  size_t plots = 0;
  if (!options.no_plots && !table->rows.empty()) {
    std::error_code error;
    fs::create_directories(out + "/plots", error);
    if (error)
      return BadInput("cannot create " + out + "/plots: " + error.message());
    StatusOr<size_t> written = WritePlots(out + "/plots", *table);
    if (!written.ok())
      return ReportError(written.status());
    plots = *written;
  }

  for (const auto* list : {&missing, &failed}) {
    const char* what = list == &missing ? "missing" : "failed";
    for (size_t i = 0; i < list->size() && i < kMaxListed; ++i)
      std::fprintf(stderr, "merge: %s %s\n", what, (*list)[i].c_str());
    if (list->size() > kMaxListed)
      std::fprintf(stderr, "merge: ... and %zu more %s\n", list->size() - kMaxListed, what);
  }
  std::fprintf(stderr,
               "merge %s: %zu points expected: %zu ok, %zu failed, %zu missing; wrote "
               "%s/results.csv, %s/results.jsonl and %zu plots\n",
               manifest->scenario.c_str(), manifest->points.size(), ok_points.size(), failed.size(),
               missing.size(), out.c_str(), out.c_str(), plots);
  return missing.empty() && failed.empty() ? 0 : 1;
}

}  // namespace rblnsim::cli
