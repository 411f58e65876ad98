// The RBLN runtime's C++ activity API (torch-rbln stage F, namespace ::rbln::runtime): what the
// runtime recorded between beginActivities() and endActivities(). torch-rbln's current Kineto
// emitter and adapter compile against this header unchanged; librblnsim_runtime.so implements it
// with the simulated Rebel100 device (shared/reference/rbln-runtime-activities.md §2).
//
// Times are absolute std::chrono::steady_clock nanoseconds. A consumer turns them into wall
// time with its own (system - steady) anchor.
#ifndef RBLN_RUNTIME_ACTIVITY_H_
#define RBLN_RUNTIME_ACTIVITY_H_

#include <cstdint>
#include <string>
#include <vector>

#define RBLN_RUNTIME_API __attribute__((visibility("default")))

namespace rbln::runtime {

// One interval of device or runtime work.
struct Activity {
  // The value is the lane: the emitter uses it as the lane tid and as the index of its name
  // ("compute", "copy", "host", "collective").
  enum class Kind : uint8_t { kDevice = 0, kCopy = 1, kHost = 2, kCollective = 3 };

  Kind kind = Kind::kDevice;
  uint32_t device = 0;  // NPU index: one "NPU <device>" process row each
  std::string name;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t launch = 0;  // Launch::id of the run that produced it; 0: not part of a launch
};

// The host point where a thread queued a run on a stream.
struct Launch {
  uint64_t id = 0;  // non-zero, unique within a session
  int64_t ns = 0;   // steady-clock ns of the launch call
  int32_t pid = 0;  // OS pid and tid of the launching thread
  int32_t tid = 0;
};

struct Activities {
  std::vector<Activity> activities;
  std::vector<Launch> launches;
};

// Starts recording; anything recorded before is discarded. With the profiler off (RBLN_PROFILER
// not set when it is called) nothing is recorded and endActivities() returns empty lists.
RBLN_RUNTIME_API void beginActivities();

// Stops recording and hands over what was recorded since beginActivities(). Every record lies
// between the two calls on the steady clock: the call waits for device work still running, as
// a device synchronize would.
RBLN_RUNTIME_API Activities endActivities();

}  // namespace rbln::runtime

#endif  // RBLN_RUNTIME_ACTIVITY_H_
