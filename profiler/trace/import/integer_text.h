// Integers as trace text writes them, read without a JSON parser: both event readers (the
// simdjson walk, event_reader.cc, and the plain scan, plain_event.h) take pids, tids, flow ids
// and integer args through these, so they agree to the digit.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_INTEGER_TEXT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_INTEGER_TEXT_H_

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

namespace rblnsim::trace::import {

// A number token of the form "-"? ("0" | [1-9][0-9]{0,17}): valid JSON that fits in int64, read
// without simdjson (which would parse it again); nullopt for any other token.
inline std::optional<int64_t> ShortPlainInteger(std::string_view token) {
  const bool negative = !token.empty() && token[0] == '-';
  if (negative)
    token.remove_prefix(1);
  if (token.empty() || token.size() > 18 || (token[0] == '0' && token.size() > 1))
    return std::nullopt;
  int64_t value = 0;
  for (const char c : token) {
    const auto d = static_cast<unsigned>(c - '0');
    if (d > 9)
      return std::nullopt;
    value = value * 10 + d;
  }
  return negative ? -value : value;
}

// Eight ASCII digits read as one little-endian word (the first byte in memory the most
// significant digit), as their value. Every byte must be a digit (LeadingAsciiDigits == 8).
inline uint64_t EightAsciiDigitsValue(uint64_t chunk) {
  uint64_t v = chunk - 0x3030303030303030ull;
  v = v * 10 + (v >> 8);  // pairs of digits, in every other byte
  return (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
          (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
         32;
}

// How many of the eight bytes of |chunk| (read as above) are ASCII digits before the first
// other byte. Only bytes before the first non-digit matter, and adding 6 to a digit byte never
// carries into the next.
inline int LeadingAsciiDigits(uint64_t chunk) {
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull;
  constexpr uint64_t kDigitHigh = 0x3030303030303030ull;
  const uint64_t not_digit =
      ((chunk & kHigh) ^ kDigitHigh) | (((chunk + 0x0606060606060606ull) & kHigh) ^ kDigitHigh);
  return not_digit == 0 ? 8 : __builtin_ctzll(not_digit) / 8;
}

// The value of the first |count| (1 to 8) ASCII digits of |chunk|.
inline uint64_t LeadingAsciiDigitsValue(uint64_t chunk, int count) {
  // The digits moved to the last bytes, '0's before them.
  const int fill = 8 * (8 - count);
  const uint64_t digits =
      fill == 0 ? chunk : (chunk << fill) | (0x3030303030303030ull >> (64 - fill));
  return EightAsciiDigitsValue(digits);
}

// All of |text| as an integer of type T (std::from_chars: an optional '-', digits). On false,
// |*out| may still hold what a leading part read, as RowId::value keeps it.
template <typename T>
bool ParseWhole(std::string_view text, T* out) {
  if (text.empty())
    return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_INTEGER_TEXT_H_
