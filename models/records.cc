#include "models/records.h"

namespace rblnsim::sim {

const char* FallbackReasonName(FallbackReason reason) {
  switch (reason) {
    case FallbackReason::kDtype: return "dtype-not-fp16";
    case FallbackReason::kNanInf: return "nan/inf input";
    case FallbackReason::kAllScalar: return "all-scalar inputs";
    case FallbackReason::kUnaligned: return "last dim not a multiple of 64";
    case FallbackReason::kUnsupportedOp: return "op not supported on the device";
  }
  return "unknown";
}

}  // namespace rblnsim::sim
