#include "profiler/trace/temp_cleanup.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace rblnsim::trace {
namespace {

namespace fs = std::filesystem;

fs::path MakeTree(const fs::path& root) {
  fs::create_directories(root / "a" / "b" / "c");
  for (int i = 0; i < 300; ++i)
    std::ofstream((root / ("f" + std::to_string(i))).string()) << i;
  std::ofstream((root / "a" / "b" / "c" / "deep").string()) << "x";
  return root;
}

// The handler exits the process, so each case runs in a forked child.
int ExitStatusOfChildThatRaises(int signal_number, const fs::path& file, const fs::path& dir) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    InstallTempCleanupOnSignals();
    ScopedTempPath temp_file(file.string(), false);
    ScopedTempPath temp_dir(dir.string(), true);
    ::raise(signal_number);
    ::_exit(99);  // not reached: the handler exits
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(TempCleanup, SigintAndSigtermRemoveRegisteredFilesAndTreesThenExit128PlusSignal) {
  const fs::path base =
      fs::temp_directory_path() / ("rblnsim-tempclean-" + std::to_string(::getpid()));
  for (int signal_number : {SIGINT, SIGTERM}) {
    const fs::path file = base / "t.json.tmp";
    fs::create_directories(base);
    std::ofstream(file.string()) << "partial";
    const fs::path dir = MakeTree(base / "work");
    const fs::path kept = base / "kept";
    std::ofstream(kept.string()) << "not registered";
    EXPECT_EQ(ExitStatusOfChildThatRaises(signal_number, file, dir), 128 + signal_number);
    EXPECT_FALSE(fs::exists(file));
    EXPECT_FALSE(fs::exists(dir));
    EXPECT_TRUE(fs::exists(kept));
    fs::remove_all(base);
  }
}

// A signal that arrives between creating a path and registering it waits until the path is
// registered, then removes it.
TEST(TempCleanup, ASignalWhileHeldBackIsDeliveredOnceThePathIsRegistered) {
  const fs::path base =
      fs::temp_directory_path() / ("rblnsim-tempheld-" + std::to_string(::getpid()));
  fs::create_directories(base);
  const fs::path file = base / "t.json.tmp";
  const pid_t pid = ::fork();
  if (pid == 0) {
    InstallTempCleanupOnSignals();
    ScopedTempPath guard;
    {
      const SignalsHeldBack held;
      std::ofstream(file.string()) << "partial";
      ::raise(SIGTERM);  // pending: not delivered while held back
      guard = ScopedTempPath(file.string(), false);
    }
    ::_exit(99);  // not reached: the pending signal is delivered when |held| ends
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_FALSE(fs::exists(file));
  fs::remove_all(base);
}

TEST(TempCleanup, ReleasedPathsAreLeftAlone) {
  const fs::path base =
      fs::temp_directory_path() / ("rblnsim-tempkeep-" + std::to_string(::getpid()));
  fs::create_directories(base);
  const fs::path file = base / "renamed.json";
  std::ofstream(file.string()) << "final";
  {
    ScopedTempPath temp(file.string(), false);
    EXPECT_TRUE(temp.registered());
    temp.Release();
    RemoveRegisteredTempPaths();
  }
  EXPECT_TRUE(fs::exists(file));
  {
    ScopedTempPath temp(file.string(), false);
    ScopedTempPath moved(std::move(temp));
    // The moved-from state is what this checks.
    // NOLINTNEXTLINE(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
    EXPECT_FALSE(temp.registered());
    RemoveRegisteredTempPaths();
  }
  EXPECT_FALSE(fs::exists(file));
  fs::remove_all(base);
}

}  // namespace
}  // namespace rblnsim::trace
