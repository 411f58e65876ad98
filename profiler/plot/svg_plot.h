// Small, dependency-free SVG charts for reports: line/step charts of series and histograms.
// Deterministic output (fixed number formatting, no timestamps) so plots can be compared
// byte for byte; every text is XML-escaped.
#ifndef RBLNSIM_PROFILER_PLOT_SVG_PLOT_H_
#define RBLNSIM_PROFILER_PLOT_SVG_PLOT_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace rblnsim::report {

struct Series {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
  bool step = false;    // draw as a step function (queue length over time)
  bool markers = true;  // draw a dot at each point
};

struct LinePlot {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  std::vector<Series> series;
  // Optional horizontal reference line (e.g. the configured peak), drawn dashed.
  bool has_reference = false;
  double reference_y = 0.0;
  std::string reference_label;
};

struct Histogram {
  std::string title;
  std::string x_label;
  std::vector<double> values;
  int bins = 40;
};

// Grouped bars: one group per category (an op, an engine class), one bar per series in it.
// Values are signed (e.g. per-op deltas, new minus base): the value axis spans
// [min(0, lowest value), max(0, highest value)] ([0, 1] when every value is zero), so bar lengths
// compare from zero. Positive bars grow up from zero, negative ones down; when the axis holds
// negatives a solid zero line is drawn across the plot. Categories are labelled by name.
struct BarSeries {
  std::string label;
  std::vector<double> values;  // one per category; missing or non-finite: no bar, counted
};

struct BarChart {
  std::string title;
  std::string y_label;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
};

// SVG text of the chart. Empty series and non-finite values are skipped (and counted in a note
// printed on the chart), never silently plotted as zero.
std::string RenderLinePlot(const LinePlot& plot);
std::string RenderHistogram(const Histogram& histogram);
std::string RenderBarChart(const BarChart& chart);

// Writes |svg| to |path| atomically.
Status WriteSvg(const std::string& path, const std::string& svg);

}  // namespace rblnsim::report

#endif  // RBLNSIM_PROFILER_PLOT_SVG_PLOT_H_
