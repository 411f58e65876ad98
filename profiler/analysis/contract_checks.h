// Checks a trace against the contract torch-rbln's alignment test enforces on real hardware
// (shared/reference/rbln-kineto-abi.md, "The contract..."): one rbln_run marker per launch inside
// its launching op, device work after its marker (and inside the op with sync dispatch), one
// ac2g flow start per marker with finishes on that launch's device slices, named device rows.
// Each rule is reported on its own, with example offenders, so a failure says what to fix.
#ifndef RBLNSIM_PROFILER_ANALYSIS_CONTRACT_CHECKS_H_
#define RBLNSIM_PROFILER_ANALYSIS_CONTRACT_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

struct CheckOptions {
  // RBLN_RUNTIME_FORCE_SYNC=1: the runtime blocks per op, so device work also ends inside the
  // launching op. Off (async RunAsync), only the start ordering is guaranteed.
  bool sync = false;
  // Offenders kept per rule; the count is always complete.
  size_t max_examples = 20;
  // ac2g flow events the importer could not anchor on any event (ImportResult::orphan_flows).
  // The trace model cannot hold them, yet they break flow-start / flow-finish.
  std::vector<trace::Event> unanchored_flows;
};

struct Offender {
  std::string name;
  std::string cat;
  int64_t pid = 0;
  int64_t tid = 0;
  int64_t ts_ns = 0;  // absolute, as in the trace
  std::optional<int64_t> launch_id;
  std::string detail;  // what is wrong with it, one line
};

struct RuleResult {
  std::string id;  // e.g. "device-after-marker"
  std::string description;
  bool passed = true;
  bool skipped = false;  // not applicable to these options (sync-end-inside-op without sync)
  int64_t violation_count = 0;
  std::vector<Offender> examples;  // the first CheckOptions::max_examples violations
};

struct CheckReport {
  bool passed = true;
  bool sync = false;
  int64_t base_time_ns = 0;       // for printing times relative to the trace base
  std::vector<RuleResult> rules;  // in the fixed order of the rule list

  const RuleResult* Find(const std::string& id) const;
};

CheckReport CheckContract(const trace::Trace& trace, const CheckOptions& options);

// Every event arg CheckContract reads: an importer may drop the others (ImportOptions).
std::vector<std::string> ContractArgKeys();

// One line per rule, "PASS id: description" / "FAIL id: description (N violations)" /
// "SKIP id: ...", each failure followed by up to five indented offenders, then an overall line.
std::string FormatCheckReportText(const CheckReport& report);

// The same as one JSON object (absolute ts_ns, every kept example).
std::string FormatCheckReportJson(const CheckReport& report);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_CONTRACT_CHECKS_H_
