// The outputs of `rblnsim compare`: the side-by-side tables on stdout and the SVG plots (device
// time per launching op, submission latency CDFs). JSON and plots are written atomically through
// the project's writers.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_REPORT_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_REPORT_H_

#include <string>

#include "base/status.h"
#include "tools/rblnsim/lib/compare/compare_match.h"

namespace rblnsim::cli {

struct CompareHeader {
  std::string scenario;
  std::string scenario_hash;
  std::string trace_path;
  std::string capture_line;  // DescribeCaptureContext
  CompareTolerance tolerance;
  std::string import_json;  // what the capture's import dropped or changed, by reason
};

std::string FormatComparison(const CompareHeader& header, const Comparison& comparison);

// device_time_per_op.svg, device_time_per_launch.svg and latency_cdf.svg in |dir| (created).
Status WriteComparisonPlots(const std::string& dir, const Comparison& comparison);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_REPORT_H_
