#include "profiler/trace/import/mapped_text.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
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
  return std::unique_ptr<MappedText>(
      new MappedText(static_cast<char*>(region), static_cast<size_t>(size), total, total));
}

MappedText::MappedText(char* base, size_t size, size_t readable, size_t mapped)
    : base_(base), size_(size), readable_(readable), mapped_bytes_(mapped) {}

MappedText::~MappedText() {
  ::munmap(base_, mapped_bytes_);
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
