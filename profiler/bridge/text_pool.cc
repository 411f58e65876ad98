#include "profiler/bridge/text_pool.h"

#include <cstdint>
#include <cstring>

namespace rblnsim::bridge {

std::string_view TextPool::Keep(std::string_view text) {
  char* copy = arena_.Allocate(text.size() + 1);
  used_bytes_ += text.size();
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
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
  arena_.Reset();
}

}  // namespace rblnsim::bridge
