#include "profiler/plot/svg_plot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "tests/unit/svg/xml_check.h"

namespace rblnsim::report {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Checks well-formedness and returns the elements in document order.
std::vector<test::XmlElement> Parse(const std::string& svg) {
  test::XmlChecker checker;
  const std::string error = checker.Check(svg);
  EXPECT_EQ(error, "") << svg;
  return checker.elements();
}

std::string Attribute(const test::XmlElement& element, const std::string& name) {
  for (const auto& [key, value] : element.attributes) {
    if (key == name)
      return value;
  }
  return "";
}

int CountElements(const std::vector<test::XmlElement>& elements, const std::string& name) {
  int count = 0;
  for (const test::XmlElement& e : elements)
    count += e.name == name;
  return count;
}

LinePlot TwoSeries() {
  LinePlot plot;
  plot.title = "latency vs depth";
  plot.x_label = "device.queue.depth";
  plot.y_label = "latency_p50_ns";
  plot.series.push_back({"ON", {1, 2, 4, 8}, {900, 700, 500, 450}});
  plot.series.push_back({"OFF", {1, 2, 4, 8}, {1900, 1700, 1500, 1450}});
  return plot;
}

TEST(SvgPlot, LinePlotIsWellFormedSvg) {
  LinePlot plot = TwoSeries();
  plot.has_reference = true;
  plot.reference_y = 2000;
  plot.reference_label = "peak";
  const std::string svg = RenderLinePlot(plot);
  const auto elements = Parse(svg);
  ASSERT_FALSE(elements.empty());
  EXPECT_EQ(elements.front().name, "svg");
  EXPECT_EQ(Attribute(elements.front(), "xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(CountElements(elements, "circle"), 8);
  EXPECT_NE(svg.find("data-label=\"ON\""), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_EQ(svg.find("skipped"), std::string::npos);  // nothing was left out
}

TEST(SvgPlot, EscapesEveryText) {
  LinePlot plot = TwoSeries();
  plot.title = "<b>&\"'</b>";
  plot.x_label = "a\x01z";  // XML 1.0 forbids the control character
  plot.y_label = "bad \xff utf-8";
  plot.series[0].label = "</g><script>";
  plot.has_reference = true;
  plot.reference_y = 1000;
  plot.reference_label = "&amp;";
  const std::string svg = RenderLinePlot(plot);
  Parse(svg);
  EXPECT_NE(svg.find("&lt;b&gt;&amp;&quot;&apos;&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("a\xEF\xBF\xBDz"), std::string::npos);
  EXPECT_NE(svg.find("bad \xEF\xBF\xBD utf-8"), std::string::npos);
  EXPECT_NE(svg.find("&amp;amp;"), std::string::npos);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);

  Histogram histogram;
  histogram.title = "<&>";
  histogram.x_label = "\"ns\"";
  histogram.values = {1, 2, 3};
  const std::string hist_svg = RenderHistogram(histogram);
  Parse(hist_svg);
  EXPECT_NE(hist_svg.find("&lt;&amp;&gt;"), std::string::npos);
}

TEST(SvgPlot, LongLabelsAreShortenedOnCodePoints) {
  LinePlot plot = TwoSeries();
  plot.series[0].label = std::string(40, 'x') + "\xC3\xA9";
  plot.series[1].label = std::string(25, 'y') + "\xC3\xA9\xC3\xA9";  // cut inside the é's
  const std::string svg = RenderLinePlot(plot);
  Parse(svg);
  EXPECT_NE(svg.find(std::string(26, 'x') + "\xE2\x80\xA6<"), std::string::npos);
  EXPECT_NE(svg.find(std::string(25, 'y') + "\xC3\xA9\xE2\x80\xA6<"), std::string::npos);
}

TEST(SvgPlot, LogAxesTickEachDecadeAndSkipNonPositive) {
  LinePlot plot;
  plot.log_x = true;
  plot.log_y = true;
  plot.series.push_back({"s", {1, 10, 100, 1000, 0, -5}, {0.01, 0.1, 1, 10, 3, 4}});
  const std::string svg = RenderLinePlot(plot);
  const auto elements = Parse(svg);
  for (const char* label : {">1<", ">10<", ">100<", ">1000<", ">0.01<", ">0.1<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(CountElements(elements, "circle"), 4);
  EXPECT_NE(svg.find("skipped: 2 non-positive points on a log axis"), std::string::npos);
}

TEST(SvgPlot, LinearTicksAreRound) {
  LinePlot plot;
  plot.series.push_back({"s", {0.1, 0.2, 0.3}, {3, 7, 11}});
  const std::string svg = RenderLinePlot(plot);
  Parse(svg);
  EXPECT_NE(svg.find(">0.3<"), std::string::npos);
  EXPECT_EQ(svg.find("0.30000"), std::string::npos);
  EXPECT_NE(svg.find(">12<"), std::string::npos);  // 3..11 rounded out to 2..12
}

TEST(SvgPlot, IntegerDataGetsIntegerTicks) {
  LinePlot plot;
  plot.series.push_back({"s", {0, 1}, {100, 300}});  // two categories at x = 0 and 1
  const std::string svg = RenderLinePlot(plot);
  Parse(svg);
  EXPECT_NE(svg.find(">1<"), std::string::npos);
  for (const char* between : {">0.2<", ">0.5<", ">0.8<"})  // no x tick between the categories
    EXPECT_EQ(svg.find(between), std::string::npos) << between;

  Histogram histogram;
  histogram.values = {1, 2, 3};  // each bin holds one value: a count axis of 0..1
  const std::string hist = RenderHistogram(histogram);
  EXPECT_EQ(hist.find(">0.2<"), std::string::npos) << hist;
}

TEST(SvgPlot, StepSeriesHoldsEachValueUntilTheNextX) {
  LinePlot plot;
  plot.series.push_back({"queue", {0, 10, 20}, {1, 3, 2}, /*step=*/true, /*markers=*/false});
  const std::string svg = RenderLinePlot(plot);
  const auto elements = Parse(svg);
  std::string d;
  for (const test::XmlElement& e : elements) {
    if (e.name == "path")
      d = Attribute(e, "d");
  }
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0], 'M');
  EXPECT_EQ(d.find('L'), std::string::npos) << d;
  // Move, then (H, V) for each of the two later points.
  EXPECT_EQ(std::count(d.begin(), d.end(), 'H'), 2) << d;
  EXPECT_EQ(std::count(d.begin(), d.end(), 'V'), 2) << d;
  EXPECT_EQ(CountElements(elements, "circle"), 0);

  plot.series[0].step = false;
  const std::string line = RenderLinePlot(plot);
  EXPECT_NE(line.find(" L"), std::string::npos);
}

TEST(SvgPlot, NonFiniteValuesAreSkippedAndCounted) {
  LinePlot plot;
  plot.series.push_back({"s", {1, 2, 3, 4, 5}, {1, kNan, 3, kInf, -kInf}});
  plot.series.push_back({"short", {1, 2, 3}, {1, 2}});  // the unpaired x counts too
  plot.series.push_back({"empty", {}, {}});
  plot.has_reference = true;
  plot.reference_y = kNan;  // not drawn
  const std::string svg = RenderLinePlot(plot);
  const auto elements = Parse(svg);
  EXPECT_EQ(CountElements(elements, "circle"), 4);
  EXPECT_NE(svg.find("skipped: 4 points with non-finite values, 1 empty series"), std::string::npos)
      << svg;
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_EQ(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_EQ(svg.find("data-label=\"empty\""), std::string::npos);
}

TEST(SvgPlot, DegenerateAndExtremeRangesStayFinite) {
  for (const std::vector<double>& ys : std::vector<std::vector<double>>{
           {5, 5, 5}, {0, 0, 0}, {-1e308, 0, 1e308}, {1e-300, 2e-300, 3e-300}, {}}) {
    LinePlot plot;
    plot.series.push_back({"s", {1, 2, 3}, ys});
    const std::string svg = RenderLinePlot(plot);
    Parse(svg);
    EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
  }
}

TEST(SvgPlot, HistogramBinCounts) {
  Histogram histogram;
  histogram.bins = 5;
  for (int i = 0; i < 10; ++i)
    histogram.values.push_back(i);  // 0..9: two per bin, the maximum in the last bin
  histogram.values.push_back(kNan);
  histogram.values.push_back(kInf);
  const std::string svg = RenderHistogram(histogram);
  const auto elements = Parse(svg);
  std::vector<std::string> counts;
  for (const test::XmlElement& e : elements) {
    if (e.name == "rect" && Attribute(e, "class") == "bin")
      counts.push_back(Attribute(e, "data-count"));
  }
  EXPECT_EQ(counts, std::vector<std::string>({"2", "2", "2", "2", "2"}));
  EXPECT_NE(svg.find("n = 10"), std::string::npos);
  EXPECT_NE(svg.find("skipped: 2 non-finite values"), std::string::npos);
}

TEST(SvgPlot, HistogramOfOneValueAndOfNothing) {
  Histogram one;
  one.bins = 4;
  one.values = {7, 7, 7};
  const auto elements = Parse(RenderHistogram(one));
  int total = 0;
  for (const test::XmlElement& e : elements) {
    if (e.name == "rect" && Attribute(e, "class") == "bin")
      total += std::stoi(Attribute(e, "data-count"));
  }
  EXPECT_EQ(total, 3);

  Histogram none;
  none.bins = 0;  // clamped to one bin
  none.values = {kNan};
  const std::string svg = RenderHistogram(none);
  Parse(svg);
  EXPECT_NE(svg.find("n = 0"), std::string::npos);
}

// Bars for unrelated categories: one per series and category, lengths from a zero baseline, each
// category named, a missing value noted rather than drawn.
TEST(SvgPlot, BarChartGroupsSeriesPerCategoryFromZero) {
  BarChart chart{"device time per op", "us", {"aten::mm", "aten::_softmax <x>"}, {}};
  chart.series.push_back({"simulated", {12.0, 4.8}});
  chart.series.push_back({"captured", {13.2, kNan}});
  const std::string svg = RenderBarChart(chart);
  const auto elements = Parse(svg);
  std::vector<const test::XmlElement*> bars;
  for (const test::XmlElement& e : elements) {
    if (e.name == "rect" && Attribute(e, "class") == "bar")
      bars.push_back(&e);
  }
  ASSERT_EQ(bars.size(), 3u);
  // Every bar ends on the same baseline (the zero of the axis): y + height is equal.
  const auto base = [](const test::XmlElement* bar) {
    return std::stod(Attribute(*bar, "y")) + std::stod(Attribute(*bar, "height"));
  };
  EXPECT_DOUBLE_EQ(base(bars[0]), base(bars[1]));
  EXPECT_DOUBLE_EQ(base(bars[0]), base(bars[2]));
  // Heights are proportional to the values from zero: 12 vs 13.2.
  EXPECT_NEAR(std::stod(Attribute(*bars[0], "height")) / std::stod(Attribute(*bars[2], "height")),
              12.0 / 13.2, 0.01);
  EXPECT_NE(svg.find(">aten::mm</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("aten::_softmax &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg.find("skipped: 1 missing values"), std::string::npos);
  EXPECT_NE(svg.find(">0</text>"), std::string::npos);  // the value axis starts at zero
}

std::vector<const test::XmlElement*> Bars(const std::vector<test::XmlElement>& elements) {
  std::vector<const test::XmlElement*> bars;
  for (const test::XmlElement& e : elements) {
    if (e.name == "rect" && Attribute(e, "class") == "bar")
      bars.push_back(&e);
  }
  return bars;
}

std::vector<const test::XmlElement*> ZeroLines(const std::vector<test::XmlElement>& elements) {
  std::vector<const test::XmlElement*> lines;
  for (const test::XmlElement& e : elements) {
    if (e.name == "line" && Attribute(e, "class") == "zero")
      lines.push_back(&e);
  }
  return lines;
}

// Signed values (per-op deltas, new minus base): the axis holds both signs and zero, a solid zero
// line crosses the plot, a positive bar ends on it from above, a negative one hangs from it.
TEST(SvgPlot, BarChartDrawsNegativeValuesDownFromTheZeroLine) {
  BarChart chart{"device time delta per op", "us", {"aten::mm", "aten::add"}, {}};
  chart.series.push_back({"new - base", {3.0, -2.0}});
  const std::string svg = RenderBarChart(chart);
  const auto elements = Parse(svg);
  const auto bars = Bars(elements);
  ASSERT_EQ(bars.size(), 2u) << svg;
  const auto zero = ZeroLines(elements);
  ASSERT_EQ(zero.size(), 1u) << svg;
  const std::string zero_y = Attribute(*zero[0], "y1");
  EXPECT_EQ(Attribute(*zero[0], "y2"), zero_y);            // horizontal
  EXPECT_EQ(Attribute(*zero[0], "stroke-dasharray"), "");  // solid
  const double zy = std::stod(zero_y);
  // Across the plot: from the left edge of the frame past both bars.
  EXPECT_LE(std::stod(Attribute(*zero[0], "x1")), std::stod(Attribute(*bars[0], "x")));
  EXPECT_GE(std::stod(Attribute(*zero[0], "x2")),
            std::stod(Attribute(*bars[1], "x")) + std::stod(Attribute(*bars[1], "width")));

  // The positive bar grows up and ends on the zero line.
  const double pos_y = std::stod(Attribute(*bars[0], "y"));
  const double pos_h = std::stod(Attribute(*bars[0], "height"));
  EXPECT_GT(pos_h, 0);
  EXPECT_LT(pos_y, zy);
  EXPECT_NEAR(pos_y + pos_h, zy, 0.011);
  // The negative bar starts on the zero line and extends downward (larger y).
  EXPECT_EQ(Attribute(*bars[1], "y"), zero_y);
  const double neg_h = std::stod(Attribute(*bars[1], "height"));
  EXPECT_GT(neg_h, 0);
  EXPECT_NEAR(pos_h / neg_h, 3.0 / 2.0, 0.01);  // lengths compare from zero
  EXPECT_NE(svg.find("aten::add: -2</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">-2</text>"), std::string::npos) << svg;  // the axis reaches the low value
  EXPECT_NE(svg.find(">0</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("skipped"), std::string::npos) << svg;  // a negative value is not missing
}

TEST(SvgPlot, BarChartOfOnlyNegativeValuesHangsFromTheZeroLine) {
  BarChart chart{"delta", "us", {"a", "b"}, {}};
  chart.series.push_back({"new - base", {-1.0, -4.0}});
  const std::string svg = RenderBarChart(chart);
  const auto elements = Parse(svg);
  const auto bars = Bars(elements);
  ASSERT_EQ(bars.size(), 2u) << svg;
  const auto zero = ZeroLines(elements);
  ASSERT_EQ(zero.size(), 1u) << svg;
  for (const test::XmlElement* bar : bars) {
    EXPECT_EQ(Attribute(*bar, "y"), Attribute(*zero[0], "y1"));
    EXPECT_GT(std::stod(Attribute(*bar, "height")), 0);
  }
  EXPECT_NEAR(std::stod(Attribute(*bars[1], "height")) / std::stod(Attribute(*bars[0], "height")),
              4.0, 0.01);
}

TEST(SvgPlot, BarChartSkipsNonFiniteSignedValuesAndCountsThem) {
  BarChart chart{"delta", "us", {"a", "b", "c"}, {}};
  chart.series.push_back({"new - base", {-1.0, kNan, 2.0}});
  chart.series.push_back({"short", {-kInf}});  // one non-finite, two missing
  const std::string svg = RenderBarChart(chart);
  const auto elements = Parse(svg);
  EXPECT_EQ(Bars(elements).size(), 2u) << svg;
  EXPECT_EQ(ZeroLines(elements).size(), 1u);
  EXPECT_NE(svg.find("skipped: 4 missing values"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(SvgPlot, BarChartOfNonNegativeValuesHasNoZeroLine) {
  BarChart positive{"device time per op", "us", {"a", "b"}, {}};
  positive.series.push_back({"simulated", {12.0, 0.0}});
  positive.series.push_back({"captured", {13.2, kNan}});
  const std::string svg = RenderBarChart(positive);
  const auto elements = Parse(svg);
  EXPECT_EQ(Bars(elements).size(), 3u);
  EXPECT_TRUE(ZeroLines(elements).empty()) << svg;
  EXPECT_EQ(svg.find("class=\"zero\""), std::string::npos);

  BarChart zeros{"nothing changed", "us", {"a"}, {{"delta", {0.0}}}};  // a 0..1 axis
  const std::string zero_svg = RenderBarChart(zeros);
  EXPECT_TRUE(ZeroLines(Parse(zero_svg)).empty()) << zero_svg;
  EXPECT_NE(zero_svg.find(">1</text>"), std::string::npos) << zero_svg;
}

TEST(SvgPlot, OutputIsDeterministic) {
  LinePlot plot = TwoSeries();
  plot.log_y = true;
  EXPECT_EQ(RenderLinePlot(plot), RenderLinePlot(plot));
  Histogram histogram;
  for (int i = 0; i < 1000; ++i)
    histogram.values.push_back(std::sin(i) * 100);
  EXPECT_EQ(RenderHistogram(histogram), RenderHistogram(histogram));
  BarChart bars{"delta", "us", {"a", "b", "c"}, {{"new - base", {0.3, -0.7, kNan}}}};
  EXPECT_EQ(RenderBarChart(bars), RenderBarChart(bars));
}

TEST(SvgPlot, WriteSvgReplacesTheFileAtomically) {
  char dir_template[] = "/tmp/rblnsim-svg-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string path = std::string(dir_template) + "/plot.svg";
  const std::string svg = RenderLinePlot(TwoSeries());
  ASSERT_TRUE(WriteSvg(path, svg).ok());
  std::ifstream in(path, std::ios::binary);
  std::stringstream read;
  read << in.rdbuf();
  EXPECT_EQ(read.str(), svg);
  const Status missing = WriteSvg(std::string(dir_template) + "/no/such/dir/plot.svg", svg);
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("no/such/dir"), std::string::npos) << missing.message();
  std::remove(path.c_str());
  rmdir(dir_template);
}

}  // namespace
}  // namespace rblnsim::report
