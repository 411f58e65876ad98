// `compare --plots DIR`: simulated next to captured, per launching op and per launch, and the
// submission latency CDFs, through the project's SVG plot API.
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "profiler/plot/svg_plot.h"
#include "tools/rblnsim/compare/compare_report.h"

namespace rblnsim::cli {

namespace {

report::Series Cdf(const char* label, const std::vector<int64_t>& sorted) {
  report::Series s{label, {}, {}, true, false};
  for (size_t i = 0; i < sorted.size(); ++i) {
    s.x.push_back(static_cast<double>(sorted[i]) / 1000.0);
    s.y.push_back(static_cast<double>(i + 1) / static_cast<double>(sorted.size()));
  }
  return s;
}

}  // namespace

Status WriteComparisonPlots(const std::string& dir, const Comparison& c) {
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    return Status::Error(fmt::format("{}: cannot create directory: {}", dir, std::strerror(errno)));
  }
  // Ops are unrelated categories: bars per op, both runs side by side, from zero.
  report::BarChart per_op{"Device time per launching op (mean per matched launch)",
                          "device time (us)",
                          {},
                          {{"simulated", {}}, {"captured", {}}}};
  for (const OpComparison& op : c.ops) {
    per_op.categories.push_back(op.op);
    per_op.series[0].values.push_back(op.sim_device_ns / 1000.0);
    per_op.series[1].values.push_back(op.hw_device_ns / 1000.0);
  }
  RBLNSIM_RETURN_IF_ERROR(
      report::WriteSvg(dir + "/device_time_per_op.svg", report::RenderBarChart(per_op)));

  // One series per launching op and side, so every point says which op it is.
  report::LinePlot per_launch{"Device time per matched launch",
                              "launch (simulated order)",
                              "device time (us)",
                              false,
                              false,
                              {},
                              false,
                              0.0,
                              ""};
  std::map<std::string, std::pair<report::Series, report::Series>> by_op;
  for (size_t i = 0; i < c.launch_pairs.size(); ++i) {
    const LaunchPair& pair = c.launch_pairs[i];
    auto [it, inserted] = by_op.try_emplace(pair.op);
    if (inserted) {
      it->second.first = {"simulated " + pair.op, {}, {}, false, true};
      it->second.second = {"captured " + pair.op, {}, {}, false, true};
    }
    it->second.first.x.push_back(static_cast<double>(i + 1));
    it->second.first.y.push_back(static_cast<double>(pair.sim_device_ns) / 1000.0);
    it->second.second.x.push_back(static_cast<double>(i + 1));
    it->second.second.y.push_back(static_cast<double>(pair.hw_device_ns) / 1000.0);
  }
  for (auto& [op, series] : by_op) {
    per_launch.series.push_back(std::move(series.first));
    per_launch.series.push_back(std::move(series.second));
  }
  RBLNSIM_RETURN_IF_ERROR(
      report::WriteSvg(dir + "/device_time_per_launch.svg", report::RenderLinePlot(per_launch)));

  report::LinePlot cdf{"Submission latency CDF (rbln_run start -> first device start)",
                       "latency (us)",
                       "fraction of launches",
                       false,
                       false,
                       {},
                       false,
                       0.0,
                       ""};
  cdf.series = {Cdf("simulated", c.sim_latencies_ns), Cdf("captured", c.hw_latencies_ns)};
  return report::WriteSvg(dir + "/latency_cdf.svg", report::RenderLinePlot(cdf));
}

}  // namespace rblnsim::cli
