// Path rules every command applies to its command line before any work starts. The flag
// validators are in flag_validators.h: CLI11 costs seconds to compile in every file that
// includes it, and the commands need none of it.
#ifndef RBLNSIM_TOOLS_RBLNSIM_OUTPUT_GUARD_H_
#define RBLNSIM_TOOLS_RBLNSIM_OUTPUT_GUARD_H_

#include <algorithm>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/output_paths.h"

namespace rblnsim::cli {

// trace::CheckOutputPaths over the outputs actually given (an empty one was not given: the
// parser refused empty values already).
inline Status GuardOutputs(const std::vector<trace::NamedPath>& inputs,
                           std::vector<trace::NamedPath> outputs) {
  outputs.erase(std::remove_if(outputs.begin(), outputs.end(),
                               [](const trace::NamedPath& output) { return output.path.empty(); }),
                outputs.end());
  return trace::CheckOutputPaths(inputs, outputs);
}

// Every check a command runs on its outputs before any work, in one place: no output names an
// input or another output (GuardOutputs), each output file given can be replaced, and the output
// directory given (|dir|, named by its flag) can be created. Nothing is created here, so bad
// input leaves nothing behind.
inline Status CheckOutputsBeforeWork(const std::vector<trace::NamedPath>& inputs,
                                     const std::vector<trace::NamedPath>& files,
                                     const trace::NamedPath& dir = {}) {
  RBLNSIM_RETURN_IF_ERROR(GuardOutputs(inputs, files));
  for (const trace::NamedPath& file : files) {
    if (!file.path.empty())
      RBLNSIM_RETURN_IF_ERROR(trace::CheckWritable(file.path));
  }
  if (!dir.path.empty())
    RBLNSIM_RETURN_IF_ERROR(trace::CheckOutputDirectory(dir.role, dir.path));
  return Status::Ok();
}

inline std::vector<trace::NamedPath> Named(const std::string& role,
                                           const std::vector<std::string>& paths) {
  std::vector<trace::NamedPath> named;
  for (const std::string& path : paths)
    named.push_back({role, path});
  return named;
}

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_OUTPUT_GUARD_H_
