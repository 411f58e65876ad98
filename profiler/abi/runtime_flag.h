// How the runtime's flags read their environment text (<rbln/runtime/flags.h>): "1", "true",
// "on" and "yes" in any case are on; anything else, including unset or empty, is off.
#ifndef RBLNSIM_PROFILER_ABI_RUNTIME_FLAG_H_
#define RBLNSIM_PROFILER_ABI_RUNTIME_FLAG_H_

#include <string_view>

namespace rblnsim::abi {

bool FlagTextIsOn(std::string_view text);

}  // namespace rblnsim::abi

#endif  // RBLNSIM_PROFILER_ABI_RUNTIME_FLAG_H_
