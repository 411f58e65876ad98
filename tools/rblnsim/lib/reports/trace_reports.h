// The trace-only analyses as `rblnsim run` and `rblnsim analyze` both print them, in one order:
// hidden host work in torch.rbln.explain()'s layout, the submission latency per launch, and the
// device work the capture window does not hold. Run prints them under its key_averages table;
// analyze prints them for any trace and adds its --truth score, JSON and plots.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_REPORTS_TRACE_REPORTS_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_REPORTS_TRACE_REPORTS_H_

#include <string>

#include "base/status.h"
#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/analysis/window_overrun.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/trace.h"

namespace rblnsim::cli {

struct TraceReports {
  analysis::OverheadReport overhead;
  analysis::LatencyReport latency;
  analysis::WindowOverrun overrun;
};

// Imports |path| keeping only the args the registered analyses read (analysis::KeptArgKeys), and
// prints on stderr what the import dropped or changed: analyze's and diff's import.
StatusOr<trace::ImportResult> ImportForAnalyses(const std::string& path);

// |window_from_events|: the trace file recorded no capture window and the importer derived one
// from the events, so the overrun check has nothing to hold the events against.
TraceReports AnalyzeTrace(const index::TraceIndex& index,
                          const analysis::LatencyOptions& latency_options,
                          bool window_from_events);

// The explain table; the launch-latency table, or with |say_when_no_launches| a line saying the
// trace has no launch markers; then the window overrun when there is one.
std::string FormatTraceReports(const TraceReports& reports, bool say_when_no_launches);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_REPORTS_TRACE_REPORTS_H_
