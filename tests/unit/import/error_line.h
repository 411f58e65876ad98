// Checks the importer's error shape: one line "<name>: byte <offset>: <what>".
#ifndef RBLNSIM_TESTS_UNIT_IMPORT_ERROR_LINE_H_
#define RBLNSIM_TESTS_UNIT_IMPORT_ERROR_LINE_H_

#include <cstdint>
#include <string>

namespace rblnsim::testing {

// The offset in |message| if it has the shape above for |name|, else -1. (No std::regex: GCC 12
// warns inside <regex> under the sanitizer build.)
inline int64_t ErrorLineOffset(const std::string& message, const std::string& name) {
  const std::string prefix = name + ": byte ";
  if (message.rfind(prefix, 0) != 0 || message.find('\n') != std::string::npos)
    return -1;
  size_t i = prefix.size();
  int64_t offset = 0;
  const size_t digits_begin = i;
  while (i < message.size() && message[i] >= '0' && message[i] <= '9') {
    offset = offset * 10 + (message[i++] - '0');
  }
  if (i == digits_begin || message.compare(i, 2, ": ") != 0 || i + 2 >= message.size()) {
    return -1;
  }
  return offset;
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_IMPORT_ERROR_LINE_H_
