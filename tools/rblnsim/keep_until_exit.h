// What a command is done with as it ends, handed over instead of freed. A trace of a gigabyte is
// millions of heap blocks: freeing them one by one took 60 ms of a 2 s `rblnsim analyze` on a
// 686 MB trace, while the kernel takes back a process's memory at once when it exits. The
// values stay reachable from a static pointer, so leak checkers do not report them, and each
// command calls this at most once per trace, so a process running many commands in a row (the
// tests) keeps only what those commands imported. Main thread only.
#ifndef RBLNSIM_TOOLS_RBLNSIM_KEEP_UNTIL_EXIT_H_
#define RBLNSIM_TOOLS_RBLNSIM_KEEP_UNTIL_EXIT_H_

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace rblnsim::cli {

template <typename T>
void KeepUntilExit(T&& value) {
  // Never deleted: a static vector would be destroyed at exit, freeing what it holds.
  static auto* const kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_KEEP_UNTIL_EXIT_H_
