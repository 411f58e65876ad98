// The device profiler unit: stamps each command's start and end in device cycles into a finite
// record buffer. A full buffer drops records and counts every one; nothing is lost silently.
#ifndef RBLNSIM_MODELS_REBEL100_PROFILER_UNIT_H_
#define RBLNSIM_MODELS_REBEL100_PROFILER_UNIT_H_

#include <cmath>
#include <cstdint>
#include <utility>

#include "base/chunked_vector.h"
#include "models/rebel100/engine_types.h"

namespace rblnsim::compiler {
struct Program;
}

namespace rblnsim::rebel100 {

// The device's free-running cycle counter: its own offset and drift (ppm) against host time.
class DeviceClock {
 public:
  DeviceClock(double clock_ghz, double offset_ns, double drift_ppm)
      : ghz_(clock_ghz), offset_ns_(offset_ns), rate_(1.0 + drift_ppm * 1e-6) {}

  int64_t CyclesAt(double host_ns) const {
    return static_cast<int64_t>(std::floor((host_ns * rate_ + offset_ns_) * ghz_));
  }
  double clock_ghz() const { return ghz_; }

 private:
  double ghz_;
  double offset_ns_;
  double rate_;
};

struct DeviceRecord {
  int64_t launch_id = 0;
  const compiler::Program* program = nullptr;  // owned by the compile cache, outlives records
  int32_t command_index = 0;
  int32_t instance = 0;
  int64_t sequence = 0;
  int16_t chiplet = 0;
  EngineType engine = EngineType::kNeuralEngine;
  int16_t engine_instance = 0;
  int64_t start_cycles = 0;
  int64_t end_cycles = 0;
};

// The buffer's records, in the order the commands finished. Chunked, so a session of millions of
// commands writes each record once instead of copying the buffer at every doubling.
using RecordBuffer = ChunkedVector<DeviceRecord>;

class ProfilerUnit {
 public:
  ProfilerUnit(int64_t capacity, DeviceClock clock) : capacity_(capacity), clock_(clock) {}

  // Stamps a record of a command that ran [start_ns, end_ns] and returns it for the caller to
  // fill in place; nullptr (and one more drop counted) when the buffer is full.
  DeviceRecord* Record(double start_ns, double end_ns) {
    if (static_cast<int64_t>(records_.size()) >= capacity_) {
      ++dropped_;
      return nullptr;
    }
    DeviceRecord& record = records_.emplace_back();
    record.start_cycles = clock_.CyclesAt(start_ns);
    record.end_cycles = clock_.CyclesAt(end_ns);
    return &record;
  }

  // Empties the buffer for a new session (the runtime drains it at session end).
  void Reset() {
    records_.clear();
    dropped_ = 0;
  }

  const RecordBuffer& records() const { return records_; }
  // Hands the session's records over and empties the buffer.
  RecordBuffer TakeRecords() { return std::exchange(records_, {}); }
  int64_t dropped() const { return dropped_; }
  const DeviceClock& clock() const { return clock_; }

 private:
  int64_t capacity_;
  DeviceClock clock_;
  RecordBuffer records_;
  int64_t dropped_ = 0;
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_PROFILER_UNIT_H_
