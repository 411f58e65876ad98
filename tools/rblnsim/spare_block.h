// The last large block freed, kept whole for the next large allocation it fits. A run, an export
// or an import frees big arrays and allocates others of about their size right after (a capture's
// records, then the bridge's copy of them; the C-ABI export, then the events made from it). Given
// back to the system, the freed block's pages go with it and the next block's are faulted in and
// zeroed anew: on a virtual machine that takes freed memory back that is the dearest part of the
// step (bench/profiles.md, 2026-12-07). Kept and reused, its pages are already there. One block,
// and only up to a bound: a spare nothing reuses holds memory the process no longer needs.
#ifndef RBLNSIM_TOOLS_RBLNSIM_SPARE_BLOCK_H_
#define RBLNSIM_TOOLS_RBLNSIM_SPARE_BLOCK_H_

#include <cstddef>
#include <mutex>
#include <utility>

namespace rblnsim {

class SpareBlock {
 public:
  // Blocks of more than |max_bytes| are never kept.
  explicit constexpr SpareBlock(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  SpareBlock(const SpareBlock&) = delete;
  SpareBlock& operator=(const SpareBlock&) = delete;

  // Offers |block| of |bytes| (its whole size as allocated), just freed by its owner. Returns the
  // block the caller must free now: the previous spare when this one is kept, else |block|.
  void* Keep(void* block, std::size_t bytes) {
    if (block == nullptr || bytes > max_bytes_)
      return block;
    std::lock_guard<std::mutex> lock(mutex_);
    void* previous = std::exchange(block_, block);
    bytes_ = bytes;
    return previous;
  }

  // The spare, given up, when a block of |bytes| fits it and leaves at most a quarter of it
  // unused; else nullptr, and a spare that does not fit is given up through |to_free| for the
  // caller to free before it allocates, so that the two are never held at once.
  void* Take(std::size_t bytes, void** to_free) {
    std::lock_guard<std::mutex> lock(mutex_);
    *to_free = nullptr;
    if (block_ == nullptr)
      return nullptr;
    void* spare = std::exchange(block_, nullptr);
    if (bytes <= bytes_ && bytes_ - bytes <= bytes_ / 4)
      return spare;
    *to_free = spare;
    return nullptr;
  }

 private:
  std::mutex mutex_;
  void* block_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t max_bytes_;
};

}  // namespace rblnsim

#endif  // RBLNSIM_TOOLS_RBLNSIM_SPARE_BLOCK_H_
