#include "profiler/trace/import/json_scan.h"

#include <cstdio>
#include <cstring>

namespace rblnsim::trace::import {

namespace {

bool IsDelimiter(char c) {
  switch (c) {
    case ' ':
    case '\n':
    case '\r':
    case '\t':
    case ',':
    case ':':
    case '[':
    case ']':
    case '{':
    case '}':
    case '"':
      return true;
    default:
      return false;
  }
}

// The bytes a container walk must stop at; everything else is skipped in a tight loop.
struct StructuralTable {
  bool stop[256] = {};
  constexpr StructuralTable() {
    for (char c : {'"', '{', '}', '[', ']'})
      stop[static_cast<unsigned char>(c)] = true;
  }
};
constexpr StructuralTable kStructural;

StatusOr<size_t> SkipContainer(std::string_view text,
                               size_t pos,
                               uint64_t base,
                               bool* truncated,
                               size_t max_depth) {
  // Positions of the unclosed '{' / '['. On the stack: this runs once per trace event, and a
  // heap vector would be one allocation per event.
  size_t open[kMaxJsonDepth + 1];
  if (max_depth > kMaxJsonDepth + 1)
    max_depth = kMaxJsonDepth + 1;
  size_t depth = 0;
  const char* const data = text.data();
  const size_t n = text.size();
  size_t i = pos;
  while (i < n) {
    while (i < n && !kStructural.stop[static_cast<unsigned char>(data[i])])
      ++i;
    if (i == n)
      break;
    const char c = data[i];
    if (c == '"') {
      // Strings inside an event are short (keys, names): a byte loop beats a memchr call per
      // string. An escape skips the byte after the backslash, so \" does not end the string.
      const size_t open_quote = i++;
      while (i < n && data[i] != '"') {
        i += data[i] == '\\' ? 2 : 1;
      }
      if (i >= n) {
        if (truncated != nullptr)
          *truncated = true;
        return ErrorAtByte(base + n, "unexpected end of input: the string opened at byte " +
                                         std::to_string(base + open_quote) + " is not closed");
      }
      ++i;
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth >= max_depth)
        return ErrorAtByte(base + i, NestingTooDeep());
      open[depth++] = i;
    } else {
      const char expected = data[open[depth - 1]] == '{' ? '}' : ']';
      if (c != expected) {
        return ErrorAtByte(base + i, "found " + DescribeByte(c) + " where '" + expected +
                                         "' closes the value opened at byte " +
                                         std::to_string(base + open[depth - 1]));
      }
      if (--depth == 0)
        return i + 1;
    }
    ++i;
  }
  if (truncated != nullptr)
    *truncated = true;
  const bool is_object = data[open[depth - 1]] == '{';
  return ErrorAtByte(base + n, std::string("unexpected end of input: the ") +
                                   (is_object ? "object" : "array") + " opened at byte " +
                                   std::to_string(base + open[depth - 1]) + " is not closed");
}

}  // namespace

std::string NestingTooDeep() {
  return "JSON nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels";
}

Status ErrorAtByte(uint64_t offset, const std::string& what) {
  return Status::Error("byte " + std::to_string(offset) + ": " + what);
}

std::string DescribeByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f)
    return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof(buf), "byte 0x%02x", u);
  return buf;
}

std::string Excerpt(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < 40; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    out += (u >= 0x20 && u < 0x7f && u != '"') ? text[i] : '?';
  }
  return out + (text.size() > 40 ? "...\"" : "\"");
}

size_t SkipWhitespace(std::string_view text, size_t pos) {
  while (pos < text.size() && IsJsonWhitespace(text[pos]))
    ++pos;
  return pos;
}

StatusOr<size_t> SkipString(std::string_view text, size_t pos, uint64_t base, bool* truncated) {
  size_t i = pos + 1;
  while (i < text.size()) {
    const void* hit = std::memchr(text.data() + i, '"', text.size() - i);
    if (hit == nullptr)
      break;
    const size_t quote = static_cast<const char*>(hit) - text.data();
    // The quote is escaped iff an odd number of backslashes precede it.
    size_t first = quote;
    while (first > i && text[first - 1] == '\\')
      --first;
    if ((quote - first) % 2 == 0)
      return quote + 1;
    i = quote + 1;
  }
  if (truncated != nullptr)
    *truncated = true;
  return ErrorAtByte(base + text.size(), "unexpected end of input: the string opened at byte " +
                                             std::to_string(base + pos) + " is not closed");
}

StatusOr<size_t> SkipValue(std::string_view text,
                           size_t pos,
                           uint64_t base,
                           bool* truncated,
                           size_t max_depth) {
  if (pos >= text.size()) {
    if (truncated != nullptr)
      *truncated = true;
    return ErrorAtByte(base + pos, "unexpected end of input, expected a value");
  }
  const char c = text[pos];
  if (c == '"')
    return SkipString(text, pos, base, truncated);
  if (c == '{' || c == '[')
    return SkipContainer(text, pos, base, truncated, max_depth);
  size_t i = pos;
  while (i < text.size() && !IsDelimiter(text[i]))
    ++i;
  // A scalar ends at the next delimiter, and the end of |text| may not be the end of the input.
  if (i == text.size() && truncated != nullptr)
    *truncated = true;
  if (i == pos)
    return ErrorAtByte(base + pos, "expected a value, found " + DescribeByte(c));
  return i;
}

}  // namespace rblnsim::trace::import
