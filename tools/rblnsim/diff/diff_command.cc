#include "tools/rblnsim/diff/diff_command.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "profiler/diff/diff_gate.h"
#include "profiler/diff/diff_report.h"
#include "profiler/index/trace_index.h"
#include "profiler/plot/svg_plot.h"
#include "profiler/trace/atomic_file.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/lib/reports/trace_reports.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

namespace {

Status WriteText(const std::string& path, const std::string& text) {
  return trace::WriteFileAtomically(path, [&](trace::OutputSink& sink) {
    sink.Append(text);
    return sink.status();
  });
}

Status WritePlots(const std::string& dir, const diff::TraceDiff& result) {
  std::error_code created;
  std::filesystem::create_directories(dir, created);
  if (created)
    return Status::IoError(dir + ": cannot create the plot directory: " + created.message());
  const diff::DiffPlots plots = diff::RenderDiffPlots(result, /*max_ops=*/20);
  RBLNSIM_RETURN_IF_ERROR(report::WriteSvg(dir + "/op_delta.svg", plots.op_delta_svg));
  RBLNSIM_RETURN_IF_ERROR(report::WriteSvg(dir + "/latency_cdf.svg", plots.latency_cdf_svg));
  return report::WriteSvg(dir + "/device_classes.svg", plots.device_svg);
}

}  // namespace

StatusOr<diff::TraceSummary> SummarizeTraceFile(const std::string& path) {
  auto imported = ImportForAnalyses(path);
  if (!imported.ok())
    return imported.status();
  auto index = index::TraceIndex::Build(imported->trace);
  if (!index.ok())
    return index.status().WithPrefix(path + ": ");
  return diff::Summarize(*index, analysis::LatencyOptions());
}

int DiffCommand(const DiffOptions& options) {
  Status outputs =
      CheckOutputsBeforeWork({{"base", options.base_path}, {"new", options.new_path}},
                             {{"--json", options.json_path}, {"--markdown", options.markdown_path}},
                             {"--plots", options.plots_dir});
  if (!outputs.ok())
    return ReportError(outputs);
  // Rules are checked before the traces are read: a typo fails in a moment, not after a
  // gigabyte.
  std::vector<diff::GateRule> rules;
  for (const std::string& text : options.fail_on) {
    auto rule = diff::ParseGateRule(text);
    if (!rule.ok())
      return ReportError(rule.status());
    rules.push_back(std::move(*rule));
  }

  // One trace in memory at a time: each is summarised and freed before the next is read.
  auto base = SummarizeTraceFile(options.base_path);
  if (!base.ok())
    return ReportError(base.status());
  auto next = SummarizeTraceFile(options.new_path);
  if (!next.ok())
    return ReportError(next.status());
  const diff::TraceDiff result = diff::DiffSummaries(*base, *next);

  std::optional<diff::GateResult> gate;
  if (!rules.empty()) {
    auto evaluated = diff::EvaluateGate(rules, result);
    if (!evaluated.ok())
      return ReportError(evaluated.status());
    gate = std::move(*evaluated);
  }
  const diff::GateResult* gate_ptr = gate ? &*gate : nullptr;
  const diff::DiffLabels labels{options.base_path, options.new_path};
  std::fputs(diff::FormatDiffText(result, labels, gate_ptr, options.rows).c_str(), stdout);

  if (!options.json_path.empty()) {
    Status written = trace::WriteFileAtomically(options.json_path, [&](trace::OutputSink& sink) {
      trace::JsonWriter json(&sink, 2);
      diff::WriteDiffJson(result, labels, gate_ptr, &json);
      json.Finish();
      return sink.status();
    });
    if (!written.ok())
      return ReportError(written);
  }
  if (!options.markdown_path.empty()) {
    Status written = WriteText(options.markdown_path,
                               diff::FormatDiffMarkdown(result, labels, gate_ptr, options.rows));
    if (!written.ok())
      return ReportError(written);
  }
  if (!options.plots_dir.empty()) {
    Status written = WritePlots(options.plots_dir, result);
    if (!written.ok())
      return ReportError(written);
    std::printf("\nplots written to %s\n", options.plots_dir.c_str());
  }
  return gate && !gate->passed() ? 1 : 0;
}

}  // namespace rblnsim::cli
