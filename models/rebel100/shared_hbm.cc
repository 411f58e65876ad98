#include "models/rebel100/shared_hbm.h"

#include <algorithm>
#include <limits>

namespace rblnsim::rebel100 {

namespace {

constexpr double kUncapped = std::numeric_limits<double>::infinity();

}  // namespace

void SharedHbm::Resume(int owner, double now_ns, double remaining_bytes, double max_bytes_per_ns) {
  Advance(now_ns);
  Stream& stream = streams_.emplace_back();
  stream.owner = owner;
  stream.remaining_bytes = remaining_bytes;
  stream.cap_bytes_per_ns = max_bytes_per_ns > 0 ? max_bytes_per_ns : kUncapped;
  Share();
}

void SharedHbm::End(int owner, double now_ns) {
  Advance(now_ns);
  for (size_t i = 0; i < streams_.size(); ++i) {
    if (streams_[i].owner == owner) {
      streams_[i] = streams_.back();
      streams_.pop_back();
      break;
    }
  }
  Share();
}

void SharedHbm::Advance(double now_ns) {
  const double elapsed_ns = now_ns - updated_ns_;
  if (elapsed_ns > 0) {
    for (Stream& stream : streams_) {
      stream.remaining_bytes =
          std::max(0.0, stream.remaining_bytes - stream.rate_bytes_per_ns * elapsed_ns);
    }
  }
  updated_ns_ = std::max(updated_ns_, now_ns);
}

// Max-min fairness: streams in order of their caps each take the smaller of their cap and an
// equal split of what the slower ones left. A stream with nothing left to move takes nothing.
void SharedHbm::Share() {
  // One stream (the common case: a chain of commands on a chiplet) takes the channel up to its
  // cap without the sort.
  if (streams_.size() == 1) {
    Stream& alone = streams_[0];
    alone.rate_bytes_per_ns =
        alone.remaining_bytes > 0 ? std::min(alone.cap_bytes_per_ns, bytes_per_ns_) : 0;
    return;
  }
  order_.clear();
  for (int i = 0; i < static_cast<int>(streams_.size()); ++i) {
    streams_[i].rate_bytes_per_ns = 0;
    if (streams_[i].remaining_bytes > 0)
      order_.push_back(i);
  }
  std::sort(order_.begin(), order_.end(), [this](int a, int b) {
    const Stream& x = streams_[a];
    const Stream& y = streams_[b];
    return x.cap_bytes_per_ns != y.cap_bytes_per_ns ? x.cap_bytes_per_ns < y.cap_bytes_per_ns
                                                    : x.owner < y.owner;
  });
  double left = bytes_per_ns_;
  for (size_t k = 0; k < order_.size(); ++k) {
    Stream& stream = streams_[order_[k]];
    const double share = left / static_cast<double>(order_.size() - k);
    stream.rate_bytes_per_ns = std::min(stream.cap_bytes_per_ns, share);
    left -= stream.rate_bytes_per_ns;
  }
}

}  // namespace rblnsim::rebel100
