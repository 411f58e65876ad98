// One chiplet's HBM shared by the commands that stream through it at once, as a fluid: at every
// instant each active stream gets its max-min fair share of the bandwidth, capped at the pace its
// engine can take the bytes (water-filling). A small transfer beside a weight stream so gets half
// the channel instead of waiting behind it, and a compute-bound matmul, which streams only as fast
// as its array consumes, leaves the rest to others. Rates change only when a stream starts or
// ends, so between those instants every projected end is exact: the executor re-projects on each
// change and never ticks.
#ifndef RBLNSIM_MODELS_REBEL100_SHARED_HBM_H_
#define RBLNSIM_MODELS_REBEL100_SHARED_HBM_H_

#include <cstdint>
#include <limits>
#include <vector>

namespace rblnsim::rebel100 {

class SharedHbm {
 public:
  explicit SharedHbm(double bytes_per_s) : bytes_per_ns_(bytes_per_s * 1e-9) {}

  // Starts |owner|'s stream of |bytes| at |now_ns|, at most |max_bytes_per_ns| (0: no cap but the
  // channel). An owner has at most one stream.
  void Start(int owner, double now_ns, int64_t bytes, double max_bytes_per_ns) {
    CountBytes(bytes);
    Resume(owner, now_ns, static_cast<double>(bytes), max_bytes_per_ns);
  }
  // The bytes of a stream the caller times alone while nothing else uses the channel; it joins
  // with Resume(its bytes left) when something else starts.
  void CountBytes(int64_t bytes) { bytes_moved_ += bytes; }
  void Resume(int owner, double now_ns, double remaining_bytes, double max_bytes_per_ns);
  // Ends |owner|'s stream at |now_ns| (its command completed or was cut short).
  void End(int owner, double now_ns);

  // Calls f(owner, end_ns) for every stream with bytes left, |end_ns| being when its last byte
  // moves at the current rates, seen from the last Start or End (infinite when its rate
  // underflowed: the caller's timeout cuts it). A stream whose bytes have moved is skipped: its
  // end is already behind it.
  template <typename F>
  void ForEachProjectedEnd(F&& f) const {
    for (const Stream& stream : streams_) {
      if (!(stream.remaining_bytes > 0))
        continue;
      f(stream.owner, stream.rate_bytes_per_ns > 0
                          ? updated_ns_ + stream.remaining_bytes / stream.rate_bytes_per_ns
                          : std::numeric_limits<double>::infinity());
    }
  }

  int active() const { return static_cast<int>(streams_.size()); }
  int64_t bytes_moved() const { return bytes_moved_; }
  double bytes_per_ns() const { return bytes_per_ns_; }

 private:
  struct Stream {
    int owner = 0;
    double remaining_bytes = 0;
    double cap_bytes_per_ns = 0;
    double rate_bytes_per_ns = 0;
  };
  void Advance(double now_ns);
  void Share();

  double bytes_per_ns_;
  double updated_ns_ = 0;
  int64_t bytes_moved_ = 0;
  std::vector<Stream> streams_;
  std::vector<int> order_;  // streams_ by cap, for water-filling
};

}  // namespace rblnsim::rebel100

#endif  // RBLNSIM_MODELS_REBEL100_SHARED_HBM_H_
