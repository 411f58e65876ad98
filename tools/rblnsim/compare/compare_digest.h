// The library header is tools/rblnsim/lib/compare/compare_digest.h; this path stays only while
// calibrate_params.h and calibrate_report.h still include it. New code includes the library's.
#ifndef RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_DIGEST_H_
#define RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_DIGEST_H_

#include "tools/rblnsim/lib/compare/compare_digest.h"

#endif  // RBLNSIM_TOOLS_RBLNSIM_COMPARE_COMPARE_DIGEST_H_
