// `compare --plots DIR`: simulated next to captured, per launching op and per launch, and the
// submission latency CDFs, through the project's SVG plot API.
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

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
  report::LinePlot per_op{"Device time per launching op (mean per launch)",
                          "op (rank in the compare table)",
                          "device time (us)",
                          false,
                          false,
                          {},
                          false,
                          0.0,
                          ""};
  report::Series sim_op{"simulated", {}, {}, false, true};
  report::Series hw_op{"captured", {}, {}, false, true};
  std::string legend;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    sim_op.x.push_back(static_cast<double>(i + 1));
    sim_op.y.push_back(c.ops[i].sim_device_ns / 1000.0);
    hw_op.x.push_back(static_cast<double>(i + 1));
    hw_op.y.push_back(c.ops[i].hw_device_ns / 1000.0);
    if (i < 4)
      legend += fmt::format("{}{}={}", i == 0 ? ": " : ", ", i + 1, c.ops[i].op);
  }
  per_op.title += legend;
  per_op.series = {sim_op, hw_op};
  RBLNSIM_RETURN_IF_ERROR(
      report::WriteSvg(dir + "/device_time_per_op.svg", report::RenderLinePlot(per_op)));

  report::LinePlot per_launch{"Device time per matched launch",
                              "launch (simulated order)",
                              "device time (us)",
                              false,
                              false,
                              {},
                              false,
                              0.0,
                              ""};
  report::Series sim_launch{"simulated", {}, {}, false, true};
  report::Series hw_launch{"captured", {}, {}, false, true};
  for (size_t i = 0; i < c.launch_pairs.size(); ++i) {
    sim_launch.x.push_back(static_cast<double>(i + 1));
    sim_launch.y.push_back(static_cast<double>(c.launch_pairs[i].sim_device_ns) / 1000.0);
    hw_launch.x.push_back(static_cast<double>(i + 1));
    hw_launch.y.push_back(static_cast<double>(c.launch_pairs[i].hw_device_ns) / 1000.0);
  }
  per_launch.series = {sim_launch, hw_launch};
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
