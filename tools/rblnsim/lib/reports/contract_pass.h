// The PrivateUse1 contract check as `rblnsim check` and `rblnsim analyze --check` both run it:
// the same flags, the same options read off the import (its capture window, its orphan flows),
// the same report text. analyze --check runs it on the trace it already imported and indexed, so
// a large trace is parsed once for the contract and every analysis.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_REPORTS_CONTRACT_PASS_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_REPORTS_CONTRACT_PASS_H_

#include <cstdint>
#include <string>

#include "profiler/analysis/contract_checks.h"
#include "profiler/trace/import/chrome_trace_import.h"

namespace rblnsim::cli {

struct ContractFlags {
  bool sync = false;
  std::string contract;  // "", "current" or "c-abi"
  int64_t min_launches = 1;
  std::string launcher_contains;
};

analysis::CheckOptions CheckOptionsFor(const ContractFlags& flags,
                                       const trace::ImportResult& imported);

// The dialect the index must be built in for the check: --contract's, or the trace's own.
trace::Dialect ContractDialect(const analysis::CheckOptions& options, const trace::Trace& trace);

// "contract: current (detected from the trace)" and the rule-by-rule text.
std::string FormatContractText(const analysis::CheckReport& report);

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_REPORTS_CONTRACT_PASS_H_
