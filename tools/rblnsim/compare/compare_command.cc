#include "tools/rblnsim/compare/compare_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "profiler/trace/atomic_file.h"
#include "scenario/canonical.h"
#include "sim/session.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/compare/compare_json.h"
#include "tools/rblnsim/compare/compare_report.h"
#include "tools/rblnsim/lib/compare/capture_context.h"
#include "tools/rblnsim/lib/compare/compare_digest.h"
#include "tools/rblnsim/lib/compare/compare_match.h"
#include "tools/rblnsim/output_guard.h"

namespace rblnsim::cli {

int CompareCommand(const CompareOptions& options) {
  std::vector<trace::NamedPath> inputs = Named("--overlay", options.overlays);
  inputs.push_back({"scenario", options.scenario_path});
  inputs.push_back({"trace", options.trace_path});
  Status outputs = CheckOutputsBeforeWork(inputs, {{"--json", options.json_path}},
                                          {"--plots", options.plots_dir});
  if (!outputs.ok())
    return ReportError(outputs);
  auto loaded =
      LoadCapture(options.scenario_path, options.overlays, options.sets, options.trace_path);
  if (!loaded.ok())
    return ReportError(loaded.status());
  const CaptureContext& context = loaded->context;
  const TraceDigest& captured = loaded->digest;

  // The capture's dialect, so both sides measure host time the same way.
  auto simulated_run = sim::SimulateSession({&context.scenario, loaded->dialect});
  if (!simulated_run.ok())
    return ReportError(simulated_run.status());
  if (!simulated_run->warmup.ok())
    return ReportError(simulated_run->warmup.WithPrefix("warm-up failed: "));
  auto simulated = DigestTrace(simulated_run->trace);
  if (!simulated.ok())
    return ReportError(simulated.status());
  if (!options.force) {
    Status same = CheckSameWorkload(*simulated, captured, options.trace_path);
    if (!same.ok())
      return ReportError(same);
  }

  CompareHeader header;
  header.scenario = context.scenario.name;
  header.scenario_hash = context.scenario_hash;
  header.trace_path = options.trace_path;
  header.capture_line = DescribeCaptureContext(context);
  header.tolerance.relative_pct = options.tolerance_pct;
  header.import_json = loaded->import_json;
  const Comparison comparison = CompareDigests(*simulated, captured, header.tolerance);
  std::fputs(FormatComparison(header, comparison).c_str(), stdout);
  if (captured.launches.empty()) {
    std::printf(
        "note: the captured trace has no rbln_run (or \"rbln launch\") launches: RBLN_PROFILER=1 "
        "was not set when profiling started, or the card is an ATOM (host activity only)\n");
  }
  if (!options.json_path.empty()) {
    Status written =
        WriteCompareDocument(options.json_path, MakeCompareDocument(header, comparison));
    if (!written.ok())
      return ReportError(written);
  }
  if (!options.plots_dir.empty()) {
    Status written = WriteComparisonPlots(options.plots_dir, comparison);
    if (!written.ok())
      return ReportError(written);
  }
  if (!simulated_run->window.ok()) {
    std::fprintf(stderr, "rblnsim: the simulated run failed: %s\n",
                 simulated_run->window.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace rblnsim::cli
