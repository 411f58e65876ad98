// Giving a container's memory back. `v = {}` reads as if it did, but for a std::vector it is the
// initializer-list assignment: the vector is emptied and keeps its capacity. Large temporary
// arrays (a probe table, sort keys, a session's launch records) that a phase lets go of before
// the next must really go, or they stay resident through the process's peak.
#ifndef RBLNSIM_BASE_RELEASE_MEMORY_H_
#define RBLNSIM_BASE_RELEASE_MEMORY_H_

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace rblnsim {

template <typename Container>
void ReleaseMemory(Container& container) {
  container = Container();  // move assignment: the old storage goes with the moved-from one
}

// Gives back the pages of a block that stays allocated, once their contents are consumed: the
// front of a large array walked once, front to back, and not read there again (a copy being
// drained into what replaces it). [0, consumed_bytes) of |array| is consumed; the whole pages in
// it from |released_bytes| on are released (the caller passes the last call's consumed_bytes, so
// each page is released once). Those pages read as zeros afterwards: only elements whose bytes
// nobody reads again may lie there (trivially destructible ones). Best effort: a failed madvise
// leaves the pages resident and changes nothing else.
inline void ReleaseConsumedPages(const void* array, size_t released_bytes, size_t consumed_bytes) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<uintptr_t>(array);
  const uintptr_t first_whole = (start + page - 1) & ~(page - 1);
  const uintptr_t from = std::max(first_whole, (start + released_bytes) & ~(page - 1));
  const uintptr_t to = (start + consumed_bytes) & ~(page - 1);
  if (to > from)
    madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

}  // namespace rblnsim

#endif  // RBLNSIM_BASE_RELEASE_MEMORY_H_
