// Splits a command's or a formatter's text output into lines for line-by-line expectations.
#ifndef RBLNSIM_TESTS_UNIT_TEXT_LINES_H_
#define RBLNSIM_TESTS_UNIT_TEXT_LINES_H_

#include <sstream>
#include <string>
#include <vector>

namespace rblnsim::testing {

inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_TEXT_LINES_H_
