#include "profiler/abi/runtime_flag.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace rblnsim::abi {

bool FlagTextIsOn(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "1" || lower == "true" || lower == "on" || lower == "yes";
}

}  // namespace rblnsim::abi
