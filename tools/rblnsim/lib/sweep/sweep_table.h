// The merged results of a sweep as a table: one row per successful point in canonical order, one
// column per swept parameter and per metric (nested metric objects flattened to parent.child,
// e.g. engine_busy_pct.chiplet0/Neural DMA), written as results.csv and results.jsonl.
// Derived columns, from what the sweep recorded beside the metrics: device_active_ns (the union
// of the launches' device spans) and achieved_tflops = the workload's matrix FLOPs over it, for
// workloads with matrix products.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_TABLE_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_TABLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/rblnsim/lib/sweep/sweep_point_file.h"

namespace rblnsim::cli {

inline constexpr char kAchievedTflops[] = "achieved_tflops";
inline constexpr char kDeviceActiveNs[] = "device_active_ns";

struct TableRow {
  int64_t index = 0;
  std::string key;
  uint64_t seed = 0;
  std::vector<std::string> params;       // aligned with ResultTable::axes; empty when absent
  std::map<std::string, Metric> values;  // by column name
  std::string metrics_json;
};

struct ResultTable {
  std::string scenario;
  std::vector<std::string> axes;
  std::vector<std::string> columns;  // metric columns in output order
  std::vector<TableRow> rows;
  double peak_tflops = 0;  // the configured peak when every row's device agrees; else 0
};

// |points| must be successful records in canonical order, |indices| their canonical indices.
StatusOr<ResultTable> BuildTable(const std::string& scenario,
                                 const std::vector<std::string>& axes,
                                 const std::vector<const PointRecord*>& points,
                                 const std::vector<int64_t>& indices);

Status WriteCsv(const std::string& path, const ResultTable& table);
Status WriteJsonl(const std::string& path, const ResultTable& table);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_SWEEP_SWEEP_TABLE_H_
