#include "profiler/trace/import/time_text.h"

#include <cstddef>

namespace rblnsim::trace::import {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// The result has at most 19 digits, so more significant digits than this never matter.
constexpr int kKeptDigits = 24;
// Exponents beyond this make any non-zero value overflow (or round to zero) anyway.
constexpr int64_t kExponentCap = 100000;

// Kineto's own form, "<digits>.<three digits>" µs (or plain digits), read as integers: every
// event has a ts and most a dur, so this is the common case. At most 15 integer digits, so
// nothing can overflow; anything else returns nullopt and takes the general path.
std::optional<int64_t> KinetoMicrosToNs(std::string_view text) {
  size_t i = text.size() > 0 && text[0] == '-' ? 1 : 0;
  const size_t int_begin = i;
  int64_t whole = 0;
  while (i < text.size() && IsDigit(text[i])) {
    if (i - int_begin == 15)
      return std::nullopt;  // a 16th digit could overflow: the general path reads it
    whole = whole * 10 + (text[i++] - '0');
  }
  if (i == int_begin)
    return std::nullopt;
  int64_t frac = 0;
  if (i < text.size()) {
    if (text.size() - i != 4 || text[i] != '.' || !IsDigit(text[i + 1]) || !IsDigit(text[i + 2]) ||
        !IsDigit(text[i + 3])) {
      return std::nullopt;
    }
    frac = (text[i + 1] - '0') * 100 + (text[i + 2] - '0') * 10 + (text[i + 3] - '0');
  }
  const int64_t ns = whole * 1000 + frac;
  return int_begin == 1 ? -ns : ns;
}

}  // namespace

std::optional<int64_t> DecimalTextToNs(std::string_view text, int ns_exponent) {
  if (ns_exponent == 3) {
    if (std::optional<int64_t> ns = KinetoMicrosToNs(text))
      return ns;
  }
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative)
    ++i;

  // Significant digits without leading zeros, and where the decimal point falls among them.
  char digits[kKeptDigits];
  int kept = 0;
  int64_t point = 0;  // number of digits of |digits| (extended by zeros) before the point
  auto take = [&](char c, bool before_point) {
    if (kept == 0 && c == '0') {
      if (!before_point)
        --point;  // 0.00ddd: each zero after the point shifts it left
      return;
    }
    if (kept < kKeptDigits)
      digits[kept++] = c;
    if (before_point)
      ++point;
  };

  const size_t int_begin = i;
  while (i < text.size() && IsDigit(text[i]))
    take(text[i++], /*before_point=*/true);
  if (i == int_begin)
    return std::nullopt;
  // JSON forbids leading zeros ("01"); accept them, they change nothing.
  if (i < text.size() && text[i] == '.') {
    ++i;
    const size_t frac_begin = i;
    while (i < text.size() && IsDigit(text[i]))
      take(text[i++], /*before_point=*/false);
    if (i == frac_begin)
      return std::nullopt;
  }
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
      exp_negative = text[i++] == '-';
    const size_t exp_begin = i;
    while (i < text.size() && IsDigit(text[i])) {
      if (exponent < kExponentCap)
        exponent = exponent * 10 + (text[i] - '0');
      ++i;
    }
    if (i == exp_begin)
      return std::nullopt;
    if (exp_negative)
      exponent = -exponent;
  }
  if (i != text.size())
    return std::nullopt;
  if (kept == 0)
    return 0;

  point += exponent + ns_exponent;
  if (point > 19)
    return std::nullopt;
  uint64_t value = 0;
  for (int64_t k = 0; k < point; ++k) {
    const uint64_t d = k < kept ? static_cast<uint64_t>(digits[k] - '0') : 0;
    if (__builtin_mul_overflow(value, uint64_t{10}, &value) ||
        __builtin_add_overflow(value, d, &value)) {
      return std::nullopt;
    }
  }
  if (point >= 0 && point < kept && digits[point] >= '5')
    ++value;
  if (value > static_cast<uint64_t>(INT64_MAX))
    return std::nullopt;
  const auto signed_value = static_cast<int64_t>(value);
  return negative ? -signed_value : signed_value;
}

}  // namespace rblnsim::trace::import
