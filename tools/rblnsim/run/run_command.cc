#include "tools/rblnsim/run/run_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "profiler/analysis/roofline_report.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/plot/svg_plot.h"
#include "profiler/report/device_events.h"
#include "profiler/report/key_averages.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/dialect.h"
#include "scenario/env.h"
#include "scenario/loader.h"
#include "sim/device_facts.h"
#include "sim/session.h"
#include "tools/rblnsim/bad_input.h"
#include "tools/rblnsim/lib/reports/trace_reports.h"
#include "tools/rblnsim/output_guard.h"
#include "tools/rblnsim/run/expectations.h"
#include "tools/rblnsim/run/run_outputs.h"

namespace rblnsim::cli {

namespace {

void PrintRuntimeStatus(const scenario::Scenario& scenario,
                        trace::Dialect dialect,
                        bool active,
                        const sim::SessionData& session,
                        const bridge::BridgeStats* stats) {
  const scenario::DeviceConfig& d = scenario.device;
  const bool atom = d.variant == scenario::DeviceVariant::kAtom;
  std::printf("RBLN runtime: rbln0 %s (%s, %d chiplet%s) | device profiler: %s\n",
              d.card_name.c_str(), atom ? "atom" : "rebel100", d.chiplets,
              d.chiplets == 1 ? "" : "s",
              active ? "active (RBLN_PROFILER=1)"
                     : (atom ? "inactive (ATOM: no active profiler bridge, host activity only)"
                             : (dialect == trace::Dialect::kCAbi
                                    ? "inactive (RBLN_PROFILER not set when the runtime started)"
                                    : "inactive (RBLN_PROFILER not set when the profiling session "
                                      "was configured)")));
  if (active && stats != nullptr) {
    std::printf(
        "RBLN profiler: %llu device records captured, %llu dropped (record buffer full), %llu "
        "launches, %llu slices dropped by the bridge\n",
        static_cast<unsigned long long>(stats->producer.records_captured),
        static_cast<unsigned long long>(stats->producer.records_dropped),
        static_cast<unsigned long long>(stats->producer.launches),
        static_cast<unsigned long long>(stats->dropped_out_of_window + stats->dropped_unknown_row));
  }
  if (session.commands_timed_out > 0) {
    std::printf("RBLN runtime: %lld command(s) timed out\n",
                static_cast<long long>(session.commands_timed_out));
  }
  std::printf("\n");
}

// The roofline of the window's launches, from the simulator's ground truth.
Status PrintRoofline(const scenario::Scenario& scenario,
                     const sim::SessionData& session,
                     const std::string& dir) {
  std::vector<analysis::RooflineLaunch> launches;
  for (const sim::LaunchTruth& l : session.truth.launches) {
    if (l.failed || l.last_device_end_ns < l.first_device_start_ns)
      continue;
    launches.push_back({l.op, std::string(l.program), l.flops, l.hbm_bytes,
                        l.last_device_end_ns - l.first_device_start_ns, l.bound_ns,
                        l.host_overhead_ns + l.transport_ns});
  }
  const scenario::DeviceConfig& device = scenario.device;
  analysis::RooflinePeaks peaks;
  peaks.flops_per_s = sim::PeakMatmulFlopsPerSecond(device, scenario::DType::kFp16);
  peaks.hbm_bytes_per_s = device.hbm_bandwidth_bytes_per_s * device.chiplets;
  const std::vector<analysis::RooflineRow> rows = analysis::SummarizeRoofline(launches);
  std::printf("\n%s", analysis::FormatRooflineText(rows, peaks).c_str());
  std::error_code created;
  std::filesystem::create_directories(dir, created);
  if (created)
    return Status::IoError(dir + ": cannot create the roofline directory: " + created.message());
  const std::string path = (std::filesystem::path(dir) / "roofline.svg").string();
  RBLNSIM_RETURN_IF_ERROR(
      report::WriteSvg(path, report::RenderLinePlot(analysis::RooflinePlot(rows, peaks))));
  std::printf("roofline plot written to %s\n", path.c_str());
  return Status::Ok();
}

}  // namespace

int RunCommand(const RunOptions& options) {
  auto loaded = scenario::LoadScenario(options.scenario_path, options.overlays, options.sets);
  if (!loaded.ok())
    return ReportError(loaded.status());
  scenario::Scenario scenario = std::move(*loaded);
  if (options.seed)
    scenario.seed = *options.seed;
  Status env = scenario::ApplyProcessEnvironment(
      &scenario, [](const char* name) { return std::getenv(name); });
  if (!env.ok())
    return ReportError(env);
  std::vector<report::KeyAverage> probe;
  Status sort_ok = report::SortKeyAverages(options.sort_by, &probe);
  if (!sort_ok.ok())
    return ReportError(sort_ok.WithPrefix("--sort-by: "));
  std::vector<trace::NamedPath> inputs = Named("--overlay", options.overlays);
  inputs.push_back({"scenario", options.scenario_path});
  Status outputs =
      CheckOutputsBeforeWork(inputs,
                             {{"--trace", options.no_trace ? std::string() : options.trace_path},
                              {"--metrics", options.metrics_path},
                              {"--truth", options.truth_path}},
                             {"--roofline", options.roofline_dir});
  if (!outputs.ok())
    return ReportError(outputs);

  // The consumer side sees the producer only through the seam it emulates, exactly as torch-rbln
  // does: the runtime activity API (today's bridge) or the rbln_kineto C-ABI (older releases).
  const trace::Dialect dialect =
      (options.bridge.empty() ? scenario.workload.bridge : options.bridge) == "c-abi"
          ? trace::Dialect::kCAbi
          : trace::Dialect::kCurrent;
  // The launches' ground truth is read only by the roofline, the metrics, the truth file and a
  // latency expectation: a run that asks for none of them records none.
  const bool expects_latency = !options.no_expect && scenario.expect.latency_p99_max_ns.has_value();
  sim::SessionConfig session_config{&scenario, dialect};
  session_config.keep_launch_truth = !options.roofline_dir.empty() ||
                                     !options.metrics_path.empty() || !options.truth_path.empty() ||
                                     expects_latency;
  auto simulated = sim::SimulateSession(session_config);
  if (!simulated.ok())
    return ReportError(simulated.status());
  if (!simulated->warmup.ok()) {
    std::fprintf(stderr, "rblnsim: warm-up failed: %s\n", simulated->warmup.message().c_str());
    return 1;
  }
  const bool active = simulated->active;
  const Status& window = simulated->window;
  const trace::Trace& trace = simulated->trace;
  const sim::SessionData& session = simulated->session;
  // The simulated torch-rbln's own log, as the process would print it while it ran.
  for (const std::string& line : session.runtime_log)
    std::fprintf(stderr, "%s\n", line.c_str());

  PrintRuntimeStatus(scenario, dialect, active, session,
                     simulated->stats ? &*simulated->stats : nullptr);
  report::TableOptions table_options;
  table_options.sort_by = options.sort_by;
  table_options.row_limit = options.row_limit;
  table_options.attribution = options.attribution == "attributed" ? report::Attribution::kAttributed
                                                                  : report::Attribution::kReleased;
  // One index of the trace serves the table, the device events, the analyses and the checks.
  auto index = index::TraceIndex::Build(trace);
  if (!index.ok())
    return ReportError(index.status());
  auto table = report::FormatKeyAveragesTable(*index, table_options);
  if (!table.ok())
    return ReportError(table.status());
  std::fputs(table->c_str(), stdout);
  std::printf("\n%s\n", report::FormatDeviceEventsLine(report::DeviceEvents(*index), 4).c_str());
  if (!active && scenario.device.variant == scenario::DeviceVariant::kRebel100) {
    std::printf(
        "hint: the table has no Self RBLN columns and there are 0 device events because "
        "RBLN_PROFILER=1 was not set when the %s; set it on the command line: "
        "RBLN_PROFILER=1 rblnsim run %s\n",
        dialect == trace::Dialect::kCAbi ? "runtime started" : "profiling session was configured",
        options.scenario_path.c_str());
  }
  // The trace-only analyses of the same trace: hidden host work, then launch latency.
  // Printed and let go: a record per launch, not to be held while the trace is written. The
  // queue-length series is for plots, which a run draws none of.
  analysis::LatencyOptions latency_options;
  latency_options.keep_queue_series = false;
  std::printf("\n%s", FormatTraceReports(AnalyzeTrace(*index, latency_options,
                                                      /*window_from_events=*/false),
                                         /*say_when_no_launches=*/false)
                          .c_str());

  if (!options.roofline_dir.empty()) {
    Status roofline = PrintRoofline(scenario, session, options.roofline_dir);
    if (!roofline.ok())
      return ReportError(roofline);
  }

  if (!options.no_trace) {
    Status written = trace::WriteChromeTrace(trace, options.trace_path);
    if (!written.ok())
      return ReportError(written);
    std::printf("\ntrace written to %s (%zu events)\n", options.trace_path.c_str(),
                trace.events.size());
  }
  // The device events again, only for what reads them: a pointer per device slice, 6M of them
  // over 10^6 launches, is not held through the analyses and the trace write.
  const scenario::Expect& expect = scenario.expect;
  const bool expectations_read_device_events =
      !options.no_expect && (expect.device_events || expect.self_rbln_total_us);
  const std::vector<const trace::Event*> device_events =
      !options.metrics_path.empty() || expectations_read_device_events
          ? report::DeviceEvents(*index)
          : std::vector<const trace::Event*>();
  if (!options.metrics_path.empty()) {
    Status metrics =
        WriteMetricsFile(options.metrics_path, MetricsOf(scenario, device_events, session));
    if (!metrics.ok())
      return ReportError(metrics);
  }
  if (!options.truth_path.empty()) {
    Status truth = WriteTruth(options.truth_path, scenario, session, scenario.host.system_epoch_ns);
    if (!truth.ok())
      return ReportError(truth);
  }

  int exit_code = 0;
  if (!window.ok()) {
    std::fprintf(stderr, "rblnsim: the simulated run failed: %s\n", window.message().c_str());
    exit_code = 1;
  }
  if (!options.no_expect && !CheckExpectations(scenario, trace, device_events, session, stdout))
    exit_code = 1;
  return exit_code;
}

}  // namespace rblnsim::cli
