// Transparent huge pages for large blocks, on request. Every 4 KiB page a process writes for the
// first time costs a page fault; a block of megabytes advised as huge pages is faulted 2 MiB at a
// time, 512 times less often, which pays where huge pages are cheap to come by and costs up to
// thirty times more where they are not (HugePageAdvice says when). Only blocks of at least
// kHugeBlockBytes are advised: a huge page that a small block shares with others would be
// backed whole for a few of its bytes. The advice is a hint; a kernel with THP off ignores it.
#ifndef RBLNSIM_TOOLS_RBLNSIM_HUGE_PAGES_H_
#define RBLNSIM_TOOLS_RBLNSIM_HUGE_PAGES_H_

#include <sys/mman.h>
#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace rblnsim {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kHugeBlockBytes = std::size_t{4} << 20;
// However a block of kHugeBlockBytes lies, it holds at least one whole huge page.
static_assert(kHugeBlockBytes >= 2 * kHugePageBytes);

// The whole huge pages inside a block of |size| bytes at |p|, as an offset into the block and a
// length: the range that may be advised without touching the neighbours' memory. Empty (bytes
// 0) when no whole page fits.
struct HugePageSpan {
  std::size_t offset = 0;
  std::size_t bytes = 0;
};

inline HugePageSpan WholeHugePagesIn(const void* p, std::size_t size) {
  const std::size_t into_page = reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes;
  const std::size_t offset = into_page == 0 ? 0 : kHugePageBytes - into_page;
  if (size < offset + kHugePageBytes)
    return {offset, 0};
  return {offset, (size - offset) / kHugePageBytes * kHugePageBytes};
}

// |size| rounded up to whole huge pages.
inline constexpr std::size_t HugePageRounded(std::size_t size) {
  return (size + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

// Advises the whole huge pages of a block of at least kHugeBlockBytes; returns whether it did.
// A refusal by the kernel (EINVAL where THP is not built in) is no error: the block is used with
// small pages, as without the advice.
inline bool AdviseHugePages(void* p, std::size_t size) {
  if (p == nullptr || size < kHugeBlockBytes)
    return false;
  const HugePageSpan span = WholeHugePagesIn(p, size);
  return madvise(static_cast<char*>(p) + span.offset, span.bytes, MADV_HUGEPAGE) == 0;
}

// A block of |size| >= kHugeBlockBytes that starts on a huge page and owns the whole huge pages
// it touches: unaligned, a block of 8 MiB advised as huge pages held as much as 2 MiB in small
// pages at its two ends (a quarter of its faults). The rounding costs at most one huge page, and
// only when the block's last bytes are written. Released with free(); nullptr when memory runs
// out. Not advised: HugePageAdvice decides that.
inline void* AllocateHugePageAlignedBlock(std::size_t size) {
  void* p = nullptr;
  if (posix_memalign(&p, kHugePageBytes, HugePageRounded(size)) != 0)
    return nullptr;
  return p;
}

// A huge page whose fault took longer than this costs more than the same 2 MiB in small pages
// (about 1 ms on the machine of bench/RESULTS.md; a huge page 0.1-0.5 ms when the host has it).
inline constexpr double kSlowHugePageFaultSeconds = 0.004;

// Whether large blocks are advised as huge pages: only with RBLNSIM_HUGE_PAGES=1, and then only
// until a huge page proves slow. On a virtual machine whose host takes freed memory back (free
// page reporting), a huge page the host has taken back costs 5-35 ms to fault in, against
// 0.2 ms for one it still backs and 1.2 ms for the same 2 MiB in small pages whichever it is:
// 600 MB touched after a few seconds idle took 4.0 s in huge pages (all but the first three
// slow) and 0.34 s in small ones, and `rblnsim check` of a 1 GB trace 4.1-5.3 s against
// 2.6-3.2 s (bench/profiles.md). Which memory is cold cannot be told before it is touched, so
// advice is off by default. When it is asked for, the first whole huge page of each advised
// block is faulted in at once and timed; once one is slow, advice stops for the rest of the
// process and the rest of that block goes back to small pages.
class HugePageAdvice {
 public:
  constexpr HugePageAdvice() = default;

  bool wanted() {
    int state = state_.load(std::memory_order_relaxed);
    if (state == kUnread) {
      const char* setting = std::getenv("RBLNSIM_HUGE_PAGES");
      int expected = kUnread;
      state_.compare_exchange_strong(
          expected, setting != nullptr && std::strcmp(setting, "1") == 0 ? kOn : kOff);
      state = state_.load(std::memory_order_relaxed);
    }
    return state == kOn;
  }
  void Stop() { state_.store(kOff, std::memory_order_relaxed); }

  // Advises the whole huge pages of a block of at least kHugeBlockBytes while advice is wanted,
  // and probes the first of them (|slow_seconds| the limit); returns whether the block was
  // advised and still is.
  bool AdviseAndProbe(void* p, std::size_t size, double slow_seconds = kSlowHugePageFaultSeconds) {
    if (!wanted() || !AdviseHugePages(p, size))
      return false;
    const HugePageSpan span = WholeHugePagesIn(p, size);
    char* first = static_cast<char*>(p) + span.offset;
    timespec start{}, end{};
    clock_gettime(CLOCK_MONOTONIC, &start);
    // The contents are left as they are. A kernel without the advice (before 5.14) gives no
    // verdict, and advice goes on as before there was one.
    if (madvise(first, kHugePageBytes, MADV_POPULATE_WRITE) != 0)
      return true;
    clock_gettime(CLOCK_MONOTONIC, &end);
    const double seconds = static_cast<double>(end.tv_sec - start.tv_sec) +
                           1e-9 * static_cast<double>(end.tv_nsec - start.tv_nsec);
    if (seconds <= slow_seconds)
      return true;
    Stop();
    if (span.bytes > kHugePageBytes)
      madvise(first + kHugePageBytes, span.bytes - kHugePageBytes, MADV_NOHUGEPAGE);
    return false;
  }

 private:
  static constexpr int kUnread = 0;
  static constexpr int kOn = 1;
  static constexpr int kOff = 2;
  std::atomic<int> state_{kUnread};
};

}  // namespace rblnsim

#endif  // RBLNSIM_TOOLS_RBLNSIM_HUGE_PAGES_H_
