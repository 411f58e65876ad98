// CLI11 validators for the rblnsim flags (command_line.cc): paths that may not be empty, whole
// numbers read exactly, finite non-negative numbers.
#ifndef RBLNSIM_TOOLS_RBLNSIM_FLAG_VALIDATORS_H_
#define RBLNSIM_TOOLS_RBLNSIM_FLAG_VALIDATORS_H_

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace rblnsim::cli {

// A path given on the command line may not be empty: '' would otherwise read as "not given"
// and the output silently not written (or, for --trace, fail only after the simulation).
inline CLI::Validator NonEmptyPath() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("the path is empty") : std::string();
      },
      "PATH", "NonEmptyPath");
}

// Integers as written: digits only, within the option's type, no clamping. CLI11 would
// otherwise turn -1, 2^64 or 1e23 into the nearest representable value.
enum class IntegerRange { kUint64, kNonNegativeInt64 };

inline CLI::Validator ExactInteger(IntegerRange range) {
  return CLI::Validator(
      [range](std::string& value) -> std::string {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
          return "needs a whole number >= 0 (got " + value + ")";
        }
        errno = 0;
        if (range == IntegerRange::kUint64) {
          (void)std::strtoull(value.c_str(), nullptr, 10);
        } else {
          (void)std::strtoll(value.c_str(), nullptr, 10);
        }
        if (errno == ERANGE)
          return "is out of range (" + value + ")";
        return std::string();
      },
      "INT", "ExactInteger");
}

// A finite number >= 0 (NaN and infinity would compare false against every threshold).
inline CLI::Validator FiniteNonNegative() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (end == value.c_str() || *end != '\0' || !std::isfinite(number) || number < 0) {
          return "needs a finite number >= 0 (got " + value + ")";
        }
        return std::string();
      },
      "NUMBER", "FiniteNonNegative");
}

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_FLAG_VALIDATORS_H_
