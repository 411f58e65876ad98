// torch.rbln.explain()'s report as it reads today (torch-rbln docs/explain.md), for an
// OverheadReport read from a trace:
//
//   [overhead: 2 signals]  RBLN EXPLAIN   (region wall 4.070ms | device mem: not in a trace)
//
//     runtime: 1.234ms in copy calls (30.3% of region wall)
//       v2h 1.0ms/3  h2v 234us/2
//
//   ---------------------  -----  -----  --------------------------------------
//   Signal                 Count  Bytes  Note
//   ---------------------  -----  -----  --------------------------------------
//   dispatch/cpu_fallback      2     --  try: a device dtype (fp16/bf16), or graph mode
//   ---------------------  -----  -----  --------------------------------------
//
//     dispatch/cpu_fallback:  (sum 310.000us wall)
//       aten::add  2
//       why: dtype-not-fp16 2
//
// The marker counts the kinds of hidden overhead that fired (host bounces, CPU fallbacks,
// recompiles): a fact, not a grade. A fallback's own copies belong to the fallback and show on the
// runtime line, never as a host bounce; user-written .cpu() calls are not overhead at all. What a
// trace shows beyond explain() (the NaN/Inf scan, each fallback's call-tree shape and copy
// directions, evictions behind recompiles) follows in the same layout, and the report ends by
// pointing at the trace's NPU rows and rbln launch arrows for device time, which explain() leaves
// to torch.profiler. Also as JSON.
#ifndef RBLNSIM_PROFILER_ANALYSIS_EXPLAIN_REPORT_H_
#define RBLNSIM_PROFILER_ANALYSIS_EXPLAIN_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/analysis/fallback_detect.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

struct ExplainRow {
  std::string signal;  // "dispatch/cpu_fallback", "dispatch/recompile"
  int64_t count = 0;
  int64_t bytes = -1;  // -1: not a bounce row ("--")
  std::string note;    // "try: ..."
};

// The fired signals in explain()'s fixed category order (host_bounce, then dispatch).
std::vector<ExplainRow> ExplainRows(const OverheadReport& report);

// One runtime copy primitive on the runtime line: v2h (device to host), h2v (host to device).
struct CopyPrimitive {
  std::string name;
  int64_t ns = 0;
  int64_t calls = 0;
};
// The copy calls that crossed the device boundary, largest time first.
std::vector<CopyPrimitive> RuntimeCopies(const OverheadReport& report);

std::string FormatExplainText(const OverheadReport& report);
// One JSON object: the marker, rows, runtime copies, and every detected fallback, recompile and
// round trip.
void WriteExplainJson(const OverheadReport& report, trace::JsonWriter* json);

// explain()'s byte figures: "8 B", "9.77 KB", "128.00 MB" (1024-based); "--" for a negative one.
std::string BytesText(int64_t bytes);
// "4.070ms": ns with three decimals in us, ms or s.
std::string DurationText(int64_t ns);
// "1,600": a count with thousands separators.
std::string CountText(int64_t count);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_EXPLAIN_REPORT_H_
