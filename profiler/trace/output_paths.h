// The one guard every command runs on its output paths before any work starts. An output must
// never destroy an input or another output of the same command, and must be something a
// command can replace: a regular file or a new name. Symbolic links are refused rather than
// replaced by a file (which would silently cut the link) or written through (which would write
// somewhere the user did not name); naming the link's target writes there.
#ifndef RBLNSIM_PROFILER_TRACE_OUTPUT_PATHS_H_
#define RBLNSIM_PROFILER_TRACE_OUTPUT_PATHS_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace rblnsim::trace {

struct NamedPath {
  std::string role;  // how the user gave it: "--trace", "scenario", "--out"
  std::string path;
};

// Refuses, naming the role and path in one line:
//  - an empty output path;
//  - an output that is the same file as an input or as another output (same device and inode
//    when it exists, the same resolved path when it does not);
//  - an output that exists and is not a regular file (a directory, a device node, a FIFO, a
//    socket), or that is a symbolic link.
// Inputs that do not exist are ignored here: their own loaders report them.
Status CheckOutputPaths(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs);

// An output directory (plots): an existing writable directory, or a new name whose parent lets
// us create it. Nothing is created here, so bad input leaves no directory behind.
Status CheckOutputDirectory(const std::string& role, const std::string& dir);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_OUTPUT_PATHS_H_
