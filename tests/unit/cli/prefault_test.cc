#include "tools/rblnsim/prefault.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <vector>

namespace rblnsim {
namespace {

constexpr std::size_t kBlockBytes = std::size_t{16} << 20;

class AnonymousMapping {
 public:
  explicit AnonymousMapping(std::size_t bytes) : bytes_(bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  ~AnonymousMapping() {
    if (p_ != nullptr)
      munmap(p_, bytes_);
  }
  char* p() const { return p_; }

  // Pages of the mapping that are resident.
  std::size_t ResidentPages() const {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> resident((bytes_ + page - 1) / page);
    if (mincore(p_, bytes_, resident.data()) != 0)
      return 0;
    std::size_t count = 0;
    for (unsigned char r : resident)
      count += r & 1;
    return count;
  }
  std::size_t pages() const { return bytes_ / static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

 private:
  char* p_ = nullptr;
  std::size_t bytes_;
};

bool KernelPopulates() {
  EnablePrefault();
  AnonymousMapping probe(static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
  return probe.p() != nullptr && madvise(probe.p(), 4096, MADV_POPULATE_WRITE) == 0;
}

// Off (the trace readers' setting), a queued block is left alone.
TEST(Prefault, NothingIsFaultedInWhileItIsOff) {
  EnablePrefault(false);
  AnonymousMapping block(kBlockBytes);
  ASSERT_NE(block.p(), nullptr);
  PrefaultInBackground(block.p(), kBlockBytes);
  WaitForPrefaults();
  EXPECT_EQ(block.ResidentPages(), 0u);
  EnablePrefault();
}

TEST(Prefault, AQueuedBlockIsFaultedInAndLeftAsItWas) {
  if (!KernelPopulates())
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE";
  AnonymousMapping queued(kBlockBytes);
  AnonymousMapping other(kBlockBytes);
  ASSERT_NE(queued.p(), nullptr);
  ASSERT_NE(other.p(), nullptr);
  ASSERT_EQ(queued.ResidentPages(), 0u);
  PrefaultInBackground(queued.p(), kBlockBytes);
  WaitForPrefaults();
  EXPECT_EQ(queued.ResidentPages(), queued.pages());
  EXPECT_EQ(other.ResidentPages(), 0u);  // only what was queued
  for (std::size_t at = 0; at < kBlockBytes; at += 4096)
    ASSERT_EQ(queued.p()[at], 0) << at;
}

TEST(Prefault, AFreedBlockIsPassedOver) {
  if (!KernelPopulates())
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE";
  char* gone = nullptr;
  {
    AnonymousMapping freed(kBlockBytes);
    gone = freed.p();
  }
  // Unmapped before its turn: the worker stops at the first page and stays usable.
  PrefaultInBackground(gone, kBlockBytes);
  AnonymousMapping next(kBlockBytes);
  ASSERT_NE(next.p(), nullptr);
  PrefaultInBackground(next.p(), kBlockBytes);
  WaitForPrefaults();
  EXPECT_EQ(next.ResidentPages(), next.pages());
}

// A child forked while the worker may be busy neither deadlocks on the parent's lock nor waits
// for a worker it does not have: it gets its own.
TEST(Prefault, AForkedChildPrefaultsWithItsOwnWorker) {
  if (!KernelPopulates())
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE";
  AnonymousMapping busy(kBlockBytes * 4);
  ASSERT_NE(busy.p(), nullptr);
  PrefaultInBackground(busy.p(), kBlockBytes * 4);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(30);  // a deadlock ends the child with SIGALRM, not the test run
    AnonymousMapping mine(kBlockBytes);
    PrefaultInBackground(mine.p(), kBlockBytes);
    WaitForPrefaults();
    _exit(mine.ResidentPages() == mine.pages() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child was killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  WaitForPrefaults();
}

}  // namespace
}  // namespace rblnsim
