#include "tools/rblnsim/lib/reports/trace_reports.h"

#include <cstdio>

#include "profiler/analysis/explain_report.h"
#include "profiler/analysis/latency_report.h"
#include "profiler/analysis/registry.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/import/import_report.h"

namespace rblnsim::cli {

StatusOr<trace::ImportResult> ImportForAnalyses(const std::string& path) {
  // The analyses read a few args (their registry lists them); a large trace's other args would
  // only cost memory and time.
  trace::ImportOptions import_options;
  import_options.keep_args = analysis::KeptArgKeys();
  auto imported = trace::ImportChromeTrace(path, import_options);
  if (imported.ok()) {
    if (const std::string notice = trace::FormatImportNotice(*imported); !notice.empty())
      std::fprintf(stderr, "%s\n", notice.c_str());
  }
  return imported;
}

TraceReports AnalyzeTrace(const index::TraceIndex& index,
                          const analysis::LatencyOptions& latency_options,
                          bool window_from_events) {
  TraceReports reports;
  reports.overhead = analysis::DetectOverhead(index);
  reports.latency = analysis::AnalyzeLaunchLatency(index, latency_options);
  reports.overrun = analysis::FindWindowOverrun(
      index, analysis::HasCaptureWindow(index.trace(), window_from_events));
  return reports;
}

std::string FormatTraceReports(const TraceReports& reports, bool say_when_no_launches) {
  std::string out = analysis::FormatExplainText(reports.overhead);
  if (!reports.latency.launches.empty()) {
    out += "\n" + analysis::FormatLatencyReportText(reports.latency);
  } else if (say_when_no_launches) {
    out += "\nRBLN launch latency: no " + reports.latency.marker_name + " markers in the trace\n";
  }
  const std::string overrun = analysis::FormatWindowOverrunText(reports.overrun);
  if (!overrun.empty())
    out += "\n" + overrun;
  return out;
}

}  // namespace rblnsim::cli
