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
