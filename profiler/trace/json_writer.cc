#include "profiler/trace/json_writer.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

namespace rblnsim::trace {

namespace {

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

void AppendEscaped(std::string* out, unsigned char c) {
  // RFC 8259's two-character escapes; everything else below 0x20 becomes \u00XX.
  static constexpr std::pair<char, std::string_view> kShortEscapes[] = {
      {'"', "\\\""}, {'\\', "\\\\"}, {'\b', "\\b"}, {'\f', "\\f"},
      {'\n', "\\n"}, {'\r', "\\r"},  {'\t', "\\t"},
  };
  for (const auto& [raw, text] : kShortEscapes) {
    if (c == static_cast<unsigned char>(raw)) {
      out->append(text);
      return;
    }
  }
  constexpr char kHex[] = "0123456789abcdef";
  const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
  out->append(escaped, sizeof(escaped));
}

// Whether any byte of the eight in |word| needs a look of its own when quoted: a control
// character, '"', '\\', or a byte of a multi-byte UTF-8 sequence. The classic bit tricks for "a
// byte below n" and "a zero byte" (exact as a yes/no for the whole word).
bool WordNeedsLook(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101;
  constexpr uint64_t kHighs = 0x8080808080808080;
  const uint64_t below_space = (word - kOnes * 0x20) & ~word;
  const uint64_t quote = word ^ (kOnes * '"');
  const uint64_t backslash = word ^ (kOnes * '\\');
  const uint64_t has_quote = (quote - kOnes) & ~quote;
  const uint64_t has_backslash = (backslash - kOnes) & ~backslash;
  return ((below_space | has_quote | has_backslash | word) & kHighs) != 0;
}

bool ByteNeedsLook(unsigned char c) {
  return c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
}

// The position of the first byte at or after |i| that needs a look, or text.size(). Names, keys
// and most values are plain ASCII: eight bytes are cleared at a time.
size_t SkipPlain(std::string_view text, size_t i) {
  const char* data = text.data();
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, sizeof(word));
    if (WordNeedsLook(word))
      break;
  }
  while (i < text.size() && !ByteNeedsLook(static_cast<unsigned char>(data[i])))
    ++i;
  return i;
}

// Appends |text| as a quoted JSON string to |out|.
void AppendQuoted(std::string* out, std::string_view text) {
  out->push_back('"');
  // Copy runs of bytes that need no escaping in one append.
  size_t run_start = 0;
  size_t i = 0;
  while ((i = SkipPlain(text, i)) < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      size_t bad_len = 0;
      const size_t len = Utf8SequenceLength(text.substr(i), &bad_len);
      if (len != 0) {
        i += len;
        continue;
      }
      out->append(text.substr(run_start, i - run_start));
      out->append(kReplacementChar);
      i += bad_len;
      run_start = i;
      continue;
    }
    out->append(text.substr(run_start, i - run_start));
    AppendEscaped(out, c);
    ++i;
    run_start = i;
  }
  out->append(text.substr(run_start));
  out->push_back('"');
}

// Writes ns as µs with three decimals into |buf| (at least 32 bytes); returns the end.
char* FormatNsAsUsTo(int64_t ns, char* buf) {
  // Work on the magnitude in unsigned arithmetic so INT64_MIN does not overflow.
  const bool negative = ns < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  const uint64_t frac = magnitude % 1000;
  char* end = buf;
  if (negative)
    *end++ = '-';
  end = std::to_chars(end, buf + 32, magnitude / 1000).ptr;
  *end++ = '.';
  *end++ = static_cast<char>('0' + frac / 100);
  *end++ = static_cast<char>('0' + frac / 10 % 10);
  *end++ = static_cast<char>('0' + frac % 10);
  return end;
}

}  // namespace

size_t Utf8SequenceLength(std::string_view text, size_t* bad_len) {
  *bad_len = 0;
  if (text.empty())
    return 0;
  const auto byte = [&text](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80)
    return 1;
  // Table 3-7 of the Unicode standard: the second byte's range depends on the lead byte, which
  // rules out overlong forms, surrogates and code points above U+10FFFF.
  size_t need = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    need = 2;
  } else if (lead == 0xE0) {
    need = 3;
    lo = 0xA0;
  } else if (lead == 0xED) {
    need = 3;
    hi = 0x9F;
  } else if (lead >= 0xE1 && lead <= 0xEF) {
    need = 3;
  } else if (lead == 0xF0) {
    need = 4;
    lo = 0x90;
  } else if (lead == 0xF4) {
    need = 4;
    hi = 0x8F;
  } else if (lead >= 0xF1 && lead <= 0xF3) {
    need = 4;
  } else {
    *bad_len = 1;
    return 0;
  }
  size_t i = 1;
  for (; i < need && i < text.size(); ++i) {
    const unsigned char b = byte(i);
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF))
      break;
  }
  if (i == need)
    return need;
  *bad_len = i;
  return 0;
}

size_t Utf8Length(std::string_view text) {
  size_t count = 0;
  while (!text.empty()) {
    size_t bad_len = 0;
    const size_t len = Utf8SequenceLength(text, &bad_len);
    text.remove_prefix(len != 0 ? len : bad_len);
    ++count;
  }
  return count;
}

void AppendJsonString(OutputSink& sink, std::string_view text) {
  std::string quoted;
  quoted.reserve(text.size() + 2);
  AppendQuoted(&quoted, text);
  sink.Append(quoted);
}

std::string JsonQuote(std::string_view text) {
  std::string quoted;
  quoted.reserve(text.size() + 2);
  AppendQuoted(&quoted, text);
  return quoted;
}

void AppendJsonQuoted(std::string* out, std::string_view text) {
  AppendQuoted(out, text);
}

std::string FormatJsonDouble(double value) {
  if (!std::isfinite(value))
    return "null";
  char buf[64];
  // to_chars without a format is the shortest round-trip form and ignores the C locale.
  const auto result = std::to_chars(buf, buf + sizeof(buf), value);
  std::string text(buf, result.ptr);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

std::string FormatNsAsUs(int64_t ns) {
  char buf[32];
  return std::string(buf, FormatNsAsUsTo(ns, buf));
}

JsonWriter::JsonWriter(OutputSink* sink, int line_break_depth)
    : sink_(sink), line_break_depth_(line_break_depth) {
  out_.reserve(kChunkBytes + 256);
}

JsonWriter::~JsonWriter() {
  Flush();
}

void JsonWriter::Flush() {
  if (out_.empty())
    return;
  sink_->Append(out_);
  out_.clear();
}

void JsonWriter::NewLine(size_t depth) {
  Put('\n');
  out_.append(depth * 2, ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty())
    return;
  assert(!stack_.back().is_object && "object members need a Key() first");
  Level& level = stack_.back();
  if (!level.empty)
    Put(',');
  level.empty = false;
  if (level.broken)
    NewLine(stack_.size());
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Level& level = stack_.back();
  if (!level.empty)
    Put(',');
  level.empty = false;
  if (level.broken)
    NewLine(stack_.size());
  AppendQuoted(&out_, key);
  Put(level.broken ? ": " : ":");
  after_key_ = true;
  return *this;
}

void JsonWriter::BeginContainer(bool is_object, char open) {
  BeforeValue();
  const bool broken = static_cast<int>(stack_.size()) < line_break_depth_;
  stack_.push_back(Level{is_object, broken});
  Put(open);
}

void JsonWriter::EndContainer(char close) {
  assert(!stack_.empty() && !after_key_);
  const Level level = stack_.back();
  stack_.pop_back();
  if (level.broken && !level.empty)
    NewLine(stack_.size());
  Put(close);
  if (stack_.empty())
    Flush();  // a complete value: the caller may write to the sink next
}

JsonWriter& JsonWriter::BeginObject() {
  BeginContainer(true, '{');
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  assert(!stack_.empty() && stack_.back().is_object);
  EndContainer('}');
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeginContainer(false, '[');
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  assert(!stack_.empty() && !stack_.back().is_object);
  EndContainer(']');
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendQuoted(&out_, value);
  if (out_.size() >= kChunkBytes)
    Flush();
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  char buf[24];
  Put(std::string_view(buf, std::to_chars(buf, buf + sizeof(buf), value).ptr - buf));
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  char buf[24];
  Put(std::string_view(buf, std::to_chars(buf, buf + sizeof(buf), value).ptr - buf));
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  Put(FormatJsonDouble(value));
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  Put(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  Put("null");
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  Put(json);
  return *this;
}

JsonWriter& JsonWriter::UsFromNs(int64_t ns) {
  BeforeValue();
  char buf[32];
  Put(std::string_view(buf, FormatNsAsUsTo(ns, buf)));
  return *this;
}

void JsonWriter::Finish() {
  assert(stack_.empty() && !after_key_ && "unclosed JSON container");
  Put('\n');
  Flush();
}

}  // namespace rblnsim::trace
