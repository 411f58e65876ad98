// Transparent huge pages for large blocks. Every 4 KiB page a process writes for the first time
// costs a page fault, and on a virtual machine that fault is dear: the import of a 1 GB trace
// or a traced run of 10^5 launches spent a third of its time there. A block of megabytes that is
// advised as huge pages is faulted 2 MiB at a time, 512 times less often. Only blocks of at least
// kHugeBlockBytes are advised: a huge page that a small block shares with others would be
// backed whole for a few of its bytes. The advice is a hint; a kernel with THP off ignores it.
#ifndef RBLNSIM_TOOLS_RBLNSIM_HUGE_PAGES_H_
#define RBLNSIM_TOOLS_RBLNSIM_HUGE_PAGES_H_

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

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
// it touches, all advised: unaligned, a block of 8 MiB held as much as 2 MiB in small pages
// at its two ends (a quarter of its faults). The rounding costs at most one huge page, and only
// when the block's last bytes are written. Released with free(); nullptr when memory runs out.
inline void* AllocateHugePageBlock(std::size_t size) {
  void* p = nullptr;
  const std::size_t rounded = HugePageRounded(size);
  if (posix_memalign(&p, kHugePageBytes, rounded) != 0)
    return nullptr;
  AdviseHugePages(p, rounded);
  return p;
}

}  // namespace rblnsim

#endif  // RBLNSIM_TOOLS_RBLNSIM_HUGE_PAGES_H_
