// Private to the contract checks: the rule sink, the rules both dialects share and each
// dialect's rule list.
#ifndef RBLNSIM_PROFILER_ANALYSIS_CONTRACT_RULES_H_
#define RBLNSIM_PROFILER_ANALYSIS_CONTRACT_RULES_H_

#include <cstddef>
#include <string>
#include <utility>

#include "profiler/analysis/contract_checks.h"
#include "profiler/analysis/dialect_rules.h"
#include "profiler/index/trace_index.h"

namespace rblnsim::analysis {

// Collects one rule's violations into a CheckReport, keeping the first few as examples.
class RuleSink {
 public:
  RuleSink(CheckReport* report, size_t max_examples, std::string id, std::string description)
      : report_(*report), index_(report->rules.size()), max_examples_(max_examples) {
    RuleResult rule;
    rule.id = std::move(id);
    rule.description = std::move(description);
    report_.rules.push_back(std::move(rule));
  }

  void Violation(const trace::Event& e, std::string detail) {
    Offender o;
    o.name = e.name;
    o.cat = std::string(e.cat());
    o.pid = e.pid;
    o.tid = e.tid;
    o.ts_ns = e.ts_ns;
    o.launch_id = e.IntArg(kLaunchIdArg);
    o.detail = std::move(detail);
    Add(std::move(o));
  }

  // A violation of the trace as a whole (a missing row, too few launches): no event to show.
  void Violation(std::string detail) {
    Offender o;
    o.has_event = false;
    o.detail = std::move(detail);
    Add(std::move(o));
  }

  void Skip() { rule().skipped = true; }

  // The rule found nothing to check; |why| says what was missing ("0 flows"). A rule with a
  // violation has checked something, so this never hides a failure.
  void NotApplicable(std::string why) {
    if (rule().passed)
      rule().not_applicable = std::move(why);
  }

 private:
  RuleResult& rule() { return report_.rules[index_]; }

  void Add(Offender o) {
    RuleResult& r = rule();
    ++r.violation_count;
    r.passed = false;
    r.not_applicable.clear();
    if (r.examples.size() < max_examples_)
      r.examples.push_back(std::move(o));
  }

  CheckReport& report_;
  size_t index_;
  size_t max_examples_;
};

// Every pid has exactly one process_name. Kineto's default "GPU 0..15" rows (written when the
// profiler is not CPU-only and no session returns a DeviceInfo) name pids 0-15 after the host
// process, so a device on pid 0 shows under the host's name: a defect of the real stack.
void CheckOneProcessName(const trace::Trace& trace, RuleSink sink);

// Device work ends by the end of the capture window (window_overrun.h); n/a without a window.
void CheckDeviceInsideWindow(const index::TraceIndex& index, bool window_known, RuleSink sink);

std::string NsText(int64_t ns);

// Each dialect's rule list, appended to |report| in its fixed order.
// |index| reads the trace in the contract's dialect.
void CheckCAbiContract(const index::TraceIndex& index,
                       const CheckOptions& options,
                       CheckReport* report);
void CheckCurrentContract(const index::TraceIndex& index,
                          const CheckOptions& options,
                          CheckReport* report);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_CONTRACT_RULES_H_
