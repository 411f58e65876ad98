#include "profiler/trace/arg_pool.h"

namespace rblnsim::trace {

namespace {
// The block header is three uint32; eight keeps every block on a word.
constexpr size_t kAlign = 8;
}  // namespace

char* ArgPool::Allocate(size_t bytes) {
  const size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
  if (rounded > free_bytes_) {
    // A block larger than a quarter of the pool's gets one of its own, and the current one
    // keeps its free tail for the small blocks that follow.
    if (rounded > kBlockBytes / 4) {
      blocks_.push_back(std::unique_ptr<char[]>(new char[rounded]));
      reserved_bytes_ += rounded;
      return blocks_.back().get();
    }
    blocks_.push_back(std::unique_ptr<char[]>(new char[kBlockBytes]));
    reserved_bytes_ += kBlockBytes;
    free_ = blocks_.back().get();
    free_bytes_ = kBlockBytes;
  }
  char* out = free_;
  free_ += rounded;
  free_bytes_ -= rounded;
  return out;
}

}  // namespace rblnsim::trace
