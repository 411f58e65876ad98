#include "profiler/bridge/json_syntax.h"

#include <cstddef>

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
    while (!AtEnd()) {
      const char c = text_[pos_++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return false;  // raw control characters
      if (c != '\\')
        continue;
      if (AtEnd())
        return false;
      const char escape = text_[pos_++];
      if (escape == 'u') {
        for (int i = 0; i < 4; ++i) {
          if (AtEnd() || !IsHex(text_[pos_]))
            return false;
          ++pos_;
        }
      } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
        return false;
      }
    }
    return false;  // unterminated
  }

  // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool Number() {
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
  return JsonRecognizer(text).WholeTextIsOneValue();
}

}  // namespace rblnsim::bridge
