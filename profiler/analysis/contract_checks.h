// Checks a trace against the contract torch-rbln's alignment test enforces on real hardware, in
// the version of the trace's dialect (dialect_rules.h):
//  - c-abi (shared/reference/rbln-kineto-abi.md, "The contract..."): one rbln_run marker per
//    launch inside its launching op, device work after its marker (and inside the op with sync
//    dispatch), one ac2g flow start per marker with finishes on that launch's device slices,
//    named device rows;
//  - current (shared/reference/rbln-runtime-activities.md §4): NPU rows, one zero-length
//    "rbln launch" marker per launch inside a host op, activities on the lane of their kind and
//    after their marker, enough launches running a kernel, flows of the rbln id block accounting
//    for exactly the launch's activities.
// Both also check that every pid has one process_name and, for the capture window, that device
// work ends inside it. Each rule is reported on its own, with example offenders, so a failure
// says what to fix; a rule that found nothing to check says so instead of passing.
#ifndef RBLNSIM_PROFILER_ANALYSIS_CONTRACT_CHECKS_H_
#define RBLNSIM_PROFILER_ANALYSIS_CONTRACT_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "profiler/analysis/dialect_rules.h"
#include "profiler/index/trace_index.h"
#include "profiler/trace/json_writer.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

struct CheckOptions {
  // The contract version to apply; unset: DetectDialect(trace).
  std::optional<Dialect> contract;
  // current: at least this many launches, and this many running a kernel (the alignment test's
  // min_launches: 2 for its graph-mode cases, 1 for eager).
  int64_t min_launches = 1;
  // current: when set, only host slices whose name contains this enclose a marker (the test's
  // graph-mode cases ask for "Torch-Compiled Region"); empty: any host slice (eager mode).
  std::string launcher_contains;
  // The importer found no capture window and stood in the span of the events
  // (!ImportResult::capture_window_from_trace): the window rules have nothing to check.
  bool window_from_events = false;
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
  // False for a violation of the trace as a whole (a missing row, too few launches): only
  // |detail| means anything.
  bool has_event = true;
};

struct RuleResult {
  std::string id;  // e.g. "device-after-marker"
  std::string description;
  bool passed = true;
  bool skipped = false;  // not applicable to these options (sync-end-inside-op without sync)
  // Non-empty when the rule found nothing to check, saying why ("0 flows"); it then passed
  // vacuously and is reported as n/a, not PASS.
  std::string not_applicable;
  int64_t violation_count = 0;
  std::vector<Offender> examples;  // the first CheckOptions::max_examples violations
};

struct CheckReport {
  bool passed = true;
  bool sync = false;
  Dialect contract = Dialect::kCAbi;
  bool contract_forced = false;   // set by CheckOptions::contract, not detected
  int64_t base_time_ns = 0;       // for printing times relative to the trace base
  std::vector<RuleResult> rules;  // in the fixed order of the rule list

  const RuleResult* Find(const std::string& id) const;
};

// |index| may read the trace in either dialect; the contract is options.contract or the index's.
CheckReport CheckContract(const index::TraceIndex& index, const CheckOptions& options);
// Indexes |trace| in the contract's dialect first. A trace too large to index fails one rule,
// "trace-index".
CheckReport CheckContract(const trace::Trace& trace, const CheckOptions& options);

// Every event arg CheckContract reads: an importer may drop the others (ImportOptions).
std::vector<std::string> ContractArgKeys();

// One line per rule, "PASS id: description" / "FAIL id: description (N violations)" /
// "SKIP id: ..." / "N/A id: description (n/a: why)", each failure followed by up to five
// indented offenders, then an overall line.
std::string FormatCheckReportText(const CheckReport& report);

// The same as one JSON object (absolute ts_ns, every kept example).
// |extra| writes further top-level keys (the command's import report) before the object closes.
std::string FormatCheckReportJson(const CheckReport& report,
                                  const std::function<void(trace::JsonWriter&)>& extra = {});

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_CONTRACT_CHECKS_H_
