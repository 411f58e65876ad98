// Owned copies of the strings one export carries, in a few large blocks. A capture repeats a few
// slice names, category sets and annotation keys hundreds of thousands of times, each time
// through the same producer pointer: one copy per distinct pointer and views into it replace
// several heap strings per slice.
#ifndef RBLNSIM_PROFILER_BRIDGE_TEXT_POOL_H_
#define RBLNSIM_PROFILER_BRIDGE_TEXT_POOL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/block_arena.h"

namespace rblnsim::bridge {

class TextPool {
 public:
  TextPool() = default;
  // Views stay valid across moves (blocks are heap-allocated and never move), not across copies.
  TextPool(TextPool&&) noexcept = default;
  TextPool& operator=(TextPool&&) noexcept = default;
  TextPool(const TextPool&) = delete;
  TextPool& operator=(const TextPool&) = delete;

  // A view of the pool's own copy of |text|, NUL-terminated (data() is a C string, also for
  // an empty text).
  std::string_view Keep(std::string_view text);
  // The same for a producer's C string. While the producer's export is alive a pointer names one
  // text, so a pointer seen recently returns the copy made then, without reading the text again.
  // Only valid within one export: a later export may reuse the address for other text.
  std::string_view KeepCString(const char* text);

  size_t bytes() const { return used_bytes_; }

  // Forgets every copy (views into them die) but keeps the block being filled for the next ones:
  // a pool reused for one slice after another allocates once.
  void Reset();

 private:
  struct Seen {
    const char* source = nullptr;
    std::string_view copy;
    uint64_t generation = 0;  // the pool's generation the copy belongs to
  };

  BlockArena arena_{size_t{64} << 10, 1};
  size_t used_bytes_ = 0;
  uint64_t generation_ = 0;  // advanced by Reset, which so forgets every Seen at once
  // Direct-mapped by pointer: a capture has a handful of distinct names and keys.
  std::array<Seen, 256> seen_{};
};

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_TEXT_POOL_H_
