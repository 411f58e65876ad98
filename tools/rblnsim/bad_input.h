// How every rblnsim command reports bad input: one line on stderr, exit status 2.
#ifndef RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_
#define RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_

#include <cstdio>
#include <string>

#include "profiler/base/status.h"

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

inline int BadInput(const Status& status) {
  return BadInput(status.message());
}

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_BAD_INPUT_H_
