// torch.rbln.explain()'s report layout (rbln-platform.md) for an OverheadReport read from a
// trace: a verdict header, a dashed Signal / Count / Bytes / Note table, why: lines per reason
// with per-op counts, and try: (a fix) / fyi: (a notice) notes. Also as JSON.
#ifndef RBLNSIM_PROFILER_ANALYSIS_EXPLAIN_REPORT_H_
#define RBLNSIM_PROFILER_ANALYSIS_EXPLAIN_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/analysis/fallback_detect.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

struct ExplainRow {
  std::string signal;  // "dispatch/cpu_fallback", "host_bounce/d2h", ...
  int64_t count = 0;
  int64_t bytes = -1;  // -1: not applicable or unknown
  std::string note;
  std::vector<std::string> lines;  // "why: ...", "try: ...", "fyi: ..."
  bool overhead = true;  // counts toward the header's signals (user-written .cpu() does not)
};

// Rows with a non-zero count, in the fixed order cpu_fallback, recompile, d2h, h2d, nan_inf.
std::vector<ExplainRow> ExplainRows(const OverheadReport& report);
int64_t OverheadSignals(const std::vector<ExplainRow>& rows);

std::string FormatExplainText(const OverheadReport& report);
// One JSON object: verdict, rows, and every detected fallback / recompile / round trip.
void WriteExplainJson(const OverheadReport& report, trace::JsonWriter* json);

// "512.00 KiB"; "-" for a negative (unknown) count.
std::string BytesText(int64_t bytes);
// "4.070ms": ns with three decimals in us, ms or s.
std::string DurationText(int64_t ns);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_EXPLAIN_REPORT_H_
