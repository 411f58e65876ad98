#include "profiler/analysis/registry.h"

#include <algorithm>
#include <array>

#include "profiler/analysis/contract_checks.h"
#include "profiler/analysis/explain_report.h"
#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/latency_plots.h"
#include "profiler/analysis/latency_report.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/analysis/window_overrun.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

namespace {

template <typename Write>
std::string JsonText(Write write) {
  trace::StringSink sink;
  trace::JsonWriter json(&sink, 1);
  write(&json);
  json.Finish();
  return sink.text();
}

std::string RunContract(const index::TraceIndex& index) {
  return FormatCheckReportJson(CheckContract(index, CheckOptions()));
}

std::string RunOverhead(const index::TraceIndex& index) {
  const OverheadReport report = DetectOverhead(index);
  return JsonText([&](trace::JsonWriter* json) { WriteExplainJson(report, json); });
}

std::string RunLatency(const index::TraceIndex& index) {
  const LatencyReport report = AnalyzeLaunchLatency(index, LatencyOptions());
  const LatencyPlots plots = RenderLatencyPlots(index.trace(), report);
  return JsonText([&](trace::JsonWriter* json) { WriteLatencyReportJson(report, json); }) +
         plots.latency_histogram_svg + plots.queue_length_svg + plots.device_busy_svg;
}

std::string RunWindowOverrun(const index::TraceIndex& index) {
  const WindowOverrun overrun = FindWindowOverrun(index, HasCaptureWindow(index.trace(), false));
  return JsonText([&](trace::JsonWriter* json) { WriteWindowOverrunJson(overrun, json); });
}

constexpr std::array kAnalyses = {
    AnalysisEntry{"contract", ContractArgKeys, RunContract},
    AnalysisEntry{"overhead", OverheadArgKeys, RunOverhead},
    AnalysisEntry{"latency", LatencyArgKeys, RunLatency},
    AnalysisEntry{"window_overrun", WindowOverrunArgKeys, RunWindowOverrun},
};

}  // namespace

std::span<const AnalysisEntry> Analyses() {
  return kAnalyses;
}

std::vector<std::string> KeptArgKeys(std::span<const std::string_view> names) {
  std::vector<std::string> keys;
  for (const AnalysisEntry& entry : kAnalyses) {
    if (!names.empty() && std::find(names.begin(), names.end(), entry.name) == names.end())
      continue;
    for (std::string& key : entry.arg_keys()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        keys.push_back(std::move(key));
    }
  }
  return keys;
}

}  // namespace rblnsim::analysis
