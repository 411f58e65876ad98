#include "profiler/bridge/text_pool.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace rblnsim::bridge {

namespace {
constexpr size_t kBlockBytes = 64 * 1024;
}  // namespace

std::string_view TextPool::Keep(std::string_view text) {
  if (text.empty())
    return {};
  char* copy = Allocate(text.size());
  std::memcpy(copy, text.data(), text.size());
  return {copy, text.size()};
}

std::string_view TextPool::KeepCString(const char* text) {
  const auto address = reinterpret_cast<uintptr_t>(text);
  Seen& slot = seen_[(address ^ (address >> 8) ^ (address >> 16)) % seen_.size()];
  if (slot.source != text || slot.generation != generation_) {
    slot.source = text;
    slot.copy = Keep(text);
    slot.generation = generation_;
  }
  return slot.copy;
}

void TextPool::Reset() {
  ++generation_;
  used_bytes_ = 0;
  // The block being filled is kept (a text longer than a block has one of its own, never kept).
  std::unique_ptr<char[]> current;
  for (std::unique_ptr<char[]>& block : blocks_) {
    if (block.get() == current_block_)
      current = std::move(block);
  }
  blocks_.clear();
  if (current) {
    blocks_.push_back(std::move(current));
    free_ = current_block_;
    free_bytes_ = kBlockBytes;
  } else {
    current_block_ = free_ = nullptr;
    free_bytes_ = 0;
  }
}

char* TextPool::Allocate(size_t bytes) {
  used_bytes_ += bytes;
  if (bytes > free_bytes_) {
    // A text longer than a block gets a block of its own; the current block keeps its tail.
    const size_t size = std::max(bytes, kBlockBytes);
    blocks_.push_back(std::unique_ptr<char[]>(new char[size]));
    if (size > kBlockBytes)
      return blocks_.back().get();
    free_ = current_block_ = blocks_.back().get();
    free_bytes_ = size;
  }
  char* out = free_;
  free_ += bytes;
  free_bytes_ -= bytes;
  return out;
}

}  // namespace rblnsim::bridge
