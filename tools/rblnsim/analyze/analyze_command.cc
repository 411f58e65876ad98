#include "tools/rblnsim/analyze/analyze_command.h"

#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "base/concurrent_task.h"
#include "profiler/analysis/explain_report.h"
#include "profiler/analysis/fallback_detect.h"
#include "profiler/analysis/latency_plots.h"
#include "profiler/analysis/latency_report.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/analysis/truth_score.h"
#include "profiler/analysis/window_overrun.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/import_report.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/keep_until_exit.h"
#include "tools/rblnsim/lib/reports/trace_reports.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

int AnalyzeCommand(const AnalyzeOptions& options) {
  // Fail before the analysis, not after printing it; create nothing until the trace is read.
  Status outputs =
      CheckOutputsBeforeWork({{"trace", options.trace_path}, {"--truth", options.truth_path}},
                             {{"--json", options.json_path}}, {"--plots", options.plots_dir});
  if (!outputs.ok())
    return ReportError(outputs);
  auto imported = ImportForAnalyses(options.trace_path);
  if (!imported.ok())
    return ReportError(imported.status());
  std::optional<analysis::TruthFile> truth;
  if (!options.truth_path.empty()) {
    auto loaded = analysis::ReadTruthFile(options.truth_path);
    if (!loaded.ok())
      return ReportError(loaded.status());
    truth = std::move(*loaded);
  }
  const trace::Trace& trace = imported->trace;
  analysis::LatencyOptions latency_options;
  latency_options.outlier_threshold_ns = options.outlier_ns;
  latency_options.back_to_back_ns = options.back_to_back_ns;
  // With --check the index is read in the contract's dialect, which the analyses then share.
  const analysis::CheckOptions check_options = CheckOptionsFor(options.contract, *imported);
  auto index = index::TraceIndex::Build(trace, ContractDialect(check_options, trace));
  if (!index.ok())
    return ReportError(index.status().WithPrefix(options.trace_path + ": "));
  // The contract checks and the analyses only read the index: with --check they run side by
  // side, and print in the same order as one after the other.
  std::optional<analysis::CheckReport> contract;
  TraceReports reports;
  {
    ConcurrentTask checks;
    if (options.check)
      checks.Start([&] { contract = analysis::CheckContract(*index, check_options); });
    reports = AnalyzeTrace(*index, latency_options,
                           /*window_from_events=*/!imported->capture_window_from_trace);
    checks.Wait();
  }
  if (contract)
    std::fputs((FormatContractText(*contract) + "\n").c_str(), stdout);
  const analysis::OverheadReport& overhead = reports.overhead;
  const analysis::LatencyReport& latency = reports.latency;
  const analysis::WindowOverrun& overrun = reports.overrun;
  std::fputs(FormatTraceReports(reports, /*say_when_no_launches=*/true).c_str(), stdout);
  std::optional<analysis::TruthScore> score;
  if (truth) {
    score = analysis::ScoreAgainstTruth(*truth, latency, overhead);
    std::fputs(("\n" + analysis::FormatTruthScoreText(*score)).c_str(), stdout);
  }
  if (!options.plots_dir.empty()) {
    std::error_code created;
    std::filesystem::create_directories(options.plots_dir, created);
    if (created)
      return ReportError(Status::IoError(
          options.plots_dir + ": cannot create the plot directory: " + created.message()));
    Status plots = analysis::WriteLatencyPlots(options.plots_dir,
                                               analysis::RenderLatencyPlots(trace, latency));
    if (!plots.ok())
      return ReportError(plots);
    std::printf("\nplots written to %s\n", options.plots_dir.c_str());
  }
  if (!options.json_path.empty()) {
    Status written = trace::WriteFileAtomically(options.json_path, [&](trace::OutputSink& sink) {
      trace::JsonWriter json(&sink, 1);
      json.BeginObject();
      json.Key("format").Int(kAnalyzeJsonFormat);
      json.Key("trace").String(options.trace_path);
      json.Key("explain");
      analysis::WriteExplainJson(overhead, &json);
      json.Key("latency");
      analysis::WriteLatencyReportJson(latency, &json);
      json.Key("capture_window");
      analysis::WriteWindowOverrunJson(overrun, &json);
      json.Key("import");
      trace::WriteImportReportJson(*imported, json);
      if (score) {
        json.Key("truth");
        analysis::WriteTruthScoreJson(*score, &json);
      }
      if (contract) {
        json.Key("check").Raw(analysis::FormatCheckReportJson(*contract));
      }
      json.EndObject();
      json.Finish();
      return sink.status();
    });
    if (!written.ok())
      return ReportError(written);
  }
  const bool failed = (score && !score->passed) || (contract && !contract->passed);
  KeepUntilExit(std::move(imported));
  return failed ? 1 : 0;
}

}  // namespace rblnsim::cli
