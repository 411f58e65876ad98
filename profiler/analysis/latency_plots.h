// The three charts of `rblnsim analyze --plots`: the submission-latency histogram, the queue
// length over time (a step series) and device busy over time, rendered with report/svg_plot.h.
#ifndef RBLNSIM_PROFILER_ANALYSIS_LATENCY_PLOTS_H_
#define RBLNSIM_PROFILER_ANALYSIS_LATENCY_PLOTS_H_

#include <string>

#include "base/status.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/plot/svg_plot.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

// Plots keep at most this many points: an SVG of a million-launch queue series would be huge
// and unreadable, and keeping each stretch's highest point keeps every peak visible.
inline constexpr size_t kMaxPlotPoints = 4000;
inline constexpr int kBusyBuckets = 200;

report::Histogram LatencyHistogram(const LatencyReport& report);
report::LinePlot QueueLengthPlot(const LatencyReport& report);
report::LinePlot DeviceBusyPlot(const trace::Trace& trace, const LatencyReport& report);

struct LatencyPlots {
  std::string latency_histogram_svg;
  std::string queue_length_svg;
  std::string device_busy_svg;
};
LatencyPlots RenderLatencyPlots(const trace::Trace& trace, const LatencyReport& report);

// Creates |dir| if needed and writes latency_histogram.svg, queue_length.svg and
// device_busy.svg into it, each atomically.
Status WriteLatencyPlots(const std::string& dir, const LatencyPlots& plots);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_LATENCY_PLOTS_H_
