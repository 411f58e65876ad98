// What a producer hands the C-ABI layer at the end of a session, independent of where it came
// from: device records still in device cycles, the host runtime's rbln_run markers in steady ns,
// and the clock-sync points that relate the two. Plain C++: no simulator types.
#ifndef RBLNSIM_PROFILER_ABI_PRODUCER_CAPTURE_H_
#define RBLNSIM_PROFILER_ABI_PRODUCER_CAPTURE_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
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

// Slice names in one buffer, each NUL-terminated, since the C-ABI hands them out as C strings. A
// session names hundreds of thousands of commands, each once: one string object per name cost
// an allocation and a copy for each.
class SliceNames {
 public:
  SliceNames() = default;
  SliceNames(std::initializer_list<std::string_view> names) {
    for (std::string_view name : names)
      Add(name);
  }

  size_t size() const { return begin_.size(); }
  // Room for |names| names of |bytes| characters in all, their NULs included.
  void Reserve(size_t names, size_t bytes) {
    begin_.reserve(names);
    text_.reserve(bytes);
  }
  // Valid while the list is not changed, moved or destroyed.
  const char* c_str(uint32_t id) const { return text_.data() + begin_[id]; }
  std::string_view operator[](uint32_t id) const { return c_str(id); }

  // Forgets where each name begins; the texts stay where they are (pointers from c_str() stay
  // valid), but c_str(), operator[] and size() no longer answer. For a holder that has taken
  // every pointer it needs: the index is eight bytes a name.
  void ReleaseIndex() { begin_ = std::vector<size_t>(); }

  uint32_t Add(std::string_view name) {
    text_.append(name);
    return End();
  }
  // A name written in place: append its text to Next(), then End() returns its id.
  std::string* Next() { return &text_; }
  uint32_t End() {
    text_.push_back('\0');
    begin_.push_back(next_begin_);
    next_begin_ = text_.size();
    return static_cast<uint32_t>(begin_.size() - 1);
  }

 private:
  std::string text_;
  std::vector<size_t> begin_;
  size_t next_begin_ = 0;
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
  SliceNames names;
  std::vector<std::vector<std::string>> category_sets;
  std::vector<DeviceSliceRecord> slices;
  std::vector<MarkerRecord> markers;
  std::vector<ClockSyncPoint> sync_points;
  uint64_t records_dropped = 0;
  uint64_t commands_timed_out = 0;
};

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_PRODUCER_CAPTURE_H_
