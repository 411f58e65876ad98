#include "profiler/trace/temp_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace rblnsim::trace {

namespace {

constexpr int kSlots = 64;
// Deeper trees than this are left for the user: every level holds a 4 KiB buffer on the stack
// of whatever thread took the signal.
constexpr int kMaxDepth = 16;

enum SlotState : int { kFree = 0, kClaimed = 1, kFile = 2, kDirectory = 3 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};

std::array<Slot, kSlots> g_slots;
std::atomic<bool> g_installed{false};

// The kernel's directory entry layout for getdents64; glibc 2.36 has no wrapper for it.
struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

void RemoveTreeAt(int parent_fd, const char* name, int depth) {
  if (::unlinkat(parent_fd, name, 0) == 0 || errno == ENOENT)
    return;
  if (depth >= kMaxDepth)
    return;
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  alignas(8) char buffer[4096];
  // Removing entries while reading moves the directory offset under us: read from the start
  // again until a pass finds nothing left to remove.
  for (int pass = 0; pass < 64; ++pass) {
    bool removed_any = false;
    ::lseek(fd, 0, SEEK_SET);
    for (;;) {
      const long bytes = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (bytes <= 0)
        break;
      for (long offset = 0; offset < bytes;) {
        const auto* entry = reinterpret_cast<const LinuxDirent64*>(buffer + offset);
        offset += entry->d_reclen;
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
          continue;
        RemoveTreeAt(fd, entry->d_name, depth + 1);
        removed_any = true;
      }
    }
    if (!removed_any)
      break;
  }
  ::close(fd);
  ::unlinkat(parent_fd, name, AT_REMOVEDIR);
}

void RemoveAll() {
  for (Slot& slot : g_slots) {
    const int state = slot.state.load(std::memory_order_acquire);
    if (state == kFile) {
      ::unlink(slot.path);
    } else if (state == kDirectory) {
      RemoveTreeAt(AT_FDCWD, slot.path, 0);
    }
  }
}

void OnTerminatingSignal(int signal_number) {
  const int saved_errno = errno;
  RemoveAll();
  errno = saved_errno;
  ::_exit(128 + signal_number);
}

}  // namespace

void InstallTempCleanupOnSignals() {
  if (g_installed.exchange(true))
    return;
  struct sigaction action = {};
  action.sa_handler = &OnTerminatingSignal;
  sigemptyset(&action.sa_mask);
  // Both signals are blocked while the handler runs, so a second one cannot cut the cleanup short.
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void RemoveRegisteredTempPaths() {
  RemoveAll();
}

SignalsHeldBack::SignalsHeldBack() {
  sigset_t held;
  sigemptyset(&held);
  sigaddset(&held, SIGINT);
  sigaddset(&held, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

SignalsHeldBack::~SignalsHeldBack() {
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

ScopedTempPath::ScopedTempPath(const std::string& path, bool directory) {
  if (path.empty() || path.size() >= PATH_MAX)
    return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kClaimed))
      continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(directory ? kDirectory : kFile, std::memory_order_release);
    slot_ = i;
    return;
  }
}

ScopedTempPath& ScopedTempPath::operator=(ScopedTempPath&& other) noexcept {
  if (this != &other) {
    Release();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void ScopedTempPath::Release() {
  if (slot_ < 0)
    return;
  g_slots[slot_].state.store(kFree, std::memory_order_release);
  slot_ = -1;
}

}  // namespace rblnsim::trace
