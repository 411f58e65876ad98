// rblnsim's own include of the C-ABI header; the declarations live at the path consumers use.
#ifndef RBLNSIM_PROFILER_ABI_RBLN_KINETO_API_H_
#define RBLNSIM_PROFILER_ABI_RBLN_KINETO_API_H_

#include "profiler/abi/include/rebel/runtime/api/rbln_kineto_api.h"

#endif  // RBLNSIM_PROFILER_ABI_RBLN_KINETO_API_H_
