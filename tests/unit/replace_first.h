// Test inputs made by editing a valid one: the first occurrence of a text replaced.
#ifndef RBLNSIM_TESTS_UNIT_REPLACE_FIRST_H_
#define RBLNSIM_TESTS_UNIT_REPLACE_FIRST_H_

#include <gtest/gtest.h>

#include <string>

namespace rblnsim::testing {

// |text| with the first |from| replaced by |to|; fails the test when |from| is absent.
inline std::string ReplaceFirst(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_REPLACE_FIRST_H_
