#include <algorithm>

#include "profiler/diff/diff_report.h"
#include "profiler/plot/svg_plot.h"

namespace rblnsim::diff {

namespace {

// At most kCdfPoints points per run: the CDF of a million launches draws the same curve from
// a few hundred of its quantiles.
constexpr size_t kCdfPoints = 400;

report::Series Cdf(const std::string& label, const std::vector<int64_t>& sorted_ns) {
  report::Series series;
  series.label = label;
  series.step = true;
  series.markers = false;
  const size_t n = sorted_ns.size();
  const size_t points = std::min(n, kCdfPoints);
  for (size_t p = 1; p <= points; ++p) {
    const size_t rank = (p * n + points - 1) / points;  // 1-based, the last point is the max
    series.x.push_back(static_cast<double>(sorted_ns[rank - 1]) / 1e3);
    series.y.push_back(static_cast<double>(rank) / static_cast<double>(n));
  }
  return series;
}

}  // namespace

DiffPlots RenderDiffPlots(const TraceDiff& diff, size_t max_ops) {
  DiffPlots plots;

  report::BarChart ops;
  ops.title = "Per-op change, new - base";
  ops.y_label = "delta (us)";
  report::BarSeries self{"self CPU", {}}, device{"device time", {}};
  for (const OpDiff& op : diff.ops) {
    if (ops.categories.size() >= max_ops || op.time_change_ns() == 0)
      break;  // ops are sorted by that change: the rest are unchanged in time
    ops.categories.push_back(op.name);
    self.values.push_back(static_cast<double>(op.next.self_cpu_ns - op.base.self_cpu_ns) / 1e3);
    device.values.push_back(static_cast<double>(op.next.device_ns - op.base.device_ns) / 1e3);
  }
  ops.series = {self, device};
  plots.op_delta_svg = report::RenderBarChart(ops);

  report::LinePlot cdf;
  cdf.title = "Submission latency CDF";
  cdf.x_label = "submission latency (us)";
  cdf.y_label = "fraction of launches";
  cdf.series = {Cdf("base", diff.base_latency_ns), Cdf("new", diff.new_latency_ns)};
  plots.latency_cdf_svg = report::RenderLinePlot(cdf);

  report::BarChart classes;
  classes.title = "Device time per class";
  classes.y_label = "device time (us)";
  report::BarSeries base{"base", {}}, next{"new", {}};
  for (const DeviceRowDiff& row : diff.device_classes) {
    classes.categories.push_back(row.name);
    base.values.push_back(static_cast<double>(row.base.ns) / 1e3);
    next.values.push_back(static_cast<double>(row.next.ns) / 1e3);
  }
  classes.series = {base, next};
  plots.device_svg = report::RenderBarChart(classes);
  return plots;
}

}  // namespace rblnsim::diff
