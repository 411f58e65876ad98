// The two trace dialects the checks and analyses read, and the vocabulary of the newer one
// (shared/reference/rbln-runtime-activities.md §3):
//  - c-abi (torch-rbln's older C-ABI bridge): device rows and engine lanes named by the producer,
//    an "rbln_run" marker per launch, device slices carrying its launch_id;
//  - current (today's runtime-activities bridge): one "NPU <id>" process row per device
//    (pid = device id), lanes tid = kind value named compute / copy / host / collective, a
//    zero-length "rbln launch" marker on the launching thread carrying the launch_id and an ac2g
//    flow start with an id in [0xF0000000, 0xF1000000), a flow finish on every activity.
//
// Dialect, DetectDialect and IsLaunchMarker stand in for the shared profiler/trace/dialect.h
// (same names and meaning); once that header exists, this block becomes `using` declarations of
// the trace:: ones and nothing else changes.
#ifndef RBLNSIM_PROFILER_ANALYSIS_DIALECT_RULES_H_
#define RBLNSIM_PROFILER_ANALYSIS_DIALECT_RULES_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

// ---- stand-in for profiler/trace/dialect.h ----
enum class Dialect : uint8_t { kCAbi = 0, kCurrent = 1 };

// Current when the trace holds an "rbln launch" marker or a process row named "NPU <id>"
// (a second, conflicting process_name counts too); c-abi otherwise, also for an empty trace.
Dialect DetectDialect(const trace::Trace& trace);

// A launch marker of either dialect: a privateuse1_runtime event named "rbln_run" or
// "rbln launch". A trace holds only one of the two, so readers need not know which.
bool IsLaunchMarker(const trace::Event& event);
// ---- end of stand-in ----

inline constexpr char kCAbiMarkerName[] = "rbln_run";
inline constexpr char kCurrentMarkerName[] = "rbln launch";
inline constexpr std::string_view kNpuRowPrefix = "NPU ";
// The flow ids the current bridge owns; ids outside belong to other producers.
inline constexpr uint64_t kFlowBlockBegin = 0xF0000000u;
inline constexpr uint64_t kFlowBlockEnd = 0xF1000000u;

const char* DialectName(Dialect dialect);  // "c-abi", "current"
std::optional<Dialect> DialectFromName(std::string_view name);
// The marker name of |dialect|.
const char* MarkerNameOf(Dialect dialect);

inline bool InFlowBlock(uint64_t id) {
  return id >= kFlowBlockBegin && id < kFlowBlockEnd;
}

// A device row of the current dialect: any of its process_name values starts with "NPU ".
bool IsNpuProcess(const trace::ProcessRow& row);

// The lanes of an NPU row; the value is the runtime's Activity::Kind and the lane's tid.
enum class LaneKind : uint8_t { kCompute = 0, kCopy = 1, kHost = 2, kCollective = 3 };
std::string_view LaneName(LaneKind kind);
std::optional<LaneKind> LaneFromName(std::string_view name);
// kernel -> compute, gpu_memcpy -> copy, privateuse1_runtime -> host,
// privateuse1_driver -> collective; nullopt for any other category.
std::optional<LaneKind> LaneOfCategory(trace::Category category);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_DIALECT_RULES_H_
