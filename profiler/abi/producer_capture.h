// What a producer hands the C-ABI layer at the end of a session, independent of where it came
// from: device records still in device cycles, the host runtime's rbln_run markers in steady ns,
// and the clock-sync points that relate the two. Plain C++: no simulator types.
#ifndef RBLNSIM_PROFILER_ABI_PRODUCER_CAPTURE_H_
#define RBLNSIM_PROFILER_ABI_PRODUCER_CAPTURE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rblnsim::abi {

struct ProducerDevice {
  int32_t pid = 0;
  std::string name;
};

struct ProducerLane {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  std::string name;
};

// Values of RblnKinetoActivityKind.
enum class SliceKind : int32_t { kRuntime = 0, kCompute = 1, kDma = 2, kSync = 3 };

struct DeviceSliceRecord {
  int32_t device_pid = 0;
  int32_t resource_tid = 0;
  uint32_t name_id = 0;      // into ProducerCapture::names
  uint32_t category_id = 0;  // into ProducerCapture::category_sets
  int64_t start_cycles = 0;
  int64_t end_cycles = 0;
  int64_t launch_id = 0;
  SliceKind kind = SliceKind::kCompute;
};

struct MarkerRecord {
  int32_t pid = 0;
  int32_t tid = 0;
  int64_t start_steady_ns = 0;
  int64_t end_steady_ns = 0;
  int64_t launch_id = 0;
};

// One reading of (device cycle counter, host steady clock) taken at the same instant.
struct ClockSyncPoint {
  int64_t device_cycles = 0;
  int64_t steady_ns = 0;
};

struct ProducerCapture {
  std::vector<ProducerDevice> devices;
  std::vector<ProducerLane> lanes;
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> category_sets;
  std::vector<DeviceSliceRecord> slices;
  std::vector<MarkerRecord> markers;
  std::vector<ClockSyncPoint> sync_points;
  uint64_t records_dropped = 0;
  uint64_t commands_timed_out = 0;
};

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_PRODUCER_CAPTURE_H_
