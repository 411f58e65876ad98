// The two trace dialects torch-rbln's Kineto bridge has written, and the few names that tell them
// apart, in one place so the bridge, the reports and the contract checks never disagree:
//   - c-abi (bridge over the rbln_kineto C-ABI): devices and engine lanes named by the producer,
//     one "rbln_run" marker per launch on the launching thread, flow id = launch id;
//   - current (bridge over rbln::runtime::beginActivities/endActivities): one "NPU <id>" process
//     row per device, lanes by activity kind (compute/copy/host/collective), one zero-length
//     "rbln launch" marker per launch that ran something, flow ids in [0xF0000000, 0xF1000000).
// Both mark every slice of a launch with an integer "launch_id" arg.
#ifndef RBLNSIM_PROFILER_TRACE_DIALECT_H_
#define RBLNSIM_PROFILER_TRACE_DIALECT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/rbln_vocabulary.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace {

enum class Dialect : uint8_t { kCAbi = 0, kCurrent = 1 };

// "c-abi" / "current": the spelling of the CLI's --bridge and --contract values.
std::string_view DialectName(Dialect dialect);
// The inverse of DialectName; nullopt for anything else.
std::optional<Dialect> DialectFromName(std::string_view name);

// The arg both dialects put on every slice of a launch (and on the launch's marker).
inline constexpr std::string_view kLaunchIdArg = platform::kLaunchIdArg;

inline constexpr std::string_view kCAbiMarkerName = platform::kCAbiLaunchMarker;
inline constexpr std::string_view kCurrentMarkerName = platform::kCurrentLaunchMarker;
std::string_view LaunchMarkerName(Dialect dialect);

// A launch marker of either dialect: a privateuse1_runtime slice with one of the two names. It is
// a runtime event on the host thread, never a device event or a CPU op.
bool IsLaunchMarker(const Event& event);
// A launch marker of |dialect| only.
bool IsLaunchMarker(const Event& event, Dialect dialect);

// The current dialect's flow ids: launch i (its index in the session's launch list) gets
// kFlowIdBlockBegin + i; launches past the block get no arrow. Ids outside the block belong to
// other producers and are none of this bridge's business.
inline constexpr uint64_t kFlowIdBlockBegin = 0xF0000000u;
inline constexpr uint64_t kFlowIdBlockEnd = 0xF1000000u;  // exclusive
inline constexpr uint64_t kFlowIdBlockSize = kFlowIdBlockEnd - kFlowIdBlockBegin;
inline bool InFlowIdBlock(uint64_t flow_id) {
  return flow_id >= kFlowIdBlockBegin && flow_id < kFlowIdBlockEnd;
}

// Current dialect device rows: pid = device id, name "NPU <id>".
inline constexpr std::string_view kNpuRowPrefix = "NPU ";
std::string NpuRowName(int64_t device);
bool IsNpuRowName(std::string_view process_name);

// Current dialect lanes: tid = the activity kind's value, named after it.
inline constexpr int64_t kLaneCount = 4;
inline constexpr std::string_view kLaneNames[kLaneCount] = {"compute", "copy", "host",
                                                            "collective"};
// The lane name of |tid|; "" outside [0, kLaneCount).
std::string_view LaneName(int64_t tid);
// The lane a slice of |category| must sit on: kernel → compute, gpu_memcpy → copy,
// privateuse1_runtime → host, privateuse1_driver → collective; nullopt for any other category.
std::optional<int64_t> LaneForCategory(Category category);
// The lanes as a type; the value is the runtime's Activity::Kind and the lane's tid.
enum class LaneKind : uint8_t { kCompute = 0, kCopy = 1, kHost = 2, kCollective = 3 };
// The lane named |name| ("compute", ...); nullopt for any other name.
std::optional<LaneKind> LaneKindFromName(std::string_view name);
// A device row of the current dialect: any of its process_name values starts with "NPU ".
bool IsNpuProcess(const ProcessRow& row);
// Whether any of |trace|'s process rows is an NPU row: the first sign DetectDialect reads.
bool HasNpuProcessRow(const Trace& trace);

// A device command's name without the per-run "i{instance}_{sequence}_W{workload}_" prefix of
// the default naming template: "i1_2_W0_mm_1" -> "mm_1". Other names are returned unchanged.
std::string_view CommandKey(std::string_view name);
// An engine lane's name without its instance number: "Neural DMA 3" -> "Neural DMA".
std::string_view LaneClassName(std::string_view thread_name);

// Current when the trace has an "rbln launch" marker or a process row named "NPU ..." (as its
// first or a later, conflicting process_name); c-abi
// otherwise (also for a trace with no device activity at all, where the two cannot differ).
Dialect DetectDialect(const Trace& trace);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_DIALECT_H_
