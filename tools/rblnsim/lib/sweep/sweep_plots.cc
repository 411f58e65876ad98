#include "tools/rblnsim/lib/sweep/sweep_plots.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "profiler/plot/svg_plot.h"

namespace rblnsim::cli {
namespace {

// How one parameter's values map onto an x axis.
struct XAxis {
  std::map<std::string, double> position;  // value text -> x
  std::string label;
  bool log = false;
};

// A leading number and the rest: "900ns" -> {900, "ns"}. std::from_chars ignores the locale.
std::optional<std::pair<double, std::string>> SplitNumber(const std::string& text) {
  double value = 0;
  const auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || !std::isfinite(value))
    return std::nullopt;
  std::string rest(ptr, text.data() + text.size());
  while (!rest.empty() && rest.front() == ' ')
    rest.erase(rest.begin());
  return std::make_pair(value, rest);
}

// "[512, 512]" -> 512 when every element is the same number.
std::optional<double> SquareShape(const std::string& text) {
  if (text.size() < 3 || text.front() != '[' || text.back() != ']')
    return std::nullopt;
  std::optional<double> common;
  size_t start = 1;
  while (start < text.size()) {
    size_t end = text.find_first_of(",]", start);
    std::string item = text.substr(start, end - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    const auto number = SplitNumber(item);
    if (!number || !number->second.empty() || (common && *common != number->first))
      return std::nullopt;
    common = number->first;
    start = end + 1;
  }
  return common;
}

XAxis MakeXAxis(const std::string& path, const std::vector<std::string>& values) {
  XAxis axis;
  std::optional<std::string> unit;
  bool numeric = true, square = true;
  for (const std::string& value : values) {
    const auto number = SplitNumber(value);
    numeric = numeric && number && (!unit || *unit == number->second);
    if (number)
      unit = number->second;
    square = square && SquareShape(value).has_value();
  }
  if (numeric || square) {
    for (const std::string& value : values)
      axis.position[value] = numeric ? SplitNumber(value)->first : *SquareShape(value);
    axis.label = path + (numeric ? (unit->empty() ? "" : " (" + *unit + ")") : " (each dim)");
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& [text, x] : axis.position)
      lo = std::min(lo, x), hi = std::max(hi, x);
    axis.log = lo > 0 && hi / lo >= 16;
    return axis;
  }
  // Categories in canonical order of first appearance.
  std::string legend;
  for (const std::string& value : values) {
    if (axis.position.contains(value))
      continue;
    const double x = static_cast<double>(axis.position.size());
    axis.position[value] = x;
    legend +=
        (legend.empty() ? "" : ", ") + std::to_string(axis.position.size() - 1) + " = " + value;
  }
  axis.label = path + " (" + legend + ")";
  return axis;
}

// File names keep [A-Za-z0-9._-]; anything else becomes '_'.
std::string FileSafe(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    out += keep ? c : '_';
  }
  return out;
}

// Legend names for the axes: the last segment of each path ("shape" for
// workload.tensors.x.shape), or the whole path where two axes share that segment. Legends have
// room for ~26 characters, which a full path would mostly fill before its value.
std::vector<std::string> ShortNames(const std::vector<std::string>& axes) {
  std::vector<std::string> names;
  for (const std::string& axis : axes)
    names.push_back(axis.substr(axis.rfind('.') + 1));
  for (size_t a = 0; a < axes.size(); ++a) {
    if (std::count(names.begin(), names.end(), names[a]) > 1 || names[a].empty())
      names[a] = axes[a];
  }
  return names;
}

report::LinePlot PlotOne(const ResultTable& table,
                         size_t axis,
                         const XAxis& x_axis,
                         const std::string& column) {
  report::LinePlot plot;
  plot.title = column + " vs " + table.axes[axis] + " - " + table.scenario;
  plot.x_label = x_axis.label;
  plot.y_label = column;
  plot.log_x = x_axis.log;
  const std::vector<std::string> names = ShortNames(table.axes);
  std::map<std::string, size_t> series_of;  // other parameters' values -> series
  double lo = INFINITY, hi = -INFINITY;
  for (const TableRow& row : table.rows) {
    std::string label;
    for (size_t a = 0; a < table.axes.size(); ++a) {
      if (a != axis)
        label += (label.empty() ? "" : ", ") + names[a] + "=" + row.params[a];
    }
    const auto [it, added] = series_of.emplace(label, plot.series.size());
    if (added)
      plot.series.push_back({label.empty() ? column : label, {}, {}});
    const auto found = row.values.find(column);
    const double y = found == row.values.end() ? NAN : found->second.value;
    plot.series[it->second].x.push_back(x_axis.position.at(row.params[axis]));
    plot.series[it->second].y.push_back(y);
    if (std::isfinite(y))
      lo = std::min(lo, y), hi = std::max(hi, y);
  }
  for (report::Series& series : plot.series) {
    std::vector<size_t> order(series.x.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return series.x[a] < series.x[b]; });
    report::Series sorted{series.label, {}, {}};
    for (size_t i : order) {
      sorted.x.push_back(series.x[i]);
      sorted.y.push_back(series.y[i]);
    }
    series = std::move(sorted);
  }
  plot.log_y = lo > 0 && hi / lo >= 1000;
  if (column == kAchievedTflops && table.peak_tflops > 0) {
    plot.has_reference = true;
    plot.reference_y = table.peak_tflops;
    plot.reference_label = "configured peak";
  }
  return plot;
}

}  // namespace

StatusOr<size_t> WritePlots(const std::string& plots_dir, const ResultTable& table) {
  std::set<std::string> names;
  size_t written = 0;
  for (size_t axis = 0; axis < table.axes.size(); ++axis) {
    std::vector<std::string> values;
    for (const TableRow& row : table.rows)
      values.push_back(row.params[axis]);
    const XAxis x_axis = MakeXAxis(table.axes[axis], values);
    for (const std::string& column : table.columns) {
      if (column == "seed")
        continue;  // an input echoed back, not an outcome
      std::string name = FileSafe(column) + "_vs_" + FileSafe(table.axes[axis]);
      for (int n = 2; !names.insert(name).second; ++n)
        name = FileSafe(column) + "_vs_" + FileSafe(table.axes[axis]) + "-" + std::to_string(n);
      const std::string svg = report::RenderLinePlot(PlotOne(table, axis, x_axis, column));
      RBLNSIM_RETURN_IF_ERROR(report::WriteSvg(plots_dir + "/" + name + ".svg", svg));
      ++written;
    }
  }
  return written;
}

}  // namespace rblnsim::cli
