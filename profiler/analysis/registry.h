// Every analysis that reads a trace, in one list. Each entry names the event args it reads and
// can run itself over an index with default options; the list yields the args an importer must
// keep (ImportOptions::keep_args), so an analysis added here is never starved of its args under
// `rblnsim analyze` / `check` while it sees them all under `run` (which reads no file). A test
// runs every entry over traces imported with KeptArgKeys() and with every arg, and requires equal
// results.
//
// To add an analysis: write it over index::TraceIndex, give it an ...ArgKeys() function listing
// the args it reads, and add an entry to Analyses() in registry.cc.
#ifndef RBLNSIM_PROFILER_ANALYSIS_REGISTRY_H_
#define RBLNSIM_PROFILER_ANALYSIS_REGISTRY_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/index/trace_index.h"

namespace rblnsim::analysis {

struct AnalysisEntry {
  std::string_view name;  // "contract", "overhead", "latency", "window_overrun", ...
  // Every event arg the analysis, its reports and plots read.
  std::vector<std::string> (*arg_keys)();
  // Runs it over |index| with default options; returns its whole result as text (its JSON, and
  // the plots it draws), so two runs can be compared byte for byte.
  std::string (*run)(const index::TraceIndex& index);
};

// In the order the commands run them.
std::span<const AnalysisEntry> Analyses();

// The args the analyses named in |names| read, each once, in registration order; every
// registered analysis's when |names| is empty. An unknown name contributes nothing.
std::vector<std::string> KeptArgKeys(std::span<const std::string_view> names = {});

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_REGISTRY_H_
