#include "tools/rblnsim/huge_pages.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace rblnsim {
namespace {

// The VmFlags line of the mapping of /proc/self/smaps that holds |address|; "" if none does.
std::string VmFlagsAt(const char* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = lo <= address && address < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

bool HasFlag(const std::string& flags, const std::string& flag) {
  return (flags + " ").find(" " + flag + " ") != std::string::npos;
}

class Mapping {
 public:
  explicit Mapping(std::size_t bytes) : bytes_(bytes) {
    p_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }
  ~Mapping() {
    if (p_ != MAP_FAILED)
      munmap(p_, bytes_);
  }
  char* data() const { return static_cast<char*>(p_); }
  bool ok() const { return p_ != MAP_FAILED; }

 private:
  std::size_t bytes_;
  void* p_;
};

// The first huge-page boundary at or after |p|.
char* NextHugePage(char* p) {
  const std::size_t into_page = reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes;
  return into_page == 0 ? p : p + (kHugePageBytes - into_page);
}

TEST(HugePages, SpanCoversOnlyWholeAlignedPages) {
  Mapping mapping(8 * kHugePageBytes);
  ASSERT_TRUE(mapping.ok());
  char* aligned = NextHugePage(mapping.data());
  // A block from the middle of one huge page to the middle of the fourth after it.
  HugePageSpan span = WholeHugePagesIn(aligned + kHugePageBytes / 2, 4 * kHugePageBytes);
  EXPECT_EQ(span.offset, kHugePageBytes / 2);
  EXPECT_EQ(span.bytes, 3 * kHugePageBytes);
  // Aligned at both ends: all of it.
  span = WholeHugePagesIn(aligned, 3 * kHugePageBytes);
  EXPECT_EQ(span.offset, 0U);
  EXPECT_EQ(span.bytes, 3 * kHugePageBytes);
  // Straddling one boundary without holding a whole page: nothing.
  span = WholeHugePagesIn(aligned + kHugePageBytes / 2, kHugePageBytes);
  EXPECT_EQ(span.bytes, 0U);
}

TEST(HugePages, SmallBlocksAreNotAdvised) {
  Mapping mapping(2 * kHugeBlockBytes);
  ASSERT_TRUE(mapping.ok());
  EXPECT_FALSE(AdviseHugePages(mapping.data(), kHugeBlockBytes - 1));
  EXPECT_FALSE(AdviseHugePages(nullptr, 2 * kHugeBlockBytes));
}

TEST(HugePages, LargeBlockIsAdvisedInsideItsBounds) {
  // Room for a block that starts half a huge page past an aligned address.
  Mapping mapping(kHugeBlockBytes + 4 * kHugePageBytes);
  ASSERT_TRUE(mapping.ok());
  char* aligned = NextHugePage(mapping.data());
  char* block = aligned + kHugePageBytes / 2;
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good())
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  ASSERT_TRUE(AdviseHugePages(block, kHugeBlockBytes));
  // The advice marks the whole pages inside the block ("hg" in VmFlags) and leaves the partial
  // pages at its ends, which it may share with other allocations, as they were.
  const HugePageSpan span = WholeHugePagesIn(block, kHugeBlockBytes);
  const char* first = block + span.offset;
  const char* last = first + span.bytes;
  EXPECT_EQ(first, aligned + kHugePageBytes);
  EXPECT_TRUE(HasFlag(VmFlagsAt(first), "hg"));
  EXPECT_TRUE(HasFlag(VmFlagsAt(last - 1), "hg"));
  EXPECT_FALSE(HasFlag(VmFlagsAt(aligned), "hg"));
  EXPECT_FALSE(HasFlag(VmFlagsAt(last), "hg"));
}

TEST(HugePages, SizesRoundUpToWholePages) {
  EXPECT_EQ(HugePageRounded(kHugeBlockBytes), kHugeBlockBytes);
  EXPECT_EQ(HugePageRounded(kHugeBlockBytes + 1), kHugeBlockBytes + kHugePageBytes);
  EXPECT_EQ(HugePageRounded(3 * kHugePageBytes - 1), 3 * kHugePageBytes);
  EXPECT_EQ(HugePageRounded(0), 0U);
}

bool HasTransparentHugePages() {
  return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

// A fresh advice object under |setting| of RBLNSIM_HUGE_PAGES (nullptr: unset); it reads the
// variable when first asked.
void SetHugePagesSetting(const char* setting) {
  if (setting == nullptr)
    unsetenv("RBLNSIM_HUGE_PAGES");
  else
    setenv("RBLNSIM_HUGE_PAGES", setting, 1);
}

TEST(HugePageAdvice, OffUnlessAskedFor) {
  for (const char* setting : {static_cast<const char*>(nullptr), "0", "yes", ""}) {
    SetHugePagesSetting(setting);
    HugePageAdvice advice;
    Mapping mapping(kHugeBlockBytes + kHugePageBytes);
    ASSERT_TRUE(mapping.ok());
    char* block = NextHugePage(mapping.data());
    EXPECT_FALSE(advice.wanted()) << (setting ? setting : "unset");
    EXPECT_FALSE(advice.AdviseAndProbe(block, kHugeBlockBytes, /*slow_seconds=*/1e9));
    EXPECT_FALSE(HasFlag(VmFlagsAt(block), "hg"));
  }
  SetHugePagesSetting(nullptr);
}

TEST(HugePageAdvice, AskedForItAdvisesWhileHugePagesAreFast) {
  if (!HasTransparentHugePages())
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  SetHugePagesSetting("1");
  HugePageAdvice advice;
  Mapping mapping(kHugeBlockBytes + kHugePageBytes);
  ASSERT_TRUE(mapping.ok());
  char* block = NextHugePage(mapping.data());
  EXPECT_TRUE(advice.AdviseAndProbe(block, kHugeBlockBytes, /*slow_seconds=*/1e9));
  EXPECT_TRUE(advice.wanted());
  EXPECT_TRUE(HasFlag(VmFlagsAt(block), "hg"));
  EXPECT_TRUE(HasFlag(VmFlagsAt(block + kHugeBlockBytes - 1), "hg"));
  SetHugePagesSetting(nullptr);
}

TEST(HugePageAdvice, ASlowHugePageStopsTheAdviceForGood) {
  if (!HasTransparentHugePages())
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  {
    Mapping probe(kHugePageBytes);
    if (!probe.ok() || madvise(probe.data(), 4096, MADV_POPULATE_WRITE) != 0)
      GTEST_SKIP() << "this kernel cannot populate a range (before Linux 5.14)";
  }
  SetHugePagesSetting("1");
  HugePageAdvice advice;
  Mapping mapping(2 * kHugeBlockBytes + kHugePageBytes);
  ASSERT_TRUE(mapping.ok());
  char* block = NextHugePage(mapping.data());
  // Any fault is slower than a negative limit.
  EXPECT_FALSE(advice.AdviseAndProbe(block, kHugeBlockBytes, /*slow_seconds=*/-1));
  EXPECT_FALSE(advice.wanted());
  // The probed page stays as it was faulted; the rest of the block goes back to small pages.
  EXPECT_TRUE(HasFlag(VmFlagsAt(block), "hg"));
  EXPECT_TRUE(HasFlag(VmFlagsAt(block + kHugePageBytes), "nh"));
  EXPECT_FALSE(HasFlag(VmFlagsAt(block + kHugePageBytes), "hg"));
  // The next block is not advised, however fast its pages would be.
  char* next = block + kHugeBlockBytes;
  EXPECT_FALSE(advice.AdviseAndProbe(next, kHugeBlockBytes, /*slow_seconds=*/1e9));
  EXPECT_FALSE(HasFlag(VmFlagsAt(next), "hg"));
  SetHugePagesSetting(nullptr);
}

// A large block as operator new makes it (tools/rblnsim/operator_new.cc): aligned, then advised
// to its rounded end when huge pages are asked for and fast.
TEST(HugePages, LargeBlockStartsOnAHugePageAndIsAdvisedToItsRoundedEnd) {
  const std::size_t size = kHugeBlockBytes + 100;  // three huge pages, the last one barely used
  char* block = static_cast<char*>(AllocateHugePageAlignedBlock(size));
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % kHugePageBytes, 0U);
  SetHugePagesSetting("1");
  HugePageAdvice advice;
  const bool advised = advice.AdviseAndProbe(block, HugePageRounded(size), /*slow_seconds=*/1e9);
  SetHugePagesSetting(nullptr);
  block[0] = 1;
  block[size - 1] = 1;
  if (HasTransparentHugePages()) {
    EXPECT_TRUE(advised);
    // The first byte and the last byte of the rounded block: no page of it is left out.
    EXPECT_TRUE(HasFlag(VmFlagsAt(block), "hg"));
    EXPECT_TRUE(HasFlag(VmFlagsAt(block + HugePageRounded(size) - 1), "hg"));
  }
  std::free(block);
}

}  // namespace
}  // namespace rblnsim
