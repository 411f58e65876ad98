// Runtime flags under the previous release's namespace; see <rbln/runtime/flags.h>.
#ifndef REBEL_V2_RUNTIME_FLAGS_H_
#define REBEL_V2_RUNTIME_FLAGS_H_

#include "rbln/runtime/flags.h"
#include "rebel/v2/runtime/activity.h"

namespace rebel::v2::runtime {

using Flag = ::rbln::runtime::Flag;

namespace flags {
inline constexpr Flag kProfiler{"RBLN_PROFILER"};
}  // namespace flags

}  // namespace rebel::v2::runtime

#endif  // REBEL_V2_RUNTIME_FLAGS_H_
