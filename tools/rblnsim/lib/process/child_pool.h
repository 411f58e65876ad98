// Runs child processes N at a time. SystemC elaborates once per process, so every sweep point and
// every calibration candidate is its own process: the same rblnsim binary (/proc/self/exe, so a
// rebuild during a sweep cannot mix two versions), with stdout and stderr going to its log file.
#ifndef RBLNSIM_TOOLS_RBLNSIM_LIB_PROCESS_CHILD_POOL_H_
#define RBLNSIM_TOOLS_RBLNSIM_LIB_PROCESS_CHILD_POOL_H_

#include <functional>
#include <string>
#include <vector>

namespace rblnsim::cli {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is only the name the child sees
  std::string log_path;           // stdout and stderr, truncated first
};

struct ChildExit {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  double wall_s = 0;
  std::string spawn_error;  // the log could not be opened or fork failed
  bool stopped = false;     // it ended after an interrupted pool sent it SIGTERM: no result
};

// Runs every child, at most |jobs| at once, in the order given, calling |on_done| as each ends
// (in the parent, one call at a time). Returns 0, or 128 + the signal number when SIGINT or
// SIGTERM arrived: the running children then get SIGTERM, are reaped, and no more start.
int RunChildren(const std::vector<ChildSpec>& children,
                int jobs,
                const std::function<void(size_t, const ChildExit&)>& on_done);

// CPUs this process may run on (its affinity mask), at least 1.
int AvailableCpus();

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_LIB_PROCESS_CHILD_POOL_H_
