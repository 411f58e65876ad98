#include "profiler/analysis/explain_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>

namespace rblnsim::analysis {

namespace {

// What to try for each fallback reason, in FallbackCause order.
constexpr std::array<const char*, kFallbackCauseCount> kReasonTries = {
    "try: fp16/bf16 inputs (.half()); RBLN_FLOAT32_PRECISION=device runs fp32 at 16 bits",
    "try: clean the inputs (torch.nan_to_num) or find where NaN/Inf appear",
    "try: keep 0-dim arithmetic on the host, or fold the scalars into a tensor op",
    "try: a last dim that is a multiple of 64 elements",
    "fyi: no device kernel for this op; it always runs on the CPU",
    "fyi: torch-rbln pins this op to the CPU fallback by name",
    "try: other input shapes or dtypes; the compiler refused these (TORCH_RBLN_LOG_LEVEL=INFO)",
    "fyi: the trace does not show why; record_shapes=True adds Input Dims / Input type"};

// "aten::add 2" rows: names padded to the widest, counts right-aligned, largest count first.
std::vector<std::string> CountRows(const std::map<std::string, int64_t>& counts) {
  std::vector<std::pair<std::string, int64_t>> rows(counts.begin(), counts.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  size_t name_width = 0;
  size_t count_width = 0;
  for (const auto& [name, n] : rows) {
    name_width = std::max(name_width, name.size());
    count_width = std::max(count_width, CountText(n).size());
  }
  std::vector<std::string> out;
  for (const auto& [name, n] : rows)
    out.push_back(fmt::format("{:<{}}  {:>{}}", name, name_width, CountText(n), count_width));
  return out;
}

// "1.9ms", "817us", "23us", "640ns": the runtime line's short figures.
std::string ShortDuration(int64_t ns) {
  if (ns < 1000)
    return fmt::format("{}ns", ns);
  if (ns < 1'000'000)
    return fmt::format("{}us", (ns + 500) / 1000);
  if (ns < 1'000'000'000)
    return fmt::format("{:.1f}ms", static_cast<double>(ns) / 1e6);
  return fmt::format("{:.1f}s", static_cast<double>(ns) / 1e9);
}

double Percent(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string Table(const std::vector<ExplainRow>& rows) {
  std::array<size_t, 4> w = {6, 5, 5, 4};  // Signal, Count, Bytes, Note
  for (const ExplainRow& row : rows) {
    w[0] = std::max(w[0], row.signal.size());
    w[1] = std::max(w[1], CountText(row.count).size());
    w[2] = std::max(w[2], BytesText(row.bytes).size());
    w[3] = std::max(w[3], row.note.size());
  }
  const std::string rule =
      fmt::format("{}  {}  {}  {}\n", std::string(w[0], '-'), std::string(w[1], '-'),
                  std::string(w[2], '-'), std::string(w[3], '-'));
  std::string out = rule;
  out += fmt::format("{:<{}}  {:>{}}  {:>{}}  {}\n", "Signal", w[0], "Count", w[1], "Bytes", w[2],
                     "Note");
  out += rule;
  for (const ExplainRow& row : rows) {
    out += fmt::format("{:<{}}  {:>{}}  {:>{}}  {}\n", row.signal, w[0], CountText(row.count), w[1],
                       BytesText(row.bytes), w[2], row.note);
  }
  return out + rule;
}

std::string FallbackBlock(const OverheadReport& r) {
  std::map<std::string, int64_t> ops;
  std::array<int64_t, kFallbackCauseCount> reasons{};
  int64_t wall_ns = 0;
  int64_t boxed = 0;
  int64_t to_host = 0;
  int64_t to_device = 0;
  for (const DetectedFallback& fb : r.fallbacks) {
    ++ops[fb.op];
    ++reasons[static_cast<size_t>(fb.cause)];
    wall_ns += fb.dur_ns;
    boxed += fb.shape == platform::FallbackShape::kBoxed ? 1 : 0;
    to_host += std::max<int64_t>(fb.bytes_to_host, 0);
    to_device += std::max<int64_t>(fb.bytes_to_device, 0);
  }
  std::string out =
      fmt::format("\n  dispatch/cpu_fallback:  (sum {} wall)\n", DurationText(wall_ns));
  for (const std::string& row : CountRows(ops))
    out += "    " + row + "\n";
  std::string why;
  for (size_t c = 0; c < reasons.size(); ++c) {
    if (reasons[c] > 0) {
      why += fmt::format("{}{} {}", why.empty() ? "" : ", ",
                         FallbackCauseName(static_cast<FallbackCause>(c)), CountText(reasons[c]));
    }
  }
  out += "    why: " + why + "\n";
  for (size_t c = 0; c < reasons.size(); ++c) {
    if (reasons[c] > 0)
      out += std::string("    ") + kReasonTries[c] + "\n";
  }
  const int64_t nested = static_cast<int64_t>(r.fallbacks.size()) - boxed;
  out += fmt::format("    in the trace: {} boxed (aten::_to_cpu, kernel unrecorded), {} nested\n",
                     CountText(boxed), CountText(nested));
  if (r.bytes_known) {
    out += fmt::format("    their copies: {} to the host, {} back to the device\n",
                       BytesText(to_host), BytesText(to_device));
  }
  return out;
}

std::string RecompileBlock(const OverheadReport& r) {
  std::map<std::string, int64_t> ops;
  int64_t evicted = 0;
  int64_t failed = 0;
  int64_t compile_ns = 0;
  std::string instances;
  for (const DetectedRecompile& rc : r.recompiles) {
    ++ops[rc.op];
    compile_ns += rc.dur_ns;
    evicted += rc.eviction ? 1 : 0;
    failed += rc.failed ? 1 : 0;
    if (rc.instance >= 0 && rc.new_instance)
      instances += fmt::format("{}i{}", instances.empty() ? "" : ", ", rc.instance);
  }
  std::string out =
      fmt::format("\n  dispatch/recompile:  (sum {} compiling)\n", DurationText(compile_ns));
  for (const std::string& row : CountRows(ops))
    out += "    " + row + "\n";
  if (evicted > 0) {
    out += fmt::format(
        "    evicted and compiled again: {} (the compiled-op cache is an LRU; "
        "TORCH_RBLN_COMPILED_OPS keeps more)\n",
        CountText(evicted));
  }
  if (failed > 0) {
    out += fmt::format("    failed, then ran on the CPU: {} (compile_error fallbacks)\n",
                       CountText(failed));
  }
  if (!instances.empty())
    out += "    new program instances: " + instances + "\n";
  return out;
}

}  // namespace

std::string BytesText(int64_t bytes) {
  if (bytes < 0)
    return "--";
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  static constexpr std::array<const char*, 4> kUnits = {"KB", "MB", "GB", "TB"};
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

std::string CountText(int64_t count) {
  const std::string digits = std::to_string(count);
  std::string out;
  const size_t first = digits[0] == '-' ? 1 : 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    out += digits[i];
    const size_t left = digits.size() - 1 - i;
    if (i >= first && left > 0 && left % 3 == 0)
      out += ',';
  }
  return out;
}

std::vector<ExplainRow> ExplainRows(const OverheadReport& r) {
  // No host bounce is read from a trace yet: every copy found is a fallback's, a scan's or the
  // user's. The dispatch rows follow in explain()'s order.
  std::vector<ExplainRow> rows;
  if (!r.fallbacks.empty()) {
    rows.push_back({"dispatch/cpu_fallback", static_cast<int64_t>(r.fallbacks.size()), -1,
                    "try: a device dtype (fp16/bf16), or graph mode"});
  }
  if (!r.recompiles.empty()) {
    rows.push_back({"dispatch/recompile", static_cast<int64_t>(r.recompiles.size()), -1,
                    "try: fixed shapes (pad or bucket), or graph mode"});
  }
  return rows;
}

std::vector<CopyPrimitive> RuntimeCopies(const OverheadReport& r) {
  std::vector<CopyPrimitive> copies = {{"v2h", 0, 0}, {"h2v", 0, 0}};
  for (const DetectedRoundTrip& rt : r.round_trips) {
    CopyPrimitive& p = copies[rt.to_host ? 0 : 1];
    p.ns += rt.dur_ns;
    ++p.calls;
  }
  copies.erase(std::remove_if(copies.begin(), copies.end(),
                              [](const CopyPrimitive& p) { return p.calls == 0; }),
               copies.end());
  std::stable_sort(copies.begin(), copies.end(),
                   [](const CopyPrimitive& a, const CopyPrimitive& b) { return a.ns > b.ns; });
  return copies;
}

std::string FormatExplainText(const OverheadReport& r) {
  const std::vector<ExplainRow> rows = ExplainRows(r);
  const size_t signals = rows.size();
  std::string out = signals == 0
                        ? "[clean]"
                        : fmt::format("[overhead: {} signal{}]", signals, signals == 1 ? "" : "s");
  out += fmt::format("  RBLN EXPLAIN   (region wall {} | device mem: not in a trace)\n",
                     DurationText(r.wall_ns));
  if (signals == 0) {
    out += "  checked: host_bounce, cpu_fallback, recompile -- none fired\n";
    out += "  note: clean = no hidden host overhead, not \"fast\"\n";
  }
  const std::vector<CopyPrimitive> copies = RuntimeCopies(r);
  if (!copies.empty() || r.scans > 0)
    out += "\n";
  if (!copies.empty()) {
    int64_t total_ns = 0;
    std::string parts;
    for (size_t i = 0; i < copies.size() && i < 4; ++i) {
      parts += fmt::format("{}{} {}/{}", i == 0 ? "" : "  ", copies[i].name,
                           ShortDuration(copies[i].ns), copies[i].calls);
    }
    for (const CopyPrimitive& p : copies)
      total_ns += p.ns;
    if (copies.size() > 4)
      parts += fmt::format("  +{} more", copies.size() - 4);
    out += fmt::format("  runtime: {} in copy calls ({:.1f}% of region wall)\n    {}\n",
                       DurationText(total_ns), Percent(total_ns, r.wall_ns), parts);
  }
  if (r.scans > 0) {
    out += fmt::format(
        "  nan/inf scan: {} input{} scanned before dispatch, {} ({:.1f}% of host ops)\n"
        "    fyi: not in the script; TORCH_RBLN_DEPLOY=ON skips it once inputs are trusted\n",
        CountText(r.scans), r.scans == 1 ? "" : "s", DurationText(r.scan_host_ns),
        Percent(r.scan_host_ns, r.host_ns));
  }
  if (signals > 0) {
    out += "\n" + Table(rows);
    if (!r.fallbacks.empty())
      out += FallbackBlock(r);
    if (!r.recompiles.empty())
      out += RecompileBlock(r);
  }
  out +=
      "\n  device time: the trace's NPU rows (compute, copy, host, collective), an arrow per rbln "
      "launch\n";
  return out;
}

void WriteExplainJson(const OverheadReport& r, trace::JsonWriter* json) {
  const std::vector<ExplainRow> rows = ExplainRows(r);
  json->BeginObject();
  json->Key("verdict").String(rows.empty() ? "clean" : "overhead");
  json->Key("signals").Int(static_cast<int64_t>(rows.size()));
  json->Key("wall_ns").Int(r.wall_ns).Key("host_ns").Int(r.host_ns).Key("launches").Int(r.launches);
  json->Key("bytes_known").Bool(r.bytes_known);
  json->Key("rows").BeginArray();
  for (const ExplainRow& row : rows) {
    json->BeginObject().Key("signal").String(row.signal).Key("count").Int(row.count);
    json->Key("bytes").Int(row.bytes).Key("note").String(row.note).EndObject();
  }
  json->EndArray();
  json->Key("runtime").BeginObject().Key("by_primitive").BeginObject();
  int64_t total_ns = 0;
  for (const CopyPrimitive& p : RuntimeCopies(r)) {
    total_ns += p.ns;
    json->Key(p.name).BeginObject().Key("ns").Int(p.ns).Key("calls").Int(p.calls).EndObject();
  }
  json->EndObject().Key("total_ns").Int(total_ns);
  json->Key("wall_fraction").Double(Percent(total_ns, r.wall_ns) / 100.0).EndObject();
  json->Key("fallbacks").BeginArray();
  for (const DetectedFallback& fb : r.fallbacks) {
    json->BeginObject().Key("op").String(fb.op).Key("reason").String(FallbackCauseName(fb.cause));
    json->Key("shape").String(platform::FallbackShapeName(fb.shape));
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
    json->Key("new_instance").Bool(rc.new_instance).Key("eviction").Bool(rc.eviction);
    json->Key("failed").Bool(rc.failed).EndObject();
  }
  json->EndArray();
  json->Key("round_trips").BeginArray();
  for (const DetectedRoundTrip& rt : r.round_trips) {
    json->BeginObject().Key("reason").String(BounceCauseName(rt.cause));
    json->Key("direction")
        .String(std::string_view(rt.to_host ? "device_to_host" : "host_to_device"));
    json->Key("bytes").Int(rt.bytes).Key("ts_ns").Int(rt.ts_ns).Key("dur_ns").Int(rt.dur_ns);
    json->EndObject();
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
