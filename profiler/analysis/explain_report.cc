#include "profiler/analysis/explain_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>

namespace rblnsim::analysis {

namespace {

constexpr int kTableWidth = 100;

// The fix (try:) or notice (fyi:) for each fallback cause, in FallbackCause order.
constexpr std::array<const char*, kFallbackCauseCount> kCauseNotes = {
    "try: keep the inputs fp16/bf16 (.half()); fp32 never runs on the NPU",
    "try: clean the inputs (torch.nan_to_num) or find where NaN/Inf appear; the scan sends the "
    "op to the CPU",
    "try: keep 0-dim arithmetic on the host or fold the scalars into a tensor op",
    "try: pad the last dim to a multiple of 64 elements",
    "fyi: no eager device kernel for this op (supported_ops.html); it always runs on the CPU",
    "fyi: the trace does not show why; record_shapes=True adds Input Dims / Input type"};

ExplainRow NewRow(std::string signal, int64_t count) {
  ExplainRow row;
  row.signal = std::move(signal);
  row.count = count;
  return row;
}

// "aten::add 2, aten::mul 1" from (name, count) pairs, largest first.
std::string OpCounts(std::vector<std::pair<std::string, int64_t>> counts) {
  std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::string out;
  for (const auto& [op, n] : counts)
    out += (out.empty() ? "" : ", ") + op + " " + std::to_string(n);
  return out;
}

ExplainRow FallbackRow(const OverheadReport& r) {
  ExplainRow row = NewRow("dispatch/cpu_fallback", static_cast<int64_t>(r.fallbacks.size()));
  row.bytes = r.bytes_known ? 0 : -1;
  std::array<std::map<std::string, int64_t>, kFallbackCauseCount> ops;  // per cause; few ops
  for (const DetectedFallback& fb : r.fallbacks) {
    ++ops[static_cast<size_t>(fb.cause)][fb.op];
    if (r.bytes_known)
      row.bytes += fb.bytes_to_host + fb.bytes_to_device;
  }
  row.note = "ops that ran on the CPU, with their host round trips";
  for (size_t c = 0; c < ops.size(); ++c) {
    if (ops[c].empty())
      continue;
    int64_t n = 0;
    for (const auto& [op, count] : ops[c])
      n += count;
    row.lines.push_back(fmt::format("why: {}: {} ({})",
                                    FallbackCauseName(static_cast<FallbackCause>(c)), n,
                                    OpCounts({ops[c].begin(), ops[c].end()})));
    row.lines.push_back(kCauseNotes[c]);
  }
  return row;
}

ExplainRow RecompileRow(const OverheadReport& r) {
  ExplainRow row = NewRow("dispatch/recompile", static_cast<int64_t>(r.recompiles.size()));
  std::map<std::string, int64_t> ops;
  int64_t compile_ns = 0;
  std::string instances;
  for (const DetectedRecompile& rc : r.recompiles) {
    ++ops[rc.op];
    compile_ns += rc.dur_ns;
    if (rc.instance >= 0) {
      instances += fmt::format("{}i{}{}", instances.empty() ? "" : ", ", rc.instance,
                               rc.new_instance ? " (new)" : "");
    }
  }
  row.note = DurationText(compile_ns) + " compiling inside the window";
  row.lines.push_back("why: " + OpCounts({ops.begin(), ops.end()}) +
                      (instances.empty() ? "" : "; program instances " + instances));
  row.lines.push_back(
      "try: run every shape/dtype once before the profiled window; the cache is keyed on input "
      "shapes, dtypes and scalars");
  return row;
}

ExplainRow BounceRow(const OverheadReport& r, bool to_host) {
  ExplainRow row = NewRow(to_host ? "host_bounce/d2h" : "host_bounce/h2d", 0);
  row.bytes = r.bytes_known ? 0 : -1;
  std::array<int64_t, 3> by_cause = {0, 0, 0};
  for (const DetectedRoundTrip& rt : r.round_trips) {
    if (rt.to_host != to_host)
      continue;
    ++row.count;
    ++by_cause[static_cast<size_t>(rt.cause)];
    if (r.bytes_known && rt.bytes > 0)
      row.bytes += rt.bytes;
  }
  std::string why;
  for (size_t c = 0; c < by_cause.size(); ++c) {
    if (by_cause[c] == 0)
      continue;
    why += fmt::format("{}{} {}", why.empty() ? "" : ", ",
                       BounceCauseName(static_cast<BounceCause>(c)), by_cause[c]);
  }
  row.lines.push_back("why: " + why);
  row.overhead = by_cause[static_cast<size_t>(BounceCause::kCpu)] < row.count;
  row.note = to_host ? "device data copied to the host" : "host data copied to the device";
  if (by_cause[static_cast<size_t>(BounceCause::kCpu)] > 0) {
    row.lines.push_back("fyi: .cpu() downloads are written by the user and expected");
  }
  if (by_cause[static_cast<size_t>(BounceCause::kScan)] > 0) {
    row.lines.push_back("try: TORCH_RBLN_DEPLOY=ON drops the NaN/Inf scan and its downloads");
  }
  if (by_cause[static_cast<size_t>(BounceCause::kFallback)] > 0) {
    row.lines.push_back("fyi: fallback copies go away with the fallback (dispatch/cpu_fallback)");
  }
  return row;
}

ExplainRow ScanRow(const OverheadReport& r) {
  ExplainRow row = NewRow("scan/nan_inf", r.scans);
  const double share = r.host_ns > 0 ? 100.0 * static_cast<double>(r.scan_host_ns) / r.host_ns : 0;
  row.note =
      fmt::format("{} scanning inputs ({:.1f}% of host time)", DurationText(r.scan_host_ns), share);
  row.lines.push_back(
      "fyi: abs/isinf/isnan/ne groups before each dispatch, one per input; the user did not "
      "write them");
  row.lines.push_back(
      "try: TORCH_RBLN_DEPLOY=ON skips the scan (read on every dispatch) once inputs are trusted");
  return row;
}

}  // namespace

std::string BytesText(int64_t bytes) {
  if (bytes < 0)
    return "-";
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  static constexpr std::array<const char*, 4> kUnits = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.2f} {}", value, kUnits[unit]);
}

std::string DurationText(int64_t ns) {
  const int64_t magnitude = ns < 0 ? -ns : ns;
  if (magnitude < 1'000'000)
    return trace::FormatNsAsUs(ns) + "us";
  if (magnitude < 1'000'000'000)
    return trace::FormatNsAsUs(ns / 1000) + "ms";
  return trace::FormatNsAsUs(ns / 1'000'000) + "s";
}

std::vector<ExplainRow> ExplainRows(const OverheadReport& r) {
  std::vector<ExplainRow> rows;
  if (!r.fallbacks.empty())
    rows.push_back(FallbackRow(r));
  if (!r.recompiles.empty())
    rows.push_back(RecompileRow(r));
  for (bool to_host : {true, false}) {
    ExplainRow row = BounceRow(r, to_host);
    if (row.count > 0)
      rows.push_back(std::move(row));
  }
  if (r.scans > 0)
    rows.push_back(ScanRow(r));
  return rows;
}

int64_t OverheadSignals(const std::vector<ExplainRow>& rows) {
  return std::count_if(rows.begin(), rows.end(),
                       [](const ExplainRow& row) { return row.overhead; });
}

std::string FormatExplainText(const OverheadReport& r) {
  const std::vector<ExplainRow> rows = ExplainRows(r);
  const int64_t signals = OverheadSignals(rows);
  std::string out = signals == 0 ? "[clean]" : fmt::format("[overhead: {} signals]", signals);
  out += fmt::format("  RBLN EXPLAIN (wall {} | host ops {} | {} launch{} | from the trace)\n",
                     DurationText(r.wall_ns), DurationText(r.host_ns), r.launches,
                     r.launches == 1 ? "" : "es");
  if (rows.empty()) {
    return out +
           "  no hidden host work: no CPU fallback, recompile, host round trip or NaN/Inf "
           "scan\n";
  }
  const std::string rule(kTableWidth, '-');
  out += rule + "\n";
  out += fmt::format("{:<24}  {:>8}  {:>12}  {}\n", "Signal", "Count", "Bytes", "Note");
  out += rule + "\n";
  for (const ExplainRow& row : rows) {
    out += fmt::format("{:<24}  {:>8}  {:>12}  {}\n", row.signal, row.count, BytesText(row.bytes),
                       row.note);
    for (const std::string& line : row.lines)
      out += "    " + line + "\n";
  }
  return out + rule + "\n";
}

void WriteExplainJson(const OverheadReport& r, trace::JsonWriter* json) {
  const std::vector<ExplainRow> rows = ExplainRows(r);
  const int64_t signals = OverheadSignals(rows);
  json->BeginObject();
  json->Key("verdict").String(signals == 0 ? "clean" : "overhead");
  json->Key("signals").Int(signals);
  json->Key("wall_ns").Int(r.wall_ns).Key("host_ns").Int(r.host_ns).Key("launches").Int(r.launches);
  json->Key("bytes_known").Bool(r.bytes_known);
  json->Key("rows").BeginArray();
  for (const ExplainRow& row : rows) {
    json->BeginObject().Key("signal").String(row.signal).Key("count").Int(row.count);
    json->Key("bytes").Int(row.bytes).Key("note").String(row.note).Key("lines").BeginArray();
    for (const std::string& line : row.lines)
      json->String(line);
    json->EndArray().Key("overhead").Bool(row.overhead).EndObject();
  }
  json->EndArray();
  json->Key("fallbacks").BeginArray();
  for (const DetectedFallback& fb : r.fallbacks) {
    json->BeginObject().Key("op").String(fb.op).Key("reason").String(FallbackCauseName(fb.cause));
    json->Key("ts_ns").Int(fb.ts_ns).Key("dur_ns").Int(fb.dur_ns);
    json->Key("bytes_to_host").Int(fb.bytes_to_host).Key("bytes_to_device").Int(fb.bytes_to_device);
    json->EndObject();
  }
  json->EndArray();
  json->Key("recompiles").BeginArray();
  for (const DetectedRecompile& rc : r.recompiles) {
    json->BeginObject().Key("op").String(rc.op).Key("ts_ns").Int(rc.ts_ns).Key("dur_ns").Int(
        rc.dur_ns);
    json->Key("launch_id").Int(rc.launch_id).Key("instance").Int(rc.instance);
    json->Key("new_instance").Bool(rc.new_instance).EndObject();
  }
  json->EndArray();
  json->Key("round_trips").BeginArray();
  for (const DetectedRoundTrip& rt : r.round_trips) {
    json->BeginObject().Key("reason").String(BounceCauseName(rt.cause));
    json->Key("direction").String(rt.to_host ? "device_to_host" : "host_to_device");
    json->Key("bytes").Int(rt.bytes).Key("ts_ns").Int(rt.ts_ns).EndObject();
  }
  json->EndArray();
  json->Key("nan_inf_scan")
      .BeginObject()
      .Key("count")
      .Int(r.scans)
      .Key("host_ns")
      .Int(r.scan_host_ns);
  json->Key("host_share")
      .Double(r.host_ns > 0 ? static_cast<double>(r.scan_host_ns) / r.host_ns : 0.0);
  json->EndObject();
  json->EndObject();
}

}  // namespace rblnsim::analysis
