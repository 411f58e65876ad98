#include "tools/rblnsim/check/check_command.h"

#include <cstdio>
#include <utility>

#include "profiler/analysis/contract_checks.h"
#include "profiler/analysis/registry.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/import_report.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/keep_until_exit.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

int CheckCommand(const CheckCommandOptions& options) {
  Status outputs =
      CheckOutputsBeforeWork({{"trace", options.trace_path}}, {{"--json", options.json_path}});
  if (!outputs.ok())
    return ReportError(outputs);
  // The checks read one arg (the registry lists it); a large trace's other args would only cost
  // memory and time.
  trace::ImportOptions import_options;
  constexpr std::string_view kChecks[] = {"contract"};
  import_options.keep_args = analysis::KeptArgKeys(kChecks);
  auto imported = trace::ImportChromeTrace(options.trace_path, import_options);
  if (!imported.ok()) {
    return ReportError(imported.status());
  }
  const analysis::CheckOptions check_options = CheckOptionsFor(options.contract, *imported);
  // The contract reads no names (TraceIndex::Parts).
  auto index = index::TraceIndex::Build(
      imported->trace, ContractDialect(check_options, imported->trace), {.names = false});
  if (!index.ok())
    return ReportError(index.status().WithPrefix(options.trace_path + ": "));
  const analysis::CheckReport report = analysis::CheckContract(*index, check_options);
  std::fputs(FormatContractText(report).c_str(), stdout);
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
      return ReportError(written);
    }
  }
  KeepUntilExit(std::move(imported));
  return report.passed ? 0 : 1;
}

}  // namespace rblnsim::cli
