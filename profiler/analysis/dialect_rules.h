// The two trace dialects the checks and analyses read, and the vocabulary of the newer one
// (shared/reference/rbln-runtime-activities.md §3):
//  - c-abi (torch-rbln's older C-ABI bridge): device rows and engine lanes named by the producer,
//    an "rbln_run" marker per launch, device slices carrying its launch_id;
//  - current (today's runtime-activities bridge): one "NPU <id>" process row per device
//    (pid = device id), lanes tid = kind value named compute / copy / host / collective, a
//    zero-length "rbln launch" marker on the launching thread carrying the launch_id and an ac2g
//    flow start with an id in [0xF0000000, 0xF1000000), a flow finish on every activity.
//
// The dialect vocabulary itself lives in profiler/trace/dialect.h (shared with the bridge and the
// reports); this header adds what only the checks and analyses need.
#ifndef RBLNSIM_PROFILER_ANALYSIS_DIALECT_RULES_H_
#define RBLNSIM_PROFILER_ANALYSIS_DIALECT_RULES_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "profiler/trace/dialect.h"
#include "profiler/trace/trace.h"

namespace rblnsim::analysis {

using trace::DetectDialect;  // also current when a pid's second process_name is "NPU <id>"
using trace::Dialect;
using trace::DialectFromName;
using trace::IsLaunchMarker;  // either dialect's marker
using trace::kCAbiMarkerName;
using trace::kCurrentMarkerName;
using trace::kLaunchIdArg;
using trace::kNpuRowPrefix;

// The flow ids the current bridge owns; ids outside belong to other producers.
inline constexpr uint64_t kFlowBlockBegin = trace::kFlowIdBlockBegin;
inline constexpr uint64_t kFlowBlockEnd = trace::kFlowIdBlockEnd;
inline bool InFlowBlock(uint64_t id) {
  return trace::InFlowIdBlock(id);
}

// The marker name of |dialect|.
const char* MarkerNameOf(Dialect dialect);

using trace::IsNpuProcess;  // any of the row's process_name values starts with "NPU "

// The lanes of an NPU row; the value is the runtime's Activity::Kind and the lane's tid.
using trace::LaneKind;
std::string_view LaneName(LaneKind kind);
std::optional<LaneKind> LaneFromName(std::string_view name);
// kernel -> compute, gpu_memcpy -> copy, privateuse1_runtime -> host,
// privateuse1_driver -> collective; nullopt for any other category.
std::optional<LaneKind> LaneOfCategory(trace::Category category);

}  // namespace rblnsim::analysis

#endif  // RBLNSIM_PROFILER_ANALYSIS_DIALECT_RULES_H_
