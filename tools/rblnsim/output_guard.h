// Path rules every command applies to its command line before any work starts.
#ifndef RBLNSIM_TOOLS_RBLNSIM_OUTPUT_GUARD_H_
#define RBLNSIM_TOOLS_RBLNSIM_OUTPUT_GUARD_H_

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/trace/atomic_file.h"
#include "profiler/trace/output_paths.h"

namespace rblnsim::cli {

// A path given on the command line may not be empty: '' would otherwise read as "not given"
// and the output silently not written (or, for --trace, fail only after the simulation).
inline CLI::Validator NonEmptyPath() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("the path is empty") : std::string();
      },
      "PATH", "NonEmptyPath");
}

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

// Integers as written: digits only, within the option's type, no clamping. CLI11 would
// otherwise turn -1, 2^64 or 1e23 into the nearest representable value.
enum class IntegerRange { kUint64, kNonNegativeInt64 };

inline CLI::Validator ExactInteger(IntegerRange range) {
  return CLI::Validator(
      [range](std::string& value) -> std::string {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
          return "needs a whole number >= 0 (got " + value + ")";
        }
        errno = 0;
        if (range == IntegerRange::kUint64) {
          (void)std::strtoull(value.c_str(), nullptr, 10);
        } else {
          (void)std::strtoll(value.c_str(), nullptr, 10);
        }
        if (errno == ERANGE)
          return "is out of range (" + value + ")";
        return std::string();
      },
      "INT", "ExactInteger");
}

// A finite number >= 0 (NaN and infinity would compare false against every threshold).
inline CLI::Validator FiniteNonNegative() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (end == value.c_str() || *end != '\0' || !std::isfinite(number) || number < 0) {
          return "needs a finite number >= 0 (got " + value + ")";
        }
        return std::string();
      },
      "NUMBER", "FiniteNonNegative");
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
