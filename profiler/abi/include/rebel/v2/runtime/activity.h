// The same activity API as <rbln/runtime/activity.h>, under the namespace of the previous
// release (torch-rbln stage E, ::rebel::v2::runtime). The types are shared; the functions are
// exported under this namespace's own names, so a consumer built for either release links.
#ifndef REBEL_V2_RUNTIME_ACTIVITY_H_
#define REBEL_V2_RUNTIME_ACTIVITY_H_

#include "rbln/runtime/activity.h"

namespace rebel::v2::runtime {

using Activity = ::rbln::runtime::Activity;
using Launch = ::rbln::runtime::Launch;
using Activities = ::rbln::runtime::Activities;

RBLN_RUNTIME_API void beginActivities();
RBLN_RUNTIME_API Activities endActivities();

}  // namespace rebel::v2::runtime

#endif  // REBEL_V2_RUNTIME_ACTIVITY_H_
