#include "profiler/trace/import/json_scan.h"

#include <cstdio>
#include <cstring>
#include <vector>

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

StatusOr<size_t> SkipContainer(std::string_view text, size_t pos) {
  std::vector<size_t> open;  // positions of the unclosed '{' / '['
  size_t i = pos;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      RBLNSIM_ASSIGN_OR_RETURN(i, SkipString(text, i));
      continue;
    }
    if (c == '{' || c == '[') {
      if (open.size() >= kMaxJsonDepth) {
        return ErrorAtByte(i, "nesting deeper than " + std::to_string(kMaxJsonDepth));
      }
      open.push_back(i);
    } else if (c == '}' || c == ']') {
      const char expected = text[open.back()] == '{' ? '}' : ']';
      if (c != expected) {
        return ErrorAtByte(i, "found " + DescribeByte(c) + " where '" + expected +
                                  "' closes the value opened at byte " +
                                  std::to_string(open.back()));
      }
      open.pop_back();
      if (open.empty())
        return i + 1;
    }
    ++i;
  }
  const bool is_object = text[open.back()] == '{';
  return ErrorAtByte(text.size(), std::string("unexpected end of input: the ") +
                                      (is_object ? "object" : "array") + " opened at byte " +
                                      std::to_string(open.back()) + " is not closed");
}

}  // namespace

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

size_t SkipWhitespace(std::string_view text, size_t pos) {
  while (pos < text.size() && IsJsonWhitespace(text[pos]))
    ++pos;
  return pos;
}

StatusOr<size_t> SkipString(std::string_view text, size_t pos) {
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
  return ErrorAtByte(text.size(), "unexpected end of input: the string opened at byte " +
                                      std::to_string(pos) + " is not closed");
}

StatusOr<size_t> SkipValue(std::string_view text, size_t pos) {
  if (pos >= text.size())
    return ErrorAtByte(pos, "unexpected end of input, expected a value");
  const char c = text[pos];
  if (c == '"')
    return SkipString(text, pos);
  if (c == '{' || c == '[')
    return SkipContainer(text, pos);
  size_t i = pos;
  while (i < text.size() && !IsDelimiter(text[i]))
    ++i;
  if (i == pos)
    return ErrorAtByte(pos, "expected a value, found " + DescribeByte(c));
  return i;
}

}  // namespace rblnsim::trace::import
