// How every rblnsim command reports bad input: one line on stderr, exit status 2.
#ifndef RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_
#define RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_

#include <cstdio>
#include <string>

#include "profiler/base/status.h"

namespace rblnsim::cli {

inline constexpr int kExitBadInput = 2;

inline int BadInput(const std::string& message) {
  std::fprintf(stderr, "rblnsim: %s\n", message.c_str());
  return kExitBadInput;
}

inline int BadInput(const Status& status) { return BadInput(status.message()); }

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_
