#include "profiler/bridge/json_syntax.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "profiler/trace/json_writer.h"

namespace rblnsim::bridge {

namespace {

constexpr int kMaxDepth = 64;

// A recursive-descent recogniser: it only advances |pos_| and reports success, building nothing.
class JsonRecognizer {
 public:
  explicit JsonRecognizer(std::string_view text) : text_(text) {}

  bool WholeTextIsOneValue() {
    SkipWhitespace();
    if (!Value(0))
      return false;
    SkipWhitespace();
    return pos_ == text_.size();
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    if (Peek() != c || AtEnd())
      return false;
    ++pos_;
    return true;
  }
  bool ConsumeLiteral(std::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal)
      return false;
    pos_ += literal.size();
    return true;
  }
  void SkipWhitespace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) {
      ++pos_;
    }
  }
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  static unsigned HexValue(char c) {
    return IsDigit(c) ? static_cast<unsigned>(c - '0')
                      : static_cast<unsigned>((c | 0x20) - 'a' + 10);
  }
  static bool IsHex(char c) {
    return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  bool Value(int depth) {
    if (depth > kMaxDepth || AtEnd())
      return false;
    switch (Peek()) {
      case '{':
        return Object(depth + 1);
      case '[':
        return Array(depth + 1);
      case '"':
        return String();
      case 't':
        return ConsumeLiteral("true");
      case 'f':
        return ConsumeLiteral("false");
      case 'n':
        return ConsumeLiteral("null");
      default:
        return Number();
    }
  }

  bool Object(int depth) {
    Consume('{');
    SkipWhitespace();
    if (Consume('}'))
      return true;
    while (true) {
      SkipWhitespace();
      if (!String())
        return false;
      SkipWhitespace();
      if (!Consume(':'))
        return false;
      SkipWhitespace();
      if (!Value(depth))
        return false;
      SkipWhitespace();
      if (Consume('}'))
        return true;
      if (!Consume(','))
        return false;
    }
  }

  bool Array(int depth) {
    Consume('[');
    SkipWhitespace();
    if (Consume(']'))
      return true;
    while (true) {
      SkipWhitespace();
      if (!Value(depth))
        return false;
      SkipWhitespace();
      if (Consume(']'))
        return true;
      if (!Consume(','))
        return false;
    }
  }

  bool String() {
    if (!Consume('"'))
      return false;
    bool want_low_surrogate = false;
    while (!AtEnd()) {
      const char c = text_[pos_];
      if (static_cast<unsigned char>(c) >= 0x80) {
        // Readers such as simdjson (rblnsim's importer) refuse a document with ill-formed UTF-8.
        size_t bad = 0;
        const size_t length = trace::Utf8SequenceLength(text_.substr(pos_), &bad);
        if (length == 0 || want_low_surrogate)
          return false;
        pos_ += length;
        continue;
      }
      ++pos_;
      if (c == '"')
        return !want_low_surrogate;
      if (static_cast<unsigned char>(c) < 0x20)
        return false;  // raw control characters
      if (c != '\\') {
        if (want_low_surrogate)
          return false;
        continue;
      }
      if (AtEnd())
        return false;
      const char escape = text_[pos_++];
      if (escape == 'u') {
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
          if (AtEnd() || !IsHex(text_[pos_]))
            return false;
          code = code * 16 + HexValue(text_[pos_]);
          ++pos_;
        }
        // A \uD800-\uDBFF escape must be followed by a \uDC00-\uDFFF one, and only then.
        const bool high = code >= 0xD800 && code <= 0xDBFF;
        const bool low = code >= 0xDC00 && code <= 0xDFFF;
        if (low != want_low_surrogate)
          return false;
        want_low_surrogate = high;
      } else if (want_low_surrogate) {
        return false;
      } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
        return false;
      }
    }
    return false;  // unterminated
  }

  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool Number() {
    const size_t start = pos_;
    if (!NumberSyntax())
      return false;
    // Grammatically valid numbers outside what a double (or a 64-bit integer) holds are refused
    // by common readers, simdjson included, which would then reject the whole trace.
    const std::string_view token = text_.substr(start, pos_ - start);
    if (token.find_first_of(".eE") == std::string_view::npos) {
      // Integers are most annotation values (ids, counts): checked in place, no copy.
      const char* end = token.data() + token.size();
      if (token[0] == '-') {
        int64_t value = 0;
        return std::from_chars(token.data(), end, value).ec != std::errc::result_out_of_range;
      }
      uint64_t value = 0;
      return std::from_chars(token.data(), end, value).ec != std::errc::result_out_of_range;
    }
    return std::isfinite(std::strtod(std::string(token).c_str(), nullptr));
  }

  bool NumberSyntax() {
    Consume('-');
    if (Consume('0')) {
      // A leading zero stands alone: "01" is not JSON.
    } else if (IsDigit(Peek())) {
      while (IsDigit(Peek()))
        ++pos_;
    } else {
      return false;
    }
    if (Consume('.')) {
      if (!IsDigit(Peek()))
        return false;
      while (IsDigit(Peek()))
        ++pos_;
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-')
        ++pos_;
      if (!IsDigit(Peek()))
        return false;
      while (IsDigit(Peek()))
        ++pos_;
    }
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

bool IsValidJsonValue(std::string_view text) {
  // Nearly every raw value is a launch id: digits, checked without the recogniser's set-up.
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = text.substr(negative ? 1 : 0);
  // A plain loop: find_first_not_of searches the set of ten digits for every character.
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!digits.empty() && digits.size() <= 18 && (digits[0] != '0' || digits.size() == 1) &&
      std::all_of(digits.begin(), digits.end(), is_digit)) {
    return true;
  }
  return JsonRecognizer(text).WholeTextIsOneValue();
}

}  // namespace rblnsim::bridge
