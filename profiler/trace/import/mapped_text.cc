#include "profiler/trace/import/mapped_text.h"

#include <signal.h>
#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace rblnsim::trace::import {

namespace {

size_t PageBytes() {
  const long page = ::sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<size_t>(page) : size_t{4096};
}

uint64_t RoundDown(uint64_t n, size_t page) {
  return n / page * page;
}

uint64_t RoundUp(uint64_t n, size_t page) {
  return (n + page - 1) / page * page;
}

// The live mappings the SIGBUS handler may repair: a fixed table, read lock-free from the
// handler. An entry is claimed by a compare-exchange on |end|, then |begin| is published.
struct Watched {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<bool> lost{false};
};
constexpr int kMaxWatched = 32;
Watched g_watched[kMaxWatched];
struct sigaction g_previous_bus {};
std::atomic<size_t> g_page_bytes{4096};

void OnBus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  const size_t page = g_page_bytes.load(std::memory_order_relaxed);
  for (Watched& watched : g_watched) {
    const uintptr_t begin = watched.begin.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= watched.end.load(std::memory_order_acquire))
      continue;
    // A zero page where the file's page was: the faulting read is retried and reads NULs.
    char* const page_start = static_cast<char*>(info->si_addr) - address % page;
    void* zero =
        ::mmap(page_start, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zero != MAP_FAILED) {
      watched.lost.store(true, std::memory_order_release);
      return;
    }
  }
  // Not a page of ours: whoever handled SIGBUS before handles it (or the default action, when
  // the retried access faults again).
  if ((g_previous_bus.sa_flags & SA_SIGINFO) != 0 && g_previous_bus.sa_sigaction != nullptr) {
    g_previous_bus.sa_sigaction(signal, info, context);
    return;
  }
  ::sigaction(SIGBUS, &g_previous_bus, nullptr);
}

void InstallBusHandler() {
  static const bool installed = [] {
    g_page_bytes.store(PageBytes(), std::memory_order_relaxed);
    struct sigaction action {};
    action.sa_sigaction = &OnBus;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return ::sigaction(SIGBUS, &action, &g_previous_bus) == 0;
  }();
  (void)installed;
}

// An entry for [begin, end), or -1 when the table is full (the mapping is then not used).
int Watch(uintptr_t begin, uintptr_t end) {
  for (int i = 0; i < kMaxWatched; ++i) {
    uintptr_t free = 0;
    if (g_watched[i].end.compare_exchange_strong(free, end, std::memory_order_acq_rel)) {
      g_watched[i].lost.store(false, std::memory_order_relaxed);
      g_watched[i].begin.store(begin, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void Unwatch(int i) {
  g_watched[i].begin.store(0, std::memory_order_release);
  g_watched[i].end.store(0, std::memory_order_release);
}

}  // namespace

std::unique_ptr<MappedText> MappedText::Map(int fd, uint64_t size) {
  const size_t page = PageBytes();
  const size_t padding = simdjson::SIMDJSON_PADDING;
  if (size == 0 || size > SIZE_MAX - padding - 2 * page)
    return nullptr;
  const size_t file_bytes = RoundUp(size, page);
  // The padding after the text: the file's last page is zero past its end, and when the text
  // ends at (or just before) a page boundary an anonymous zero page follows. The whole range is
  // reserved first so that the file can be mapped over its front.
  const size_t total = RoundUp(size + padding, page);
  void* region =
      ::mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED)
    return nullptr;
  void* file = ::mmap(region, file_bytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
  if (file == MAP_FAILED) {
    ::munmap(region, total);
    return nullptr;
  }
  InstallBusHandler();
  const auto begin = reinterpret_cast<uintptr_t>(region);
  const int watch = Watch(begin, begin + file_bytes);
  if (watch < 0) {
    ::munmap(region, total);  // a mapping the handler cannot repair is not worth the risk
    return nullptr;
  }
  auto mapped = std::unique_ptr<MappedText>(
      new MappedText(static_cast<char*>(region), static_cast<size_t>(size), total));
  mapped->watch_ = watch;
  return mapped;
}

bool MappedText::lost() const {
  return watch_ >= 0 && g_watched[watch_].lost.load(std::memory_order_acquire);
}

MappedText::MappedText(char* base, size_t size, size_t readable)
    : base_(base), size_(size), readable_(readable) {}

MappedText::~MappedText() {
  if (watch_ >= 0)
    Unwatch(watch_);
  ::munmap(base_, readable_);
}

void MappedText::Step(uint64_t keep_from, uint64_t pos) {
  const size_t page = PageBytes();
  // A step's worth behind what is still needed stays: the readers look back that little.
  const uint64_t drop_to = RoundDown(keep_from > kStepBytes ? keep_from - kStepBytes : 0, page);
  if (drop_to > dropped_) {
    (void)::madvise(base_ + dropped_, drop_to - dropped_, MADV_DONTNEED);
    dropped_ = drop_to;
  }
  const uint64_t ahead_to =
      std::min<uint64_t>(RoundUp(pos + kAheadBytes, page), RoundUp(size_, page));
  if (ahead_to > ahead_) {
    const uint64_t from = std::max(ahead_, RoundDown(pos, page));
    // The disk is asked for the text first (a trace not in the page cache), then the pages are
    // mapped in one call each rather than faulted in one by one. Neither is needed for
    // correctness: a kernel without MADV_POPULATE_READ (before 5.14) faults them as they come.
    (void)::madvise(base_ + from, ahead_to - from, MADV_WILLNEED);
#ifdef MADV_POPULATE_READ
    (void)::madvise(base_ + from, ahead_to - from, MADV_POPULATE_READ);
#endif
    ahead_ = ahead_to;
  }
  next_step_ = pos + kStepBytes;
}

}  // namespace rblnsim::trace::import
