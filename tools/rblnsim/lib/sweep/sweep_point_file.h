// One sweep point's result file, <DIR>/points/<key>.json: what was run (key, canonical index and
// point count of its sweep, parameters, seed, the matrix work of its workload) and what came out
// (status, error, and the metrics object of `rblnsim run --metrics`, copied in). Each file is
// self-contained, so shards on different machines need nothing but their files to be merged.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_POINT_FILE_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_POINT_FILE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace rblnsim::cli {

inline constexpr char kPointFormat[] = "rblnsim-sweep-point/1";

struct PointRecord {
  std::string key;
  int64_t index = 0;         // canonical position in the sweep
  int64_t points_total = 0;  // points in the whole sweep (all shards)
  std::string sweep_id;
  std::string scenario;
  std::vector<std::pair<std::string, std::string>> params;  // axis path -> value as written
  uint64_t seed = 0;
  double matmul_flops = 0;
  double peak_flops_per_s = 0;
  double device_active_ns = -1;  // from the run's ground truth; < 0 when unknown
  bool ok = false;
  std::string error;                // empty when ok
  std::string metrics_json = "{}";  // compact JSON object
};

// Written atomically (temp file + rename): a reader sees the whole record or none.
Status WritePointRecord(const std::string& path, const PointRecord& record);
StatusOr<PointRecord> ReadPointRecord(const std::string& path);

struct Metric {
  std::string name;  // "latency_p50_ns", "engine_busy_pct.chiplet0/Neural DMA"
  std::string text;  // as JSON writes it: integers without a point, doubles round-tripping
  double value = 0;
};

// The numeric fields of a metrics object in document order, one level of nested objects
// flattened to parent.child. Strings, booleans, nulls and arrays are not metrics.
StatusOr<std::vector<Metric>> FlattenMetrics(const std::string& metrics_json);

// True for 16 lowercase hex digits, the form of a point key.
bool IsPointKey(const std::string& text);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_POINT_FILE_H_
