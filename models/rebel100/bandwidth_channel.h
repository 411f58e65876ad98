// A shared bandwidth resource (one chiplet's HBM, a PCIe link) that books time slots instead of
// arbitrating in the kernel scheduler (simulation-notes §2.2): a transfer occupies the channel
// for bytes/bandwidth, starting when the channel is free. Deterministic and O(1) per transfer.
#ifndef RBLNSIM_MODELS_REBEL100_BANDWIDTH_CHANNEL_H_
#define RBLNSIM_MODELS_REBEL100_BANDWIDTH_CHANNEL_H_

#include <algorithm>
#include <cstdint>

namespace rblnsim::rebel100 {

class BandwidthChannel {
 public:
  explicit BandwidthChannel(double bytes_per_s) : bytes_per_ns_(bytes_per_s * 1e-9) {}

  // Books |bytes| no earlier than |now_ns|; returns the time the last byte has moved.
  double Book(double now_ns, int64_t bytes) {
    const double start_ns = std::max(now_ns, free_at_ns_);
    free_at_ns_ = start_ns + static_cast<double>(bytes) / bytes_per_ns_;
    bytes_moved_ += bytes;
    return free_at_ns_;
  }

  double free_at_ns() const { return free_at_ns_; }
  int64_t bytes_moved() const { return bytes_moved_; }
  double bytes_per_ns() const { return bytes_per_ns_; }

 private:
  double bytes_per_ns_;
  double free_at_ns_ = 0.0;
  int64_t bytes_moved_ = 0;
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_BANDWIDTH_CHANNEL_H_
