#include "tools/rblnsim/check_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "profiler/analysis/contract_checks.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/import_report.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

void AddCheckCommand(CLI::App* app, CheckCommandOptions* options) {
  CLI::App* check = app->add_subcommand(
      "check", "Verify the PrivateUse1 trace contract (markers, launch ids, flows, device rows)");
  check->add_option("trace", options->trace_path, "Chrome trace (.json or .json.gz)")->required();
  check->add_flag(
      "--sync", options->sync,
      "The trace was recorded with RBLN_RUNTIME_FORCE_SYNC=1: device work must also end "
      "inside the launching op");
  check->add_option("--json", options->json_path, "Also write the report as JSON")
      ->check(NonEmptyPath());
  check
      ->add_option("--contract", options->contract,
                   "Apply this version of the contract instead of the one the trace's dialect "
                   "shows: current (NPU rows, rbln launch) or c-abi (rbln_run)")
      ->check(CLI::IsMember({"current", "c-abi"}));
  check
      ->add_option("--min-launches", options->min_launches,
                   "current: launches (and launches running a kernel) the trace must hold "
                   "(default 1)")
      ->check(CLI::NonNegativeNumber);
  check->add_option("--launcher-contains", options->launcher_contains,
                    "current: a marker must lie inside a host slice whose name contains this, "
                    "e.g. \"Torch-Compiled Region\" for graph mode (default: any host slice)");
}

int CheckCommand(const CheckCommandOptions& options) {
  Status guarded = GuardOutputs({{"trace", options.trace_path}}, {{"--json", options.json_path}});
  if (!guarded.ok())
    return BadInput(guarded);
  if (!options.json_path.empty()) {
    Status writable = trace::CheckWritable(options.json_path);
    if (!writable.ok()) {
      return BadInput(writable);
    }
  }
  // The checks read one arg; a large trace's other args would only cost memory and time.
  trace::ImportOptions import_options;
  import_options.keep_args = analysis::ContractArgKeys();
  auto imported = trace::ImportChromeTrace(options.trace_path, import_options);
  if (!imported.ok()) {
    return BadInput(imported.status());
  }
  analysis::CheckOptions check_options;
  check_options.sync = options.sync;
  check_options.contract = analysis::DialectFromName(options.contract);
  check_options.min_launches = options.min_launches;
  check_options.launcher_contains = options.launcher_contains;
  check_options.window_from_events = !imported->capture_window_from_trace;
  for (const trace::OrphanFlow& orphan : imported->orphan_flows) {
    check_options.unanchored_flows.push_back(orphan.flow);
  }
  const analysis::CheckReport report = analysis::CheckContract(imported->trace, check_options);
  std::printf("contract: %s (%s)\n", trace::DialectName(report.contract).data(),
              report.contract_forced ? "forced by --contract" : "detected from the trace");
  std::fputs(analysis::FormatCheckReportText(report).c_str(), stdout);
  // What the import dropped or changed, by reason: never silent.
  if (const std::string notice = trace::FormatImportNotice(*imported); !notice.empty())
    std::fprintf(stderr, "%s\n", notice.c_str());
  if (!options.json_path.empty()) {
    const std::string json =
        analysis::FormatCheckReportJson(report, [&](trace::JsonWriter& writer) {
          writer.Key("import");
          trace::WriteImportReportJson(*imported, writer);
        });
    Status written = trace::WriteFileAtomically(options.json_path, [&](trace::OutputSink& sink) {
      sink.Append(json);
      return sink.status();
    });
    if (!written.ok()) {
      return BadInput(written);
    }
  }
  return report.passed ? 0 : 1;
}

}  // namespace rblnsim::cli
