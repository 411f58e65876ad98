// ac2g flow arrows between each launch's rbln_run marker and the device slices it produced, under
// the rules torch-rbln's alignment test and PyTorch enforce: one start per launch at the marker,
// a finish on every device slice of that launch, unique ids, never a finish without a start and
// never two starts for one id (PyTorch asserts on duplicate starts).
#ifndef RBLNSIM_PROFILER_BRIDGE_FLOWS_H_
#define RBLNSIM_PROFILER_BRIDGE_FLOWS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/rbln_vocabulary.h"
#include "profiler/bridge/bridge_result.h"
#include "profiler/bridge/export_copy.h"
#include "profiler/trace/trace.h"

namespace rblnsim::bridge {

// The name of the per-launch source marker the runtime emits on the launching host thread.
inline constexpr std::string_view kLaunchMarkerName = platform::kCAbiLaunchMarker;

// How the converted events take part in launch correlation, before their flows are assigned.
// A session converts millions of slices: a sixteen-byte tag per slice beside the events was the
// largest block the bridge held for its sink call's peak. So an event's flow_id carries its
// launch id until AssignFlows (0 when it has none; only positive ids count), whether it is a
// device slice follows from its category, and only "is a RUNTIME slice named rbln_run" (not
// derivable: a slice of an unknown kind has the runtime category too) takes a bit of its own.
struct LaunchTags {
  std::vector<bool> is_marker;  // per event

  // |launch_id| as LaunchIdOf's: 0 when the event has none.
  void Add(trace::Event* event, int64_t launch_id, bool marker) {
    event->flow_id = launch_id > 0 ? static_cast<uint64_t>(launch_id) : 0;
    is_marker.push_back(marker);
  }
};

// The categories the bridge treats as device work of a launch: they carry device/stream/
// correlation args and receive flow finishes. Unlike trace::IsDeviceCategory this includes the
// SYNC kind's privateuse1_driver, which PyTorch maps to the CPU but which is still device work.
inline bool IsLaunchDeviceCategory(trace::Category category) {
  return category == trace::Category::kKernel || category == trace::Category::kGpuMemcpy ||
         category == trace::Category::kPrivateUse1Driver;
}

// The first "launch_id" annotation of |annotations| (a JSON number or a quoted decimal) as a
// positive integer; 0 when there is none or it is not one. A plain integer, not a
// std::optional: GCC returned that through the stack with a one-byte store for its flag read
// back as a word, a store-forwarding stall per slice (perf annotate: half this function's time).
int64_t AnnotatedLaunchId(std::span<const CopiedAnnotation> annotations);

// The launch a slice belongs to: its annotated launch id (AnnotatedLaunchId), else its corr_id;
// 0 when neither is a positive integer.
inline int64_t LaunchIdOf(int64_t annotated_launch_id, const CopiedSlice& slice) {
  if (annotated_launch_id > 0)
    return annotated_launch_id;
  return slice.corr_id > 0 ? slice.corr_id : 0;
}

// Sets flow_id/flow_role on |events| (|tags| and their flow_ids describe them, LaunchTags) and
// counts launches, flows, duplicate markers, markers without device work and orphan device
// slices in |stats|. The flow id is the launch id, which is unique per launch by construction;
// an event without a flow is left with flow_id 0. At most UINT32_MAX events: an export counts
// its slices in 32 bits.
void AssignFlows(const LaunchTags& tags, std::vector<trace::Event>* events, BridgeStats* stats);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_FLOWS_H_
