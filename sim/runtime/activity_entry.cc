// The runtime activity API of librblnsim_runtime.so (<rbln/runtime/activity.h>, stage F, and
// <rebel/v2/runtime/activity.h>, stage E): both namespaces drive the process-wide
// SimulatedRuntime, the one the C-ABI drives too, so one session at a time across all seams.
#include <cstdlib>
#include <string_view>

#include "profiler/abi/runtime_flag.h"
#include "rbln/runtime/activity.h"
#include "rbln/runtime/flags.h"
#include "rebel/v2/runtime/activity.h"
#include "sim/runtime/simulated_runtime.h"

using rblnsim::sim::SimulatedRuntime;

namespace rbln::runtime {

void beginActivities() {
  SimulatedRuntime::Get().producer().BeginActivities();
}

Activities endActivities() {
  return SimulatedRuntime::Get().producer().EndActivities();
}

// Read on every call. RBLN_PROFILER falls back to the scenario's env: section when the process
// does not set it, so a scenario that turns the profiler on behaves as under the rblnsim CLI.
bool Flag::value() const {
  const char* text = std::getenv(env_name_);
  if (text != nullptr && *text != '\0')
    return rblnsim::abi::FlagTextIsOn(text);
  if (std::string_view(env_name_) == "RBLN_PROFILER")
    return SimulatedRuntime::Get().ProfilerFlagNow();
  return false;
}

}  // namespace rbln::runtime

namespace rebel::v2::runtime {

void beginActivities() {
  ::rbln::runtime::beginActivities();
}

Activities endActivities() {
  return ::rbln::runtime::endActivities();
}

}  // namespace rebel::v2::runtime
