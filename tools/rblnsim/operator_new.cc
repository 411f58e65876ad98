// The operator new and delete of our executables (rblnsim and the benchmarks, through
// rblnsim_fast_allocator): malloc and free, whichever allocator serves them (mimalloc when built
// with RBLNSIM_MIMALLOC), std::bad_alloc when memory runs out, and blocks of megabytes advised
// as transparent huge pages while those pay (huge_pages.h), faulted in on a second thread
// (prefault.h), and the last one freed kept for the next that fits it (spare_block.h). The
// commands report running out of memory as an error ("out of memory while reading the trace", exit
// 4), which needs operator new to throw; mimalloc's own replacement is C code that aborts instead,
// and does not see a new handler installed from C++. Defined in the executable, these take
// precedence over both mimalloc's and libstdc++'s.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <new>

#include "base/prefault_hint.h"
#include "tools/rblnsim/huge_pages.h"
#include "tools/rblnsim/prefault.h"
#include "tools/rblnsim/spare_block.h"

namespace {

// Under a tight address-space limit the allocator may fail before the C++ runtime has set aside
// memory for throwing std::bad_alloc itself; the throw then ends in std::terminate with no
// exception. That is still running out of memory, and is said so, with the commands' exit
// status for it, instead of as a crash.
constexpr int kOutOfMemoryExit = 4;
std::atomic<bool> g_allocation_failed{false};
std::terminate_handler g_previous_terminate = nullptr;

[[noreturn]] void TerminateOutOfMemory() {
  if (g_allocation_failed.load() && !std::current_exception()) {
    static const char kMessage[] =
        "rblnsim: out of memory: this process may not use enough memory to run\n";
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    _exit(kOutOfMemoryExit);
  }
  if (g_previous_terminate != nullptr)
    g_previous_terminate();
  std::abort();
}

[[noreturn]] void ThrowBadAlloc() {
  if (!g_allocation_failed.exchange(true))
    g_previous_terminate = std::set_terminate(TerminateOutOfMemory);
  throw std::bad_alloc();
}

// As the standard operator new does: tries |try_allocate| until it succeeds, calling the new
// handler in between (it may free memory, throw or end the process), and throws without one.
template <typename TryAllocate>
void* AllocateWith(TryAllocate&& try_allocate) {
  while (true) {
    if (void* p = try_allocate())
      return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr)
      ThrowBadAlloc();
    handler();
  }
}

// A freed large block waits here for the next large allocation it fits (spare_block.h). 64 MiB
// at most: the arrays a 10^5-launch window frees and allocates again, not the gigabyte ones of a
// 10^6-launch run, which sits within a few tens of megabytes of its peak target.
constinit rblnsim::SpareBlock g_spare(std::size_t{64} << 20);

// Whether large blocks are still advised as huge pages (huge_pages.h).
constinit rblnsim::HugePageAdvice g_huge_pages;

// Frees a block the sized operator delete is given: one of AllocateLarge's when |size| is large
// (operator new sends every such size there), which is offered as the spare.
void FreeSized(void* p, std::size_t size) {
  if (size >= rblnsim::kHugeBlockBytes)
    p = g_spare.Keep(p, rblnsim::HugePageRounded(size));
  std::free(p);
}

// The trace's event vector, the index's columns, a session's buffers: the blocks whose first
// writes cost page faults are the big ones, and all of them come through here.
// A large block is faulted in by the prefault thread while its caller goes on (prefault.h).
void* AllocateLarge(std::size_t size) {
  void* unfit = nullptr;
  if (void* reused = g_spare.Take(rblnsim::HugePageRounded(size), &unfit))
    return reused;  // its pages are resident already
  std::free(unfit);
  void* p = AllocateWith([size] { return rblnsim::AllocateHugePageAlignedBlock(size); });
  g_huge_pages.AdviseAndProbe(p, rblnsim::HugePageRounded(size));
  // Room the caller reserved for later is left to fault in when it is written (prefault_hint.h).
  rblnsim::PrefaultInBackground(
      p, rblnsim::HugePageRounded(std::min(size, rblnsim::PrefaultLimitBytes())));
  return p;
}

void* Allocate(std::size_t size) {
  if (size >= rblnsim::kHugeBlockBytes)
    return AllocateLarge(size);
  return AllocateWith([size] { return std::malloc(size == 0 ? 1 : size); });
}

void* AllocateAligned(std::size_t size, std::align_val_t align) {
  const std::size_t alignment =
      std::max(static_cast<std::size_t>(align), sizeof(void*));  // posix_memalign's floor
  if (size >= rblnsim::kHugeBlockBytes && alignment <= rblnsim::kHugePageBytes)
    return AllocateLarge(size);
  void* p = AllocateWith([size, alignment]() -> void* {
    void* q = nullptr;
    return posix_memalign(&q, alignment, size == 0 ? 1 : size) == 0 ? q : nullptr;
  });
  if (g_huge_pages.wanted())
    rblnsim::AdviseHugePages(p, size);
  return p;
}

template <typename Fn>
void* NoThrow(Fn&& fn) noexcept {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

}  // namespace

void* operator new(std::size_t size) {
  return Allocate(size);
}
void* operator new[](std::size_t size) {
  return Allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return NoThrow([&] { return Allocate(size); });
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return NoThrow([&] { return Allocate(size); });
}
void* operator new(std::size_t size, std::align_val_t align) {
  return AllocateAligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return AllocateAligned(size, align);
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return NoThrow([&] { return AllocateAligned(size, align); });
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return NoThrow([&] { return AllocateAligned(size, align); });
}

void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t size) noexcept {
  FreeSized(p, size);
}
void operator delete[](void* p, std::size_t size) noexcept {
  FreeSized(p, size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
