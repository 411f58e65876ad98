// What `rblnsim diff` writes: the terminal report, the markdown summary a CI system posts on a
// change, the versioned JSON and the SVG plots. Text and markdown are two renderings of the same
// tables (DiffTables), so they never disagree about what changed.
#ifndef RBLNSIM_PROFILER_DIFF_DIFF_REPORT_H_
#define RBLNSIM_PROFILER_DIFF_DIFF_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/diff/diff_gate.h"
#include "profiler/diff/trace_diff.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::diff {

// The "format" at the head of `diff --json`; bump it when a key changes meaning or goes away.
inline constexpr int64_t kDiffJsonFormat = 1;

struct DiffLabels {
  std::string base_path;
  std::string new_path;
};

struct DiffTable {
  std::string title;
  std::vector<std::string> notes;  // lines under the title
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  size_t hidden_rows = 0;  // rows left out past the row limit (the JSON has them all)
};

// The report's sections in order: alignment, operators, launches, hidden host work, device and,
// with a gate, its rules. Only what changed is tabled; each table says how many rows it left out.
std::vector<DiffTable> DiffTables(const TraceDiff& diff, const GateResult* gate, size_t row_limit);

// The one-line verdict: "no differences", or what changed in how many places, and the gate.
std::string DiffHeadline(const TraceDiff& diff, const GateResult* gate);

std::string FormatDiffText(const TraceDiff& diff,
                           const DiffLabels& labels,
                           const GateResult* gate,
                           size_t row_limit);
std::string FormatDiffMarkdown(const TraceDiff& diff,
                               const DiffLabels& labels,
                               const GateResult* gate,
                               size_t row_limit);
void WriteDiffJson(const TraceDiff& diff,
                   const DiffLabels& labels,
                   const GateResult* gate,
                   trace::JsonWriter* json);

struct DiffPlots {
  std::string op_delta_svg;     // per-op Δ self CPU and Δ device time
  std::string latency_cdf_svg;  // submission latency CDF of both runs
  std::string device_svg;       // device time per class, base and new
};
DiffPlots RenderDiffPlots(const TraceDiff& diff, size_t max_ops);

}  // namespace rblnsim::diff

#endif  // RBLNSIM_PROFILER_DIFF_DIFF_REPORT_H_
