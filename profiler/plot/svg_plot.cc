#include "profiler/plot/svg_plot.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <string_view>
#include <utility>

#include "profiler/trace/atomic_file.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::report {
namespace {

// One fixed canvas: the plot area sits inside these margins, the legend right of it.
constexpr double kWidthPx = 760;
constexpr double kHeightPx = 460;
constexpr double kLeftPx = 84;
constexpr double kRightPx = 200;
constexpr double kTopPx = 40;
constexpr double kBottomPx = 72;
constexpr size_t kMaxLegendEntries = 20;
constexpr size_t kMaxLabelChars = 26;
constexpr int kMaxBins = 1000;
const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

// std::to_chars ignores the locale, so the bytes never depend on the environment.
std::string ToChars(double value, std::chars_format format, int precision) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, format, precision);
  std::string text(buffer, result.ptr);
  if (text == "-0" || text == "-0.00")
    text = "0";
  return text;
}

// Pixel coordinates: two decimals, trailing zeros dropped.
std::string Px(double value) {
  std::string text = ToChars(std::round(value * 100) / 100, std::chars_format::fixed, 2);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0')
      text.pop_back();
    if (text.back() == '.')
      text.pop_back();
  }
  return text;
}

// Tick labels: six significant digits hide the 0.30000000000000004 of repeated addition.
std::string TickText(double value) {
  return ToChars(value, std::chars_format::general, 6);
}

// XML text and attribute values: the five markup characters escaped, ill-formed UTF-8 and the
// control characters XML 1.0 forbids replaced by U+FFFD. At most |max_chars| code points.
std::string Escape(std::string_view text, size_t max_chars = std::string::npos) {
  std::string out;
  size_t chars = 0;
  while (!text.empty()) {
    if (chars++ == max_chars) {
      out += "\xE2\x80\xA6";  // an ellipsis
      break;
    }
    size_t bad_len = 0;
    const size_t len = trace::Utf8SequenceLength(text, &bad_len);
    const unsigned char c = static_cast<unsigned char>(text[0]);
    if (len == 0 || (len == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      out += "\xEF\xBF\xBD";
      text.remove_prefix(len == 0 ? bad_len : 1);
      continue;
    }
    static constexpr std::pair<char, const char*> kEntities[] = {
        {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}};
    const auto* entity =
        std::find_if(std::begin(kEntities), std::end(kEntities),
                     [c](const auto& e) { return static_cast<unsigned char>(e.first) == c; });
    if (entity != std::end(kEntities))
      out += entity->second;
    else
      out.append(text.substr(0, len));
    text.remove_prefix(len);
  }
  return out;
}

// A value range mapped onto pixels, linear or log10, with rounded ("nice") ends and ticks.
class Axis {
 public:
  // |lo| <= |hi| are finite data bounds (positive when |log|); lo > hi means no data. With
  // |integral| data (counts, category positions, queue depths) ticks are never finer than 1.
  Axis(double lo, double hi, bool log, double px_from, double px_to, bool integral = false)
      : log_(log), px_from_(px_from), px_to_(px_to) {
    if (lo > hi) {
      lo = log ? 1 : 0;
      hi = log ? 10 : 1;
    }
    if (log) {
      // The data range, padded by 3% of its span, not rounded out to whole decades: 1..16 on a
      // 1..100 axis would leave most of the plot empty. Ticks at 1, 2, 5 x 10^k for short ranges.
      lo_ = std::log10(lo);
      hi_ = std::log10(hi);
      const double pad = hi_ > lo_ ? (hi_ - lo_) * 0.03 : 0.5;
      lo_ -= pad;
      hi_ += pad;
      const double span = hi_ - lo_;
      const double stride = span <= 10 ? 1 : std::ceil(span / 10);
      for (double d = std::floor(lo_); d <= std::ceil(hi_); d += stride) {
        for (double m : span < 2.5 ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
          const double tick = m * std::pow(10.0, d);
          const double at = std::log10(tick);
          if (tick > 0 && std::isfinite(tick) && at >= lo_ && at <= hi_)
            ticks_.push_back(tick);
        }
      }
      if (ticks_.size() < 2)  // less than a decade: label the ends
        ticks_ = {lo, hi};
      return;
    }
    if (lo == hi) {
      const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
      lo -= pad;
      hi += pad;
    }
    // Halves keep hi - lo finite for data near the ends of the double range.
    const double raw = (hi / 2 - lo / 2) / 3;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double factor : {1.0, 2.0, 5.0}) {
      if (magnitude * factor >= raw) {
        step = magnitude * factor;
        break;
      }
    }
    if (integral)
      step = std::max(step, 1.0);
    const double first = std::floor(lo / step);
    const double last = std::ceil(hi / step);
    if (!std::isfinite(first * step) || !std::isfinite(last * step) || last - first > 100) {
      lo_ = lo;  // no round ends to be had: label the data bounds
      hi_ = hi;
      ticks_ = {lo, hi};
      return;
    }
    lo_ = first * step;
    hi_ = last * step;
    for (double k = first; k <= last; ++k)
      ticks_.push_back(std::fabs(k * step) < step * 1e-9 ? 0.0 : k * step);
  }

  double ToPx(double value) const {
    const double v = log_ ? std::log10(value) : value;
    return px_from_ + (v / 2 - lo_ / 2) / (hi_ / 2 - lo_ / 2) * (px_to_ - px_from_);
  }
  const std::vector<double>& ticks() const { return ticks_; }

 private:
  bool log_;
  double px_from_;
  double px_to_;
  double lo_ = 0;  // in log10 units on a log axis
  double hi_ = 1;
  std::vector<double> ticks_;
};

// Grows [lo, hi] to hold |value|.
void Extend(double value, double* lo, double* hi) {
  *lo = std::min(*lo, value);
  *hi = std::max(*hi, value);
}

std::string Header() {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         Px(kWidthPx) + "\" height=\"" + Px(kHeightPx) + "\" viewBox=\"0 0 " + Px(kWidthPx) + " " +
         Px(kHeightPx) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

std::string Text(double x,
                 double y,
                 const char* anchor,
                 const std::string& escaped,
                 const std::string& extra = "") {
  return "<text x=\"" + Px(x) + "\" y=\"" + Px(y) + "\" text-anchor=\"" + anchor + "\"" + extra +
         ">" + escaped + "</text>\n";
}

std::string Line(double x1, double y1, double x2, double y2, const std::string& extra) {
  return "<line x1=\"" + Px(x1) + "\" y1=\"" + Px(y1) + "\" x2=\"" + Px(x2) + "\" y2=\"" + Px(y2) +
         "\"" + extra + "/>\n";
}

// Frame, ticks, grid and labels. The y label is rotated along the left edge.
std::string Frame(const Axis& x,
                  const Axis& y,
                  const std::string& title,
                  const std::string& x_label,
                  const std::string& y_label,
                  bool x_ticks = true) {
  const double left = kLeftPx, right = kWidthPx - kRightPx;
  const double top = kTopPx, bottom = kHeightPx - kBottomPx;
  std::string out = Text(kWidthPx / 2, 24, "middle", Escape(title), " font-size=\"15\"");
  out += "<g class=\"axes\" stroke=\"#000\" stroke-width=\"1\">\n";
  out += Line(left, bottom, right, bottom, "");
  out += Line(left, top, left, bottom, "");
  out += "</g>\n<g class=\"ticks\" font-size=\"11\">\n";
  for (double tick : x_ticks ? x.ticks() : std::vector<double>()) {
    const double px = x.ToPx(tick);
    out += Line(px, top, px, bottom, " stroke=\"#e0e0e0\"");
    out += Text(px, bottom + 16, "middle", TickText(tick));
  }
  for (double tick : y.ticks()) {
    const double py = y.ToPx(tick);
    out += Line(left, py, right, py, " stroke=\"#e0e0e0\"");
    out += Text(left - 6, py + 4, "end", TickText(tick));
  }
  out += "</g>\n";
  out += Text((left + right) / 2, bottom + 40, "middle", Escape(x_label));
  const std::string cx = Px(18), cy = Px((top + bottom) / 2);
  out += Text(18, (top + bottom) / 2, "middle", Escape(y_label),
              " transform=\"rotate(-90 " + cx + " " + cy + ")\"");
  return out;
}

// The chart's footnote about what was left out; empty when nothing was.
std::string Note(const std::vector<std::pair<int64_t, std::string>>& counts) {
  std::string text;
  for (const auto& [count, what] : counts) {
    if (count <= 0)
      continue;
    text += (text.empty() ? "skipped: " : ", ") + std::to_string(count) + " " + what;
  }
  if (text.empty())
    return "";
  return Text(8, kHeightPx - 8, "start", Escape(text), " class=\"note\" font-size=\"11\"");
}

}  // namespace

std::string RenderLinePlot(const LinePlot& plot) {
  // A point is usable when both coordinates are finite (and positive on a log axis).
  int64_t non_finite = 0, non_positive = 0, empty_series = 0;
  bool integral_x = true;
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  std::vector<std::vector<std::pair<double, double>>> kept(plot.series.size());
  for (size_t s = 0; s < plot.series.size(); ++s) {
    const Series& series = plot.series[s];
    const size_t n = std::max(series.x.size(), series.y.size());
    for (size_t i = 0; i < n; ++i) {
      const double x = i < series.x.size() ? series.x[i] : NAN;
      const double y = i < series.y.size() ? series.y[i] : NAN;
      if (!std::isfinite(x) || !std::isfinite(y)) {
        ++non_finite;
      } else if ((plot.log_x && x <= 0) || (plot.log_y && y <= 0)) {
        ++non_positive;
      } else {
        integral_x = integral_x && x == std::floor(x);
        kept[s].emplace_back(x, y);
        Extend(x, &x_lo, &x_hi);
        Extend(y, &y_lo, &y_hi);
      }
    }
    if (kept[s].empty())
      ++empty_series;
  }
  const bool reference = plot.has_reference && std::isfinite(plot.reference_y) &&
                         (!plot.log_y || plot.reference_y > 0);
  if (reference)
    Extend(plot.reference_y, &y_lo, &y_hi);

  const double right = kWidthPx - kRightPx, bottom = kHeightPx - kBottomPx;
  const Axis x_axis(x_lo, x_hi, plot.log_x, kLeftPx, right, integral_x);
  const Axis y_axis(y_lo, y_hi, plot.log_y, bottom, kTopPx);
  std::string out = Header() + Frame(x_axis, y_axis, plot.title, plot.x_label, plot.y_label);
  if (reference) {
    const double py = y_axis.ToPx(plot.reference_y);
    out += "<g class=\"reference\">\n";
    out += Line(kLeftPx, py, right, py, " stroke=\"#555\" stroke-dasharray=\"6 4\"");
    out += Text(right - 4, py - 5, "end", Escape(plot.reference_label, kMaxLabelChars * 2),
                " fill=\"#555\" font-size=\"11\"");
    out += "</g>\n";
  }
  size_t legend_rows = 0, color = 0;
  for (size_t s = 0; s < plot.series.size(); ++s) {
    if (kept[s].empty())
      continue;
    const Series& series = plot.series[s];
    const std::string stroke = kPalette[color++ % std::size(kPalette)];
    std::string path;
    for (size_t i = 0; i < kept[s].size(); ++i) {
      const std::string px = Px(x_axis.ToPx(kept[s][i].first));
      const std::string py = Px(y_axis.ToPx(kept[s][i].second));
      // A step series holds each value until the next x: horizontal first, then vertical.
      if (i == 0)
        path = "M" + px + " " + py;
      else if (series.step)
        path += " H" + px + " V" + py;
      else
        path += " L" + px + " " + py;
    }
    out += "<g class=\"series\" data-label=\"" + Escape(series.label) + "\">\n";
    out +=
        "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"1.8\"/>\n";
    for (size_t i = 0; series.markers && i < kept[s].size(); ++i) {
      out += "<circle cx=\"" + Px(x_axis.ToPx(kept[s][i].first)) + "\" cy=\"" +
             Px(y_axis.ToPx(kept[s][i].second)) + "\" r=\"3\" fill=\"" + stroke + "\"/>\n";
    }
    out += "</g>\n";
    const double ly = kTopPx + 8 + 18 * static_cast<double>(legend_rows);
    if (legend_rows < kMaxLegendEntries) {
      out += Line(right + 12, ly, right + 32, ly, " stroke=\"" + stroke + "\" stroke-width=\"2\"");
      out += Text(right + 38, ly + 4, "start", Escape(series.label, kMaxLabelChars),
                  " class=\"legend\"");
    } else if (legend_rows == kMaxLegendEntries) {
      out += Text(right + 12, ly + 4, "start", "more series not listed", " class=\"legend\"");
    }
    ++legend_rows;
  }
  out += Note({{non_finite, "points with non-finite values"},
               {non_positive, "non-positive points on a log axis"},
               {empty_series, "empty series"}});
  return out + "</svg>\n";
}

std::string RenderHistogram(const Histogram& histogram) {
  const int bins = std::clamp(histogram.bins, 1, kMaxBins);
  int64_t non_finite = 0;
  double lo = INFINITY, hi = -INFINITY;
  for (double v : histogram.values) {
    if (!std::isfinite(v))
      ++non_finite;
    else
      Extend(v, &lo, &hi);
  }
  if (lo == hi)  // one distinct value: a unit-wide range centred on it
    lo -= 0.5, hi += 0.5;
  std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
  // Halves keep the span finite for data near the ends of the double range.
  const double half_span = hi / 2 - lo / 2;
  int64_t max_count = 0;
  for (double v : histogram.values) {
    if (!std::isfinite(v))
      continue;
    // The top edge belongs to the last bin, so the maximum is counted.
    const double position = (v / 2 - lo / 2) / half_span * bins;
    const auto bin = std::clamp<int64_t>(static_cast<int64_t>(position), 0, bins - 1);
    max_count = std::max(max_count, ++counts[static_cast<size_t>(bin)]);
  }
  const double right = kWidthPx - kRightPx, bottom = kHeightPx - kBottomPx;
  const Axis x_axis(lo, hi, false, kLeftPx, right);
  const Axis y_axis(0, static_cast<double>(std::max<int64_t>(max_count, 1)), false, bottom, kTopPx,
                    /*integral=*/true);
  std::string out = Header() + Frame(x_axis, y_axis, histogram.title, histogram.x_label, "count");
  out += "<g class=\"bars\" fill=\"#1f77b4\" stroke=\"white\" stroke-width=\"0.5\">\n";
  for (int b = 0; b < bins && lo < hi; ++b) {
    const double from = lo + half_span * (2.0 * b / bins);
    const double to = b + 1 == bins ? hi : lo + half_span * (2.0 * (b + 1) / bins);
    const double x0 = x_axis.ToPx(from), x1 = x_axis.ToPx(to);
    const double y0 = y_axis.ToPx(static_cast<double>(counts[static_cast<size_t>(b)]));
    const std::string count = std::to_string(counts[static_cast<size_t>(b)]);
    out += "<rect class=\"bin\" data-count=\"" + count + "\" x=\"" + Px(x0) + "\" y=\"" + Px(y0) +
           "\" width=\"" + Px(x1 - x0) + "\" height=\"" + Px(y_axis.ToPx(0) - y0) + "\"><title>[" +
           TickText(from) + ", " + TickText(to) + (b + 1 == bins ? "]" : ")") + ": " + count +
           "</title></rect>\n";
  }
  out += "</g>\n";
  out += Text(right + 12, kTopPx + 12, "start",
              "n = " + std::to_string(histogram.values.size() - static_cast<size_t>(non_finite)),
              " class=\"legend\"");
  out += Note({{non_finite, "non-finite values"}});
  return out + "</svg>\n";
}

std::string RenderBarChart(const BarChart& chart) {
  const size_t groups = chart.categories.size();
  int64_t skipped = 0;
  double lo = 0, hi = 0;  // the value axis always holds zero, the bars' baseline
  for (const BarSeries& series : chart.series) {
    for (size_t g = 0; g < groups; ++g) {
      if (g >= series.values.size() || !std::isfinite(series.values[g]))
        ++skipped;
      else
        Extend(series.values[g], &lo, &hi);
    }
  }
  if (lo == 0 && hi == 0)
    hi = 1;
  const double left = kLeftPx, right = kWidthPx - kRightPx, bottom = kHeightPx - kBottomPx;
  const Axis y_axis(lo, hi, false, bottom, kTopPx);
  const double zero_px = y_axis.ToPx(0);
  // Groups sit side by side on a frame without x ticks: the names label them.
  const Axis no_x(0, 1, false, left, right);
  std::string out =
      Header() + Frame(no_x, y_axis, chart.title, "", chart.y_label, /*x_ticks=*/false);
  const double group_px = groups > 0 ? (right - left) / static_cast<double>(groups) : 0;
  const double bar_px =
      chart.series.empty() ? 0 : group_px * 0.8 / static_cast<double>(chart.series.size());
  out += "<g class=\"bars\" stroke=\"white\" stroke-width=\"0.5\">\n";
  for (size_t s = 0; s < chart.series.size(); ++s) {
    const BarSeries& series = chart.series[s];
    const std::string fill = kPalette[s % std::size(kPalette)];
    for (size_t g = 0; g < groups && g < series.values.size(); ++g) {
      const double v = series.values[g];
      if (!std::isfinite(v))
        continue;
      const double x0 =
          left + group_px * (static_cast<double>(g) + 0.1) + bar_px * static_cast<double>(s);
      // A positive bar grows up from the zero line, a negative one down from it.
      const double y0 = v < 0 ? zero_px : y_axis.ToPx(v);
      const double y1 = v < 0 ? y_axis.ToPx(v) : zero_px;
      out += "<rect class=\"bar\" fill=\"" + fill + "\" x=\"" + Px(x0) + "\" y=\"" + Px(y0) +
             "\" width=\"" + Px(bar_px) + "\" height=\"" + Px(y1 - y0) + "\"><title>" +
             Escape(series.label) + " " + Escape(chart.categories[g]) + ": " + TickText(v) +
             "</title></rect>\n";
    }
  }
  out += "</g>\n";
  // With negative values the baseline sits inside the plot: drawn solid, over the bars' ends.
  if (lo < 0)
    out +=
        Line(left, zero_px, right, zero_px, " class=\"zero\" stroke=\"#000\" stroke-width=\"1\"");
  out += "<g class=\"categories\" font-size=\"11\">\n";
  for (size_t g = 0; g < groups; ++g) {
    const double cx = left + group_px * (static_cast<double>(g) + 0.5);
    const std::string at = Px(cx) + " " + Px(bottom + 14);
    out += Text(cx, bottom + 14, "end", Escape(chart.categories[g], 24),
                " transform=\"rotate(-30 " + at + ")\"");
  }
  out += "</g>\n";
  for (size_t s = 0; s < chart.series.size() && s < kMaxLegendEntries; ++s) {
    const double ly = kTopPx + 8 + 18 * static_cast<double>(s);
    out += "<rect x=\"" + Px(right + 12) + "\" y=\"" + Px(ly - 8) +
           "\" width=\"12\" height=\"10\" fill=\"" + kPalette[s % std::size(kPalette)] + "\"/>\n";
    out +=
        Text(right + 30, ly + 2, "start", Escape(chart.series[s].label, 24), " class=\"legend\"");
  }
  out += Note({{skipped, "missing values"}});
  return out + "</svg>\n";
}

Status WriteSvg(const std::string& path, const std::string& svg) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    sink.Append(svg);
    return sink.status();
  });
}

}  // namespace rblnsim::report
