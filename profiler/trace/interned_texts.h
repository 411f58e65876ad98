// A process-wide, append-only table of texts with dense ids, for the arg-key table (arg_keys.h)
// and the shared arg values (shared_text.h). Bounded: past kCapacity texts nothing is added, so a
// crafted trace cannot grow it without limit. Lookups and additions take a lock; reading a text
// by its id takes none, because each slot is written once, before its id is handed out, and a
// stored text never moves.
#ifndef RBLNSIM_PROFILER_TRACE_INTERNED_TEXTS_H_
#define RBLNSIM_PROFILER_TRACE_INTERNED_TEXTS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rblnsim::trace {

template <uint32_t kCapacity>
class InternedTexts {
 public:
  // The id of |text|; when absent, it is added if |add| and there is room, else nullopt.
  // |*count| (optional) gets the table's size as of this lookup, under the same lock: a caller
  // that remembers an absent answer knows it holds until the size changes.
  std::optional<uint32_t> Lookup(std::string_view text, bool add, uint32_t* count = nullptr) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::optional<uint32_t> id;
    if (const auto found = ids_.find(text); found != ids_.end()) {
      id = found->second;
    } else if (add && texts_.size() < kCapacity) {
      const std::string& stored = texts_.emplace_back(text);
      id = static_cast<uint32_t>(texts_.size() - 1);
      ids_.emplace(stored, *id);
      slots_[*id].store(&stored, std::memory_order_release);
      count_.store(*id + 1, std::memory_order_release);
    }
    if (count != nullptr)
      *count = count_.load(std::memory_order_relaxed);
    return id;
  }

  // The text of an id Lookup returned, from any thread.
  std::string_view Text(uint32_t id) const { return *slots_[id].load(std::memory_order_acquire); }
  uint32_t size() const { return count_.load(std::memory_order_acquire); }

 private:
  std::mutex mutex_;
  std::deque<std::string> texts_;  // a deque: a stored text never moves
  std::unordered_map<std::string_view, uint32_t> ids_;
  std::atomic<uint32_t> count_{0};
  std::array<std::atomic<const std::string*>, kCapacity> slots_{};
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_INTERNED_TEXTS_H_
