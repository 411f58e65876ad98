// ac2g flow arrows between each launch's rbln_run marker and the device slices it produced, under
// the rules torch-rbln's alignment test and PyTorch enforce: one start per launch at the marker,
// a finish on every device slice of that launch, unique ids, never a finish without a start and
// never two starts for one id (PyTorch asserts on duplicate starts).
#ifndef RBLNSIM_PROFILER_BRIDGE_FLOWS_H_
#define RBLNSIM_PROFILER_BRIDGE_FLOWS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bridge {

// The name of the per-launch source marker the runtime emits on the launching host thread.
inline constexpr std::string_view kLaunchMarkerName = platform::kCAbiLaunchMarker;

// How one converted event takes part in launch correlation.
// Sixteen bytes, one per slice of a session (millions): the launch id is 0 when there is none,
// as only positive ids count.
struct LaunchTag {
  int64_t launch_id = 0;   // only positive ids: Kineto emits no flow for id 0
  bool is_marker = false;  // a RUNTIME slice named rbln_run
  bool is_device = false;  // a kernel, gpu_memcpy or privateuse1_driver slice

  bool has_launch_id() const { return launch_id > 0; }
};
static_assert(sizeof(LaunchTag) == 16);

// The launch a slice belongs to: its integer "launch_id" annotation (a JSON number or a quoted
// decimal), else its corr_id; nullopt when neither is a positive integer.
std::optional<int64_t> LaunchIdOf(const CopiedExport& exp, const CopiedSlice& slice);

// Sets flow_id/flow_role on |events| (tags[i] describes events[i]) and counts launches, flows,
// duplicate markers, markers without device work and orphan device slices in |stats|. The flow
// id is the launch id, which is unique per launch by construction. At most UINT32_MAX tags: an
// export counts its slices in 32 bits.
void AssignFlows(const std::vector<LaunchTag>& tags,
                 std::vector<trace::Event>* events,
                 BridgeStats* stats);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_FLOWS_H_
