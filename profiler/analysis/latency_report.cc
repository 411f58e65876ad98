#include "profiler/analysis/latency_report.h"

#include <fmt/format.h>

#include <algorithm>

namespace rblnsim::analysis {

namespace {

constexpr size_t kMaxNameWidth = 40;
constexpr size_t kTextOutliers = 5;

std::string Clip(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      c = '?';
  }
  if (out.size() > kMaxNameWidth)
    out = out.substr(0, kMaxNameWidth - 3) + "...";
  return out;
}

std::string Row(const std::string& label, size_t width, const Percentiles& p) {
  return fmt::format("  {:<{}}  {:>7}  {:>12}  {:>12}  {:>12}  {:>12}\n", Clip(label), width,
                     p.count, UsText(p.p50_ns), UsText(p.p90_ns), UsText(p.p99_ns),
                     UsText(p.max_ns));
}

std::string Percent(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / whole) : "0.0%";
}

void WritePercentiles(const Percentiles& p, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("count").Int(p.count);
  json->Key("p50").Int(p.p50_ns);
  json->Key("p90").Int(p.p90_ns);
  json->Key("p99").Int(p.p99_ns);
  json->Key("max").Int(p.max_ns);
  json->EndObject();
}

}  // namespace

std::string UsText(int64_t ns) {
  return trace::FormatNsAsUs(ns) + "us";
}

std::string FormatLatencyReportText(const LatencyReport& r) {
  const int64_t with_device = r.submission.count;
  std::string out = fmt::format(
      "RBLN launch latency (trace only): {} launch{}, {} with device work, {} launching op{}\n",
      r.launches.size(), r.launches.size() == 1 ? "" : "es", with_device, r.per_op.size(),
      r.per_op.size() == 1 ? "" : "s");
  out += fmt::format(
      "  submission = first device slice - {0} start; delay = first device slice - {0} "
      "end\n  (HTA's launch_delay, clipped at 0); percentiles are nearest-rank\n",
      r.marker_name);
  size_t width = std::string("launch delay (all)").size();
  for (const OpLatency& op : r.per_op)
    width = std::max(width, Clip(op.op).size());
  const std::string rule = fmt::format("  {:-<{}}  {:-<7}  {:-<12}  {:-<12}  {:-<12}  {:-<12}\n",
                                       "", width, "", "", "", "", "");
  out += rule;
  out += fmt::format("  {:<{}}  {:>7}  {:>12}  {:>12}  {:>12}  {:>12}\n", "Latency", width, "Count",
                     "p50", "p90", "p99", "max");
  out += rule;
  out += Row("submission (all)", width, r.submission);
  out += Row("launch delay (all)", width, r.launch_delay);
  for (const OpLatency& op : r.per_op)
    out += Row(op.op, width, op.submission);
  out += rule;

  const std::string threshold =
      UsText(r.outlier_threshold_ns) + (r.outlier_threshold_is_p99 ? " = p99" : "");
  if (r.outlier_count == 0) {
    out += "  slow launches (> " + threshold + "): none\n";
  } else {
    out += fmt::format("  slow launches (> {}): {}\n", threshold, r.outlier_count);
    for (size_t i = 0; i < r.outliers.size() && i < kTextOutliers; ++i) {
      const LaunchLatency& l = r.launches[r.outliers[i]];
      out +=
          fmt::format("    launch_id {} {} submission {} delay {} at +{}\n", l.launch_id,
                      Clip(r.op_names[l.op]), UsText(l.submission_latency_ns()),
                      UsText(l.launch_delay_ns()), UsText(l.marker_start_ns - r.window_start_ns));
    }
  }
  out += fmt::format(
      "  queue length (+1 at {} start, -1 at first device slice): max {} at +{}, mean "
      "{:.2f}\n",
      r.marker_name, r.queue_max, UsText(r.queue_max_at_ns - r.window_start_ns), r.queue_mean);
  const IdleBreakdown& idle = r.idle;
  out += fmt::format("  device idle between device work: {} of {} span, {} gaps; busy {}\n",
                     UsText(idle.idle_ns()), UsText(idle.span_ns), idle.gaps, UsText(idle.busy_ns));
  out += fmt::format("    host wait {} ({}), device wait {} ({}), other {} ({})\n",
                     UsText(idle.host_wait_ns), Percent(idle.host_wait_ns, idle.idle_ns()),
                     UsText(idle.device_wait_ns), Percent(idle.device_wait_ns, idle.idle_ns()),
                     UsText(idle.other_ns), Percent(idle.other_ns, idle.idle_ns()));
  if (r.launches_without_device + r.markers_without_launch_id + r.duplicate_markers +
          r.slices_without_marker >
      0) {
    out += fmt::format(
        "  not measured: {} launches without device slices, {} markers without launch_id, {} "
        "duplicate markers, {} device slices without a marker\n",
        r.launches_without_device, r.markers_without_launch_id, r.duplicate_markers,
        r.slices_without_marker);
  }
  return out;
}

void WriteLatencyReportJson(const LatencyReport& r, trace::JsonWriter* json) {
  json->BeginObject();
  json->Key("launches").Int(static_cast<int64_t>(r.launches.size()));
  json->Key("launches_without_device").Int(r.launches_without_device);
  json->Key("markers_without_launch_id").Int(r.markers_without_launch_id);
  json->Key("duplicate_markers").Int(r.duplicate_markers);
  json->Key("slices_without_marker").Int(r.slices_without_marker);
  json->Key("window_start_ns").Int(r.window_start_ns);
  json->Key("window_end_ns").Int(r.window_end_ns);
  json->Key("submission_latency_ns");
  WritePercentiles(r.submission, json);
  json->Key("launch_delay_ns");
  WritePercentiles(r.launch_delay, json);
  json->Key("per_op").BeginArray();
  for (const OpLatency& op : r.per_op) {
    json->BeginObject().Key("op").String(op.op).Key("submission_latency_ns");
    WritePercentiles(op.submission, json);
    json->Key("launch_delay_ns");
    WritePercentiles(op.launch_delay, json);
    json->EndObject();
  }
  json->EndArray();
  json->Key("outliers").BeginObject();
  json->Key("threshold_ns").Int(r.outlier_threshold_ns);
  json->Key("threshold").String(r.outlier_threshold_is_p99 ? "p99" : "explicit");
  json->Key("count").Int(r.outlier_count);
  json->Key("launch_ids").BeginArray();
  for (size_t i : r.outliers)
    json->Int(r.launches[i].launch_id);
  json->EndArray().EndObject();
  json->Key("queue").BeginObject();
  json->Key("max").Int(r.queue_max).Key("max_at_ns").Int(r.queue_max_at_ns);
  json->Key("mean").Double(r.queue_mean).Key("points").Int(r.queue_points);
  json->EndObject();
  json->Key("idle_ns").BeginObject();
  json->Key("span").Int(r.idle.span_ns).Key("busy").Int(r.idle.busy_ns);
  json->Key("host_wait").Int(r.idle.host_wait_ns).Key("device_wait").Int(r.idle.device_wait_ns);
  json->Key("other").Int(r.idle.other_ns).Key("gaps").Int(r.idle.gaps);
  json->EndObject();
  json->Key("per_launch").BeginArray();
  for (const LaunchLatency& l : r.launches) {
    json->BeginObject();
    json->Key("launch_id").Int(l.launch_id).Key("op").String(r.op_names[l.op]);
    json->Key("op_start_ns").Int(l.op_start_ns);
    json->Key("marker_start_ns").Int(l.marker_start_ns).Key("marker_end_ns").Int(l.marker_end_ns);
    if (l.has_device()) {
      json->Key("first_device_start_ns").Int(l.first_device_start_ns);
      json->Key("last_device_end_ns").Int(l.last_device_end_ns);
      json->Key("submission_latency_ns").Int(l.submission_latency_ns());
      json->Key("launch_delay_ns").Int(l.launch_delay_ns());
    }
    json->Key("device_slices").Int(l.device_slices);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

}  // namespace rblnsim::analysis
