#include "profiler/trace/import/time_text.h"

#include <cstddef>
#include <cstring>

#include "profiler/trace/import/integer_text.h"

namespace rblnsim::trace::import {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// The result has at most 19 digits, so more significant digits than this never matter.
constexpr int kKeptDigits = 24;
// Exponents beyond this make any non-zero value overflow (or round to zero) anyway.
constexpr int64_t kExponentCap = 100000;

// Eight ASCII digits at |at|, the first the most significant, as their value in |*out|; false
// when one is no digit. Every event has a ts and most a dur, each with eight digits or more
// before the point, so they are read as one word rather than a digit at a time.
bool EightDigits(const char* at, uint64_t* out) {
  uint64_t chunk = 0;
  std::memcpy(&chunk, at, sizeof chunk);
  if (LeadingAsciiDigits(chunk) != 8)
    return false;
  *out = EightAsciiDigitsValue(chunk);
  return true;
}

// Kineto's own form, "<digits>.<three digits>" µs (or plain digits), read as integers. At most
// 15 integer digits, so nothing can overflow; anything else returns false and takes the general
// path.
bool KinetoMicrosToNs(std::string_view text, int64_t* ns) {
  const bool negative = !text.empty() && text[0] == '-';
  const char* digits = text.data() + (negative ? 1 : 0);
  size_t size = text.size() - (negative ? 1 : 0);
  int64_t frac = 0;
  if (size >= 5 && digits[size - 4] == '.') {
    const auto a = static_cast<unsigned>(digits[size - 3] - '0');
    const auto b = static_cast<unsigned>(digits[size - 2] - '0');
    const auto c = static_cast<unsigned>(digits[size - 1] - '0');
    if (a > 9 || b > 9 || c > 9)
      return false;
    frac = static_cast<int64_t>(a * 100 + b * 10 + c);
    size -= 4;
  }
  // A 16th digit could overflow: the general path reads it.
  if (size == 0 || size > 15)
    return false;
  int64_t whole = 0;
  size_t lead = size;
  uint64_t low = 0;
  if (size >= 8) {
    if (!EightDigits(digits + size - 8, &low))
      return false;
    lead = size - 8;
  }
  for (size_t i = 0; i < lead; ++i) {
    const auto d = static_cast<unsigned>(digits[i] - '0');
    if (d > 9)
      return false;
    whole = whole * 10 + d;
  }
  if (size >= 8)
    whole = whole * 100000000 + static_cast<int64_t>(low);
  const int64_t value = whole * 1000 + frac;
  *ns = negative ? -value : value;
  return true;
}

}  // namespace

bool DecimalTextToNs(std::string_view text, int ns_exponent, int64_t* ns) {
  if (ns_exponent == 3 && KinetoMicrosToNs(text, ns))
    return true;
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
    return false;
  // JSON forbids leading zeros ("01"); accept them, they change nothing.
  if (i < text.size() && text[i] == '.') {
    ++i;
    const size_t frac_begin = i;
    while (i < text.size() && IsDigit(text[i]))
      take(text[i++], /*before_point=*/false);
    if (i == frac_begin)
      return false;
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
      return false;
    if (exp_negative)
      exponent = -exponent;
  }
  if (i != text.size())
    return false;
  if (kept == 0) {
    *ns = 0;
    return true;
  }

  point += exponent + ns_exponent;
  if (point > 19)
    return false;
  uint64_t value = 0;
  for (int64_t k = 0; k < point; ++k) {
    const uint64_t d = k < kept ? static_cast<uint64_t>(digits[k] - '0') : 0;
    if (__builtin_mul_overflow(value, uint64_t{10}, &value) ||
        __builtin_add_overflow(value, d, &value)) {
      return false;
    }
  }
  if (point >= 0 && point < kept && digits[point] >= '5')
    ++value;
  if (value > static_cast<uint64_t>(INT64_MAX))
    return false;
  const auto signed_value = static_cast<int64_t>(value);
  *ns = negative ? -signed_value : signed_value;
  return true;
}

}  // namespace rblnsim::trace::import
