#include "tools/rblnsim/compare/compare_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "profiler/report/key_averages.h"

namespace rblnsim::cli {

namespace {

constexpr size_t kMaxHostRows = 15;

std::string Time(double ns) {
  return report::FormatTime(ns / 1000.0);
}
std::string Pct(double sim, double hw) {
  return fmt::format("{:+.2f}%", ErrorPct(sim, hw));
}
// A dashed rule under the columns of rows formatted as "  {col}   {col}   ...".
std::string Rule(std::initializer_list<int> widths) {
  std::string line = " ";
  for (int w : widths)
    line += (line.size() == 1 ? " " : "   ") + std::string(static_cast<size_t>(w), '-');
  return line + "\n";
}

void OpTable(const Comparison& c, std::string* out) {
  *out += "Device time per launching op (mean per matched launch)\n";
  const auto rule = Rule({32, 6, 6, 12, 12, 9});
  *out += rule +
          fmt::format("  {:<32}   {:>6}   {:>6}   {:>12}   {:>12}   {:>9}\n", "Op", "Sim #", "HW #",
                      "Simulated", "Captured", "Error") +
          rule;
  for (const OpComparison& op : c.ops) {
    *out +=
        fmt::format("  {:<32}   {:>6}   {:>6}   {:>12}   {:>12}   {:>9}\n", op.op, op.sim_launches,
                    op.hw_launches, Time(op.sim_device_ns), Time(op.hw_device_ns),
                    op.matched > 0 ? Pct(op.sim_device_ns, op.hw_device_ns) : "-");
  }
  *out += rule + "\nDevice time per command class (mean per matched command)\n";
  const auto rule2 = Rule({26, 6, 8, 12, 12, 9});
  *out += rule2 +
          fmt::format("  {:<26}   {:<6}   {:>8}   {:>12}   {:>12}   {:>9}\n", "Class", "Kind",
                      "Commands", "Simulated", "Captured", "Error") +
          rule2;
  for (const ClassComparison& cls : c.classes) {
    *out += fmt::format("  {:<26}   {:<6}   {:>8}   {:>12}   {:>12}   {:>9}\n", cls.engine_class,
                        EngineKindName(cls.kind), cls.commands, Time(cls.sim_ns), Time(cls.hw_ns),
                        Pct(cls.sim_ns, cls.hw_ns));
  }
  *out += rule2;
  // Each side's own lanes, every slice counted: a lane only one side has shows its time alone.
  *out += "\nDevice time per lane (every slice of every launch)\n";
  const auto rule3 = Rule({26, 6, 8, 12, 8, 12});
  *out += rule3 +
          fmt::format("  {:<26}   {:<6}   {:>8}   {:>12}   {:>8}   {:>12}\n", "Lane", "Kind",
                      "Sim #", "Simulated", "HW #", "Captured") +
          rule3;
  for (const LaneComparison& lane : c.lanes) {
    *out += fmt::format("  {:<26}   {:<6}   {:>8}   {:>12}   {:>8}   {:>12}\n", lane.lane,
                        EngineKindName(lane.kind), lane.sim_slices,
                        Time(static_cast<double>(lane.sim_ns)), lane.hw_slices,
                        Time(static_cast<double>(lane.hw_ns)));
  }
  *out += rule3;
}

void LatencyTable(const Comparison& c, std::string* out) {
  *out += "\nSubmission latency (first device start - rbln_run start; nearest-rank percentiles)\n";
  const auto rule = Rule({10, 6, 12, 12, 12, 12});
  *out += rule +
          fmt::format("  {:<10}   {:>6}   {:>12}   {:>12}   {:>12}   {:>12}\n", "", "Count", "p50",
                      "p90", "p99", "max") +
          rule;
  auto row = [&](const char* label, const analysis::Percentiles& p) {
    *out += fmt::format("  {:<10}   {:>6}   {:>12}   {:>12}   {:>12}   {:>12}\n", label, p.count,
                        Time(p.p50_ns), Time(p.p90_ns), Time(p.p99_ns), Time(p.max_ns));
  };
  row("simulated", c.sim_latency);
  row("captured", c.hw_latency);
  const analysis::Percentiles& s = c.sim_latency;
  const analysis::Percentiles& h = c.hw_latency;
  *out += fmt::format("  {:<10}   {:>6}   {:>12}   {:>12}   {:>12}   {:>12}\n", "error", "",
                      Pct(s.p50_ns, h.p50_ns), Pct(s.p90_ns, h.p90_ns), Pct(s.p99_ns, h.p99_ns),
                      Pct(s.max_ns, h.max_ns)) +
          rule;
}

void HostTable(const Comparison& c, std::string* out) {
  std::vector<HostComparison> rows = c.host_ops;
  std::stable_sort(rows.begin(), rows.end(), [](const HostComparison& a, const HostComparison& b) {
    return a.hw_self_ns * static_cast<double>(a.hw_count) >
           b.hw_self_ns * static_cast<double>(b.hw_count);
  });
  *out += fmt::format("\nHost self time per op (mean per call; top {} by captured total)\n",
                      kMaxHostRows);
  const auto rule = Rule({32, 6, 6, 12, 12, 9});
  *out += rule +
          fmt::format("  {:<32}   {:>6}   {:>6}   {:>12}   {:>12}   {:>9}\n", "Op", "Sim #", "HW #",
                      "Simulated", "Captured", "Error") +
          rule;
  for (size_t i = 0; i < rows.size() && i < kMaxHostRows; ++i) {
    const HostComparison& r = rows[i];
    *out += fmt::format("  {:<32}   {:>6}   {:>6}   {:>12}   {:>12}   {:>9}\n", r.name, r.sim_count,
                        r.hw_count, Time(r.sim_self_ns), Time(r.hw_self_ns),
                        r.sim_count > 0 && r.hw_count > 0 ? Pct(r.sim_self_ns, r.hw_self_ns) : "-");
  }
  *out += rule;
}

std::string Counts(const std::vector<CountDiff>& diffs) {
  if (diffs.empty())
    return "same in both\n";
  std::string text;
  for (const CountDiff& d : diffs)
    text += fmt::format("{}{} (sim {}, hw {})", text.empty() ? "" : "; ", d.name, d.sim, d.hw);
  return text + "\n";
}

}  // namespace

std::string FormatComparison(const CompareHeader& header, const Comparison& c) {
  std::string out =
      fmt::format("rblnsim compare: scenario {} (hash {}) vs {}\n{}\n", header.scenario,
                  header.scenario_hash, header.trace_path, header.capture_line);
  out += fmt::format(
      "Launches: {} matched ({} only simulated, {} only captured); device commands: {} matched ({} "
      "only simulated, {} only captured)\n",
      c.launch_pairs.size(), c.unmatched_sim_launches, c.unmatched_hw_launches, c.commands.size(),
      c.unmatched_sim_slices, c.unmatched_hw_slices);
  // Every unmatched launch and every launch without device slices by its launching op, so a
  // dropped, an extra or an empty launch has a name.
  std::string no_device, only_sim, only_hw;
  const auto list = [](std::string* to, std::string_view side, const std::string& op,
                       int64_t count) {
    if (count > 0)
      *to += fmt::format("{}{}{} x{}", to->empty() ? "" : ", ", side, op, count);
  };
  for (const OpComparison& op : c.ops) {
    list(&no_device, "simulated ", op.op, op.sim_without_device);
    list(&no_device, "captured ", op.op, op.hw_without_device);
    list(&only_sim, "", op.op, op.sim_launches - op.matched);
    list(&only_hw, "", op.op, op.hw_launches - op.matched);
  }
  if (!no_device.empty())
    out += "Launches without device slices (left out of device time): " + no_device + "\n";
  if (!only_sim.empty())
    out += "Launches only simulated: " + only_sim + "\n";
  if (!only_hw.empty())
    out += "Launches only captured: " + only_hw + "\n";
  out += "\n";
  OpTable(c, &out);
  LatencyTable(c, &out);
  HostTable(c, &out);
  out += fmt::format("\nDevice events: {} simulated, {} captured; command names: {}",
                     c.sim_device_events, c.hw_device_events, Counts(c.event_names));
  out += "Fallbacks: " + Counts(c.fallbacks) + "Recompiles: " + Counts(c.recompiles);
  const FitError e = ComputeFitError(c);
  out += fmt::format(
      "\nError: device time per op {:.2f}% mean, {:.2f}% worst; per command class {:.2f}%; "
      "submission latency p50 {:.2f}%; host self time {:.2f}%\n",
      e.op_device_mean_pct, e.op_device_max_pct, e.class_device_mean_pct, e.latency_p50_pct,
      e.host_self_pct);
  out += fmt::format("Differences (beyond {}% and {}ns): {}\n", header.tolerance.relative_pct,
                     header.tolerance.absolute_ns,
                     c.differences.empty() ? "none" : std::to_string(c.differences.size()));
  for (const Difference& d : c.differences) {
    out += fmt::format("  {:<18} {:<32} sim {:>12}  hw {:>12}  {}\n", d.kind, d.what,
                       fmt::format("{:g}", d.sim), fmt::format("{:g}", d.hw), Pct(d.sim, d.hw));
  }
  return out;
}

}  // namespace rblnsim::cli
