// Temporary files and directories that must not outlive an interrupted command. A command
// registers each temporary path while it exists; on SIGINT or SIGTERM the handler removes every
// registered path and exits with 128 + the signal number (130, 143), the shell's convention.
//
// The handler runs on whatever thread the signal lands on, so it only uses async-signal-safe
// system calls (unlinkat, openat, getdents64, close, _exit) on fixed-size slots: registering
// copies the path into a slot up front, and nothing is allocated when the signal arrives.
#ifndef RBLNSIM_PROFILER_TRACE_TEMP_CLEANUP_H_
#define RBLNSIM_PROFILER_TRACE_TEMP_CLEANUP_H_

#include <signal.h>

#include <string>

namespace rblnsim::trace {

// Installs the SIGINT/SIGTERM handler. Idempotent; call once from main().
void InstallTempCleanupOnSignals();

// Removes every registered path now, as the handler would (for tests and for exit paths that
// leave without unwinding).
void RemoveRegisteredTempPaths();

// Holds SIGINT and SIGTERM back on this thread for its lifetime. Create a temporary path and
// register it inside one of these, so no interrupt can fall between the two and leave the path
// behind unregistered; a signal that arrives meanwhile is delivered when it ends.
class SignalsHeldBack {
 public:
  SignalsHeldBack();
  ~SignalsHeldBack();
  SignalsHeldBack(const SignalsHeldBack&) = delete;
  SignalsHeldBack& operator=(const SignalsHeldBack&) = delete;

 private:
  sigset_t previous_;
};

// Registers |path| for the lifetime of the object. A directory is removed with its contents.
// When every slot is taken (more than 64 at once) the path is simply not protected.
class ScopedTempPath {
 public:
  ScopedTempPath() = default;
  ScopedTempPath(const std::string& path, bool directory);
  ~ScopedTempPath() { Release(); }
  ScopedTempPath(ScopedTempPath&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }
  ScopedTempPath& operator=(ScopedTempPath&& other) noexcept;
  ScopedTempPath(const ScopedTempPath&) = delete;
  ScopedTempPath& operator=(const ScopedTempPath&) = delete;

  // The path no longer needs protecting (it was renamed into place or removed already).
  void Release();
  bool registered() const { return slot_ >= 0; }

 private:
  int slot_ = -1;
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_TEMP_CLEANUP_H_
