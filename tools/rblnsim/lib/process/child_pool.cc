#include "tools/rblnsim/lib/process/child_pool.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>

namespace rblnsim::cli {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

void OnStopSignal(int signal_number) {
  g_stop_signal = signal_number;
}

// Installs the handler without SA_RESTART, so a blocked waitpid() returns EINTR and the loop
// can stop the children; restores the previous handlers when the pool is done.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction action = {};
    action.sa_handler = &OnStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ = {};
  struct sigaction old_term_ = {};
};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// fork + exec. Everything the child needs is prepared before fork(); between fork() and exec()
// it only calls async-signal-safe functions.
pid_t Spawn(const ChildSpec& spec, std::string* error) {
  const int log_fd = open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    *error = "cannot open " + spec.log_path + ": " + std::strerror(errno);
    return -1;
  }
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  std::vector<char*> argv;
  for (const std::string& arg : spec.argv)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (null_fd >= 0)
      dup2(null_fd, STDIN_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv("/proc/self/exe", argv.data());
    const char message[] = "rblnsim: sweep: cannot exec /proc/self/exe\n";
    (void)!write(STDERR_FILENO, message, sizeof(message) - 1);
    _exit(127);
  }
  if (pid < 0)
    *error = std::string("fork failed: ") + std::strerror(errno);
  close(log_fd);
  if (null_fd >= 0)
    close(null_fd);
  return pid;
}

}  // namespace

int RunChildren(const std::vector<ChildSpec>& children,
                int jobs,
                const std::function<void(size_t, const ChildExit&)>& on_done) {
  StopSignals stop_signals;
  struct Running {
    size_t index;
    std::chrono::steady_clock::time_point start;
  };
  std::map<pid_t, Running> running;
  size_t next = 0;
  bool stopped = false;
  while (next < children.size() || !running.empty()) {
    // A signal that lands just before waitpid() blocks is seen here after the next child ends.
    if (g_stop_signal != 0 && !stopped) {
      for (const auto& [child, unused] : running)
        kill(child, SIGTERM);
      stopped = true;
    }
    while (g_stop_signal == 0 && next < children.size() &&
           static_cast<int>(running.size()) < jobs) {
      const size_t index = next++;
      ChildExit result;
      const auto start = std::chrono::steady_clock::now();
      const pid_t pid = Spawn(children[index], &result.spawn_error);
      if (pid < 0) {
        on_done(index, result);
        continue;
      }
      running[pid] = Running{index, start};
    }
    if (running.empty())
      break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno != EINTR)
        break;  // ECHILD: nothing left that we started
      continue;
    }
    const auto found = running.find(pid);
    if (found == running.end())
      continue;
    ChildExit result;
    result.wall_s = SecondsSince(found->second.start);
    if (WIFEXITED(status))
      result.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      result.signal = WTERMSIG(status);
    result.stopped = stopped;
    const size_t index = found->second.index;
    running.erase(found);
    on_done(index, result);
  }
  return g_stop_signal == 0 ? 0 : 128 + g_stop_signal;
}

int AvailableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

}  // namespace rblnsim::cli
