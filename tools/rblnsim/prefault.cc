#include "tools/rblnsim/prefault.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include "tools/rblnsim/huge_pages.h"

namespace rblnsim {
namespace {

// Blocks of >= 4 MiB come a few hundred per run: a short fixed queue never allocates, and one
// that fills leaves its overflow to the caller's own faults.
constexpr std::size_t kQueueSlots = 64;

struct Block {
  char* p = nullptr;
  std::size_t bytes = 0;
};

class Prefaulter {
 public:
  // Never destroyed: its thread waits on it until the process ends.
  static Prefaulter& Get() {
    static Prefaulter* const instance = new Prefaulter();
    return *instance;
  }

  void Enable(bool on) {
    const char* setting = std::getenv("RBLNSIM_PREFAULT");
    enabled_.store(on && (setting == nullptr || std::strcmp(setting, "0") != 0),
                   std::memory_order_relaxed);
  }

  void Queue(void* p, std::size_t bytes) {
    if (!enabled_.load(std::memory_order_relaxed) || p == nullptr || bytes == 0)
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (unsupported_ || count_ == kQueueSlots)
      return;
    if (!started_) {
      // Signals go to the threads that expect them: a command holds SIGINT/SIGTERM back on its
      // own thread while it creates and registers a temporary file, which a thread that took
      // them instead would undo. The worker is born with every signal blocked (a thread starts
      // with its creator's mask).
      sigset_t all, before;
      sigfillset(&all);
      pthread_sigmask(SIG_BLOCK, &all, &before);
      try {
        std::thread([this] { Loop(); }).detach();
        started_ = true;
      } catch (const std::system_error&) {
        unsupported_ = true;  // no thread to be had: the caller faults its pages, as before
      }
      pthread_sigmask(SIG_SETMASK, &before, nullptr);
      if (!started_)
        return;
    }
    queue_[(head_ + count_) % kQueueSlots] = {static_cast<char*>(p), bytes};
    ++count_;
    work_.notify_one();
  }

  void WaitIdle() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return count_ == 0 && !busy_; });
  }

 private:
  Prefaulter() {
    // fork() copies only the calling thread: the child must not find the mutex held by the
    // parent's worker, nor wait for a worker it does not have. (The commands fork only to exec
    // at once; this keeps any other fork safe.)
    pthread_atfork([] { Get().mutex_.lock(); }, [] { Get().mutex_.unlock(); },
                   [] { Get().ResetInChild(); });
  }

  void ResetInChild() {
    // The forking thread holds the mutex (prepare handler) and is the child's only thread.
    new (&work_) std::condition_variable();
    new (&idle_) std::condition_variable();
    started_ = false;
    busy_ = false;
    count_ = 0;
    mutex_.unlock();
  }

  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      work_.wait(lock, [this] { return count_ > 0; });
      const Block block = queue_[head_];
      head_ = (head_ + 1) % kQueueSlots;
      --count_;
      busy_ = true;
      lock.unlock();
      const bool supported = Populate(block);
      lock.lock();
      busy_ = false;
      unsupported_ = unsupported_ || !supported;
      if (count_ == 0)
        idle_.notify_all();
    }
  }

  // One huge page per call, so a block the caller has already written is passed over quickly
  // (present pages cost the call nothing). False when the kernel does not know the advice.
  static bool Populate(const Block& block) {
    for (std::size_t at = 0; at < block.bytes; at += kHugePageBytes) {
      const std::size_t step = std::min(kHugePageBytes, block.bytes - at);
      if (madvise(block.p + at, step, MADV_POPULATE_WRITE) != 0) {
        // EINVAL: no such advice here. ENOMEM / EFAULT: the block was freed and its range
        // unmapped or reused; the rest of it is not ours to fault.
        return errno != EINVAL;
      }
    }
    return true;
  }

  std::atomic<bool> enabled_{false};
  std::mutex mutex_;  // guards the members below
  std::condition_variable work_;
  std::condition_variable idle_;
  Block queue_[kQueueSlots];
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  bool busy_ = false;  // the worker is populating a block taken off the queue
  bool started_ = false;
  bool unsupported_ = false;
};

}  // namespace

void EnablePrefault(bool on) {
  Prefaulter::Get().Enable(on);
}

void PrefaultInBackground(void* p, std::size_t bytes) {
  Prefaulter::Get().Queue(p, bytes);
}

void WaitForPrefaults() {
  Prefaulter::Get().WaitIdle();
}

}  // namespace rblnsim
