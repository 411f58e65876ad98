#include "profiler/analysis/roofline_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace rblnsim::analysis {

namespace {

std::string Rate(double value, const char* unit) {
  if (value >= 1e15)
    return fmt::format("{:.2f} P{}", value / 1e15, unit);
  if (value >= 1e12)
    return fmt::format("{:.2f} T{}", value / 1e12, unit);
  if (value >= 1e9)
    return fmt::format("{:.2f} G{}", value / 1e9, unit);
  return fmt::format("{:.2f} M{}", value / 1e6, unit);
}

const char* BoundText(const RooflineRow& row) {
  return row.HostBound() ? "host" : platform::BoundName(row.bound);
}

double Roof(double intensity, const RooflinePeaks& peaks) {
  return std::min(peaks.flops_per_s, intensity * peaks.hbm_bytes_per_s);
}

}  // namespace

std::vector<RooflineRow> SummarizeRoofline(const std::vector<RooflineLaunch>& launches) {
  std::vector<RooflineRow> rows;
  std::map<std::string, size_t> by_program;
  for (const RooflineLaunch& l : launches) {
    auto [it, added] = by_program.try_emplace(l.op + "\n" + l.program, rows.size());
    if (added) {
      rows.emplace_back();
      rows.back().op = l.op;
      rows.back().program = l.program;
    }
    RooflineRow& row = rows[it->second];
    ++row.launches;
    row.flops += l.flops;
    row.hbm_bytes += l.hbm_bytes;
    row.device_ns += l.device_ns;
    row.host_ns += l.host_ns;
    for (int b = 0; b < platform::kBoundCount; ++b)
      row.bound_ns[b] += l.bound_ns[b];
  }
  for (RooflineRow& row : rows) {
    row.bound = static_cast<platform::Bound>(
        std::max_element(row.bound_ns.begin(), row.bound_ns.end()) - row.bound_ns.begin());
  }
  return rows;
}

std::string FormatRooflineText(const std::vector<RooflineRow>& rows, const RooflinePeaks& peaks) {
  std::string out =
      fmt::format("RBLN roofline (simulated): peak {} fp16, HBM {}, ridge {:.0f} FLOP/byte\n",
                  Rate(peaks.flops_per_s, "FLOP/s"), Rate(peaks.hbm_bytes_per_s, "B/s"),
                  peaks.RidgeFlopsPerByte());
  if (rows.empty())
    return out + "  no launch ran on the device\n";
  size_t width = 2;
  for (const RooflineRow& row : rows)
    width = std::max(width, row.program.size());
  out += fmt::format("  {:<{}}  {:>8}  {:>10}  {:>12}  {:>12}  {:>10}  {:>8}  {}\n", "Op", width,
                     "Launches", "Device", "FLOP/s", "HBM B/s", "FLOP/byte", "of roof",
                     "Bound (share of engine time; for host, of the launch)");
  for (const RooflineRow& row : rows) {
    double engine_ns = 0;
    for (double ns : row.bound_ns)
      engine_ns += ns;
    double share =
        engine_ns > 0 ? 100.0 * row.bound_ns[static_cast<size_t>(row.bound)] / engine_ns : 0;
    if (row.HostBound())
      share = 100.0 * row.host_ns / (row.host_ns + row.device_ns);
    const bool has_flops = row.flops > 0 && row.hbm_bytes > 0;
    out += fmt::format(
        "  {:<{}}  {:>8}  {:>8.3f}us  {:>12}  {:>12}  {:>10}  {:>8}  {} ({:.0f}%)\n", row.program,
        width, row.launches, row.device_ns / 1e3,
        row.flops > 0 ? Rate(row.FlopsPerS(), "FLOP/s") : std::string("-"),
        Rate(row.BytesPerS(), "B/s"),
        has_flops ? fmt::format("{:.1f}", row.Intensity()) : std::string("-"),
        has_flops ? fmt::format("{:.0f}%", 100.0 * row.FlopsPerS() / Roof(row.Intensity(), peaks))
                  : std::string("-"),
        BoundText(row), share);
  }
  return out;
}

report::LinePlot RooflinePlot(const std::vector<RooflineRow>& rows, const RooflinePeaks& peaks) {
  report::LinePlot plot;
  plot.title = "Roofline: achieved FLOP/s of each device op";
  plot.x_label = "arithmetic intensity (FLOP per HBM byte)";
  plot.y_label = "FLOP/s";
  plot.log_x = true;
  plot.log_y = true;
  double lo = peaks.RidgeFlopsPerByte() / 100;
  double hi = peaks.RidgeFlopsPerByte() * 100;
  for (const RooflineRow& row : rows) {
    if (row.flops > 0 && row.hbm_bytes > 0) {
      lo = std::min(lo, row.Intensity() / 2);
      hi = std::max(hi, row.Intensity() * 2);
    }
  }
  report::Series roof;
  roof.label = "roof: min(peak, intensity x HBM)";
  roof.markers = false;
  for (double x : {lo, peaks.RidgeFlopsPerByte(), hi}) {
    roof.x.push_back(x);
    roof.y.push_back(Roof(x, peaks));
  }
  plot.series.push_back(std::move(roof));
  for (const RooflineRow& row : rows) {
    if (row.flops <= 0 || row.hbm_bytes <= 0)
      continue;
    report::Series point;
    point.label = fmt::format("{} ({})", row.program, BoundText(row));
    point.x = {row.Intensity()};
    point.y = {row.FlopsPerS()};
    plot.series.push_back(std::move(point));
  }
  return plot;
}

}  // namespace rblnsim::analysis
