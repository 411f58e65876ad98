// Runtime flags of the RBLN runtime's C++ API (namespace ::rbln::runtime::flags). A flag names
// its environment variable and reads it on every value() call: RBLN_PROFILER counts when a
// profiling session is configured, not when the process started.
#ifndef RBLN_RUNTIME_FLAGS_H_
#define RBLN_RUNTIME_FLAGS_H_

#include <cstdint>

#include "rbln/runtime/activity.h"

namespace rbln::runtime {

class Flag {
 public:
  constexpr explicit Flag(const char* env_name) : env_name_(env_name) {}
  const char* name() const { return env_name_; }
  // True for "1", "true", "on", "yes" (any case); false for anything else. rblnsim: when the
  // process leaves RBLN_PROFILER unset (or empty), the simulated runtime answers with the env:
  // section of the scenario named by RBLNSIM_SCENARIO, as the rblnsim CLI would.
  RBLN_RUNTIME_API bool value() const;

 private:
  const char* env_name_;
};

namespace flags {
inline constexpr Flag kProfiler{"RBLN_PROFILER"};
}  // namespace flags

}  // namespace rbln::runtime

#endif  // RBLN_RUNTIME_FLAGS_H_
