#include "tools/rblnsim/lib/reports/contract_pass.h"

namespace rblnsim::cli {

analysis::CheckOptions CheckOptionsFor(const ContractFlags& flags,
                                       const trace::ImportResult& imported) {
  analysis::CheckOptions options;
  options.sync = flags.sync;
  options.contract = analysis::DialectFromName(flags.contract);
  options.min_launches = flags.min_launches;
  options.launcher_contains = flags.launcher_contains;
  options.window_from_events = !imported.capture_window_from_trace;
  for (const trace::OrphanFlow& orphan : imported.orphan_flows)
    options.unanchored_flows.push_back(orphan.flow);
  return options;
}

trace::Dialect ContractDialect(const analysis::CheckOptions& options, const trace::Trace& trace) {
  return options.contract.value_or(trace::DetectDialect(trace));
}

std::string FormatContractText(const analysis::CheckReport& report) {
  return "contract: " + std::string(trace::DialectName(report.contract)) + " (" +
         (report.contract_forced ? "forced by --contract" : "detected from the trace") + ")\n" +
         analysis::FormatCheckReportText(report);
}

}  // namespace rblnsim::cli
