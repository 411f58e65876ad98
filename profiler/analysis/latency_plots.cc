#include "profiler/analysis/latency_plots.h"

#include <filesystem>
#include <system_error>
#include <utility>

namespace rblnsim::analysis {

namespace {

double MsFrom(int64_t ns, int64_t origin_ns) {
  return static_cast<double>(ns - origin_ns) / 1e6;
}

}  // namespace

report::Histogram LatencyHistogram(const LatencyReport& report) {
  report::Histogram histogram;
  histogram.title = "Submission latency (" + report.marker_name + " start to first device slice)";
  histogram.x_label = "latency (us)";
  for (const LaunchLatency& l : report.launches) {
    if (l.has_device()) {
      histogram.values.push_back(static_cast<double>(l.submission_latency_ns()) / 1e3);
    }
  }
  return histogram;
}

report::LinePlot QueueLengthPlot(const LatencyReport& report) {
  report::LinePlot plot;
  plot.title = "Queue length (+1 at " + report.marker_name + " start, -1 at first device slice)";
  plot.x_label = "time since window start (ms)";
  plot.y_label = "launches in flight";
  report::Series series;
  series.label = "launches in flight";
  series.step = true;
  series.markers = false;
  const std::vector<QueuePoint>& q = report.queue;
  const size_t stride = q.size() / kMaxPlotPoints + 1;
  for (size_t i = 0; i < q.size(); i += stride) {
    size_t peak = i;
    for (size_t j = i; j < q.size() && j < i + stride; ++j) {
      if (q[j].length > q[peak].length)
        peak = j;
    }
    series.x.push_back(MsFrom(q[peak].ts_ns, report.window_start_ns));
    series.y.push_back(q[peak].length);
  }
  plot.series.push_back(std::move(series));
  return plot;
}

report::LinePlot DeviceBusyPlot(const trace::Trace& trace, const LatencyReport& report) {
  const BusySeries busy =
      DeviceBusyOverTime(trace, report.window_start_ns, report.window_end_ns, kBusyBuckets);
  report::LinePlot plot;
  plot.title = "Device busy (share of each time bucket covered by device slices)";
  plot.x_label = "time since window start (ms)";
  plot.y_label = "busy (%)";
  report::Series series;
  series.label = "device busy";
  series.step = true;
  series.markers = false;
  series.x = busy.x_ms;
  for (double fraction : busy.busy_fraction)
    series.y.push_back(100.0 * fraction);
  plot.series.push_back(std::move(series));
  return plot;
}

LatencyPlots RenderLatencyPlots(const trace::Trace& trace, const LatencyReport& report) {
  LatencyPlots plots;
  plots.latency_histogram_svg = report::RenderHistogram(LatencyHistogram(report));
  plots.queue_length_svg = report::RenderLinePlot(QueueLengthPlot(report));
  plots.device_busy_svg = report::RenderLinePlot(DeviceBusyPlot(trace, report));
  return plots;
}

Status WriteLatencyPlots(const std::string& dir, const LatencyPlots& plots) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return Status::Error(dir + ": cannot create the plot directory: " + error.message());
  const std::filesystem::path root(dir);
  RBLNSIM_RETURN_IF_ERROR(
      report::WriteSvg((root / "latency_histogram.svg").string(), plots.latency_histogram_svg));
  RBLNSIM_RETURN_IF_ERROR(
      report::WriteSvg((root / "queue_length.svg").string(), plots.queue_length_svg));
  return report::WriteSvg((root / "device_busy.svg").string(), plots.device_busy_svg);
}

}  // namespace rblnsim::analysis
