// A hint from library code to a process that faults its large blocks in ahead of their first
// writes (tools/rblnsim/prefault.h): how much of the large blocks allocated on this thread, while
// the hint is in scope, is worth faulting in. Room reserved for later, such as an array's spare
// capacity for events that are added only after a peak, would otherwise be made resident at
// once and count towards that peak. Without such a process the hint does nothing.
#ifndef RBLNSIM_BASE_PREFAULT_HINT_H_
#define RBLNSIM_BASE_PREFAULT_HINT_H_

#include <cstddef>
#include <cstdint>

namespace rblnsim {

// The limit in force on this thread: SIZE_MAX when none is.
inline size_t& PrefaultLimitBytes() {
  thread_local size_t limit = SIZE_MAX;
  return limit;
}

// Limits the faulting ahead of the large blocks allocated in its scope to |bytes| each.
class ScopedPrefaultLimit {
 public:
  explicit ScopedPrefaultLimit(size_t bytes) : previous_(PrefaultLimitBytes()) {
    PrefaultLimitBytes() = bytes;
  }
  ~ScopedPrefaultLimit() { PrefaultLimitBytes() = previous_; }
  ScopedPrefaultLimit(const ScopedPrefaultLimit&) = delete;
  ScopedPrefaultLimit& operator=(const ScopedPrefaultLimit&) = delete;

 private:
  size_t previous_;
};

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_PREFAULT_HINT_H_
