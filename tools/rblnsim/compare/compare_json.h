// `compare --json`: every number of the tables, the fit error and the differences, one key per
// figure, so scripts (and tests/e2e/calibration_tests.py) read them without parsing the text.
// The document struct, its writer and its reader live together; the file names its schema in
// "format" and the reader refuses any other.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_JSON_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_JSON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "tools/rblnsim/compare/compare_report.h"
#include "tools/rblnsim/lib/compare/compare_match.h"

namespace rblnsim::cli {

// 2: ops carry sim_without_device / hw_without_device, and their device means leave those out;
// "lanes" holds each side's device time per lane.
inline constexpr char kCompareFormat[] = "rblnsim-compare/2";

// What the file holds, field for field. The per-op and per-class error_pct the file also shows
// are ErrorPct of the two means, so they are not kept twice here.
struct CompareDocument {
  std::string scenario;
  std::string scenario_hash;
  std::string trace_path;
  CompareTolerance tolerance;
  std::string import_json;  // the capture's import report, one compact object; "" when absent
  int64_t launches_matched = 0;
  int64_t launches_only_sim = 0;
  int64_t launches_only_hw = 0;
  int64_t commands_matched = 0;
  int64_t commands_only_sim = 0;
  int64_t commands_only_hw = 0;
  std::vector<OpComparison> ops;
  std::vector<ClassComparison> classes;
  std::vector<LaneComparison> lanes;
  analysis::Percentiles sim_latency;
  analysis::Percentiles hw_latency;
  std::vector<HostComparison> host_ops;
  int64_t sim_device_events = 0;
  int64_t hw_device_events = 0;
  std::vector<CountDiff> event_names;
  std::vector<CountDiff> fallbacks;
  std::vector<CountDiff> recompiles;
  FitError error;
  std::vector<Difference> differences;
};

CompareDocument MakeCompareDocument(const CompareHeader& header, const Comparison& comparison);

// Written atomically.
Status WriteCompareDocument(const std::string& path, const CompareDocument& document);

// Errors name |path|: unreadable JSON, a missing or mistyped field, or a format other than
// kCompareFormat (a file of another rblnsim version).
StatusOr<CompareDocument> ReadCompareDocument(const std::string& path);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_JSON_H_
