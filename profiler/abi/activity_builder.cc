#include "profiler/abi/activity_builder.h"

#include <algorithm>

#include "profiler/abi/clock_fit.h"

namespace rblnsim::abi {

using ::rbln::runtime::Activities;
using ::rbln::runtime::Activity;
using ::rbln::runtime::Launch;

Activity::Kind ActivityKindFor(SliceKind kind) {
  switch (kind) {
    case SliceKind::kCompute:
      return Activity::Kind::kDevice;
    case SliceKind::kDma:
      return Activity::Kind::kCopy;
    case SliceKind::kSync:
      return Activity::Kind::kCollective;
    case SliceKind::kRuntime:
      break;
  }
  return Activity::Kind::kHost;
}

Activities BuildActivities(const ProducerCapture& capture, double nominal_ghz) {
  Activities out;
  const ClockFit fit(capture.sync_points, nominal_ghz);
  out.activities.reserve(capture.slices.size());
  for (const DeviceSliceRecord& s : capture.slices) {
    Activity a;
    a.kind = ActivityKindFor(s.kind);
    a.device = 0;  // every chiplet belongs to the one card torch sees as rbln:0
    a.name =
        s.name_id < capture.names.size() ? std::string(capture.names[s.name_id]) : std::string();
    a.start_ns = fit.ToSteadyNs(s.start_cycles);
    a.end_ns = fit.ToSteadyNs(s.end_cycles);
    a.launch = s.launch_id > 0 ? static_cast<uint64_t>(s.launch_id) : 0;
    out.activities.push_back(std::move(a));
  }
  std::stable_sort(out.activities.begin(), out.activities.end(),
                   [](const Activity& x, const Activity& y) { return x.start_ns < y.start_ns; });
  out.launches.reserve(capture.markers.size());
  for (const MarkerRecord& m : capture.markers) {
    if (m.launch_id <= 0)
      continue;  // id 0 means "not part of a launch"; it cannot be a launch
    out.launches.push_back({static_cast<uint64_t>(m.launch_id), m.start_steady_ns, m.pid, m.tid});
  }
  std::stable_sort(out.launches.begin(), out.launches.end(),
                   [](const Launch& x, const Launch& y) { return x.id < y.id; });
  return out;
}

}  // namespace rblnsim::abi
