// Bump allocation in large blocks, for many small pieces that live and die together (the texts
// of one export, the arg blocks of a trace's events). A piece costs no header and no call into
// the allocator, and the pieces lie together on few pages. A piece larger than a quarter of a
// block gets a block of its own, so the block being filled keeps its free tail for the small
// ones that follow.
#ifndef RBLNSIM_BASE_BLOCK_ARENA_H_
#define RBLNSIM_BASE_BLOCK_ARENA_H_

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace rblnsim {

class BlockArena {
 public:
  // Blocks of |block_bytes|; every piece starts at a multiple of |align| (a power of two, at
  // most the 16 bytes operator new guarantees).
  BlockArena(size_t block_bytes, size_t align) : block_bytes_(block_bytes), align_(align) {}
  // Pieces stay where they are across moves (blocks never move), not across copies.
  BlockArena(BlockArena&&) noexcept = default;
  BlockArena& operator=(BlockArena&&) noexcept = default;
  BlockArena(const BlockArena&) = delete;
  BlockArena& operator=(const BlockArena&) = delete;

  char* Allocate(size_t bytes) {
    const size_t rounded = (bytes + align_ - 1) & ~(align_ - 1);
    if (rounded > free_bytes_) {
      if (rounded > block_bytes_ / 4)
        return NewBlock(rounded);
      free_ = current_ = NewBlock(block_bytes_);
      free_bytes_ = block_bytes_;
    }
    char* out = free_;
    free_ += rounded;
    free_bytes_ -= rounded;
    return out;
  }

  // Frees every piece: the blocks go, but the one being filled, which is emptied for the next
  // pieces (an arena reused for one small batch after another allocates once).
  void Reset() {
    std::unique_ptr<char[]> kept;
    for (std::unique_ptr<char[]>& block : blocks_) {
      if (block.get() == current_)
        kept = std::move(block);
    }
    blocks_.clear();
    reserved_bytes_ = 0;
    free_ = current_ = nullptr;
    free_bytes_ = 0;
    if (kept) {
      free_ = current_ = kept.get();
      free_bytes_ = block_bytes_;
      reserved_bytes_ = block_bytes_;
      blocks_.push_back(std::move(kept));
    }
  }

  // Bytes of the blocks held.
  size_t reserved_bytes() const { return reserved_bytes_; }

 private:
  char* NewBlock(size_t bytes) {
    blocks_.push_back(std::unique_ptr<char[]>(new char[bytes]));
    reserved_bytes_ += bytes;
    return blocks_.back().get();
  }

  size_t block_bytes_;
  size_t align_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* current_ = nullptr;  // the standard-size block free_ points into
  char* free_ = nullptr;
  size_t free_bytes_ = 0;
  size_t reserved_bytes_ = 0;
};

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_BLOCK_ARENA_H_
