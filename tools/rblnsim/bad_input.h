// How every rblnsim command reports a failure: one line on stderr, and the exit status the error's
// code names (base/status.h ExitStatusFor): 2 for bad input, 3 for a failed write, 4 when the
// machine's limits were reached.
#ifndef RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_
#define RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_

#include <cstdio>
#include <string>

#include "base/status.h"

namespace rblnsim::cli {

inline constexpr int kExitBadInput = 2;

// Messages quote file paths and values from the input (metadata.json fields, scenario strings):
// control characters are escaped so the error stays one line and cannot drive the terminal.
inline std::string OneLine(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

inline int BadInput(const std::string& message) {
  std::fprintf(stderr, "rblnsim: %s\n", OneLine(message).c_str());
  return kExitBadInput;
}

inline int ReportError(const Status& status) {
  std::fprintf(stderr, "rblnsim: %s\n", OneLine(status.message()).c_str());
  return ExitStatusFor(status.code());
}

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_
