#include "profiler/trace/json_writer.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <utility>

namespace rblnsim::trace {

namespace {

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

void AppendEscaped(OutputSink& sink, unsigned char c) {
  // RFC 8259's two-character escapes; everything else below 0x20 becomes \u00XX.
  static constexpr std::pair<char, std::string_view> kShortEscapes[] = {
      {'"', "\\\""}, {'\\', "\\\\"}, {'\b', "\\b"}, {'\f', "\\f"},
      {'\n', "\\n"}, {'\r', "\\r"},  {'\t', "\\t"},
  };
  for (const auto& [raw, text] : kShortEscapes) {
    if (c == static_cast<unsigned char>(raw)) {
      sink.Append(text);
      return;
    }
  }
  constexpr char kHex[] = "0123456789abcdef";
  const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
  sink.Append(std::string_view(escaped, sizeof(escaped)));
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
  sink.Append("\"");
  // Copy runs of bytes that need no escaping in one Append.
  size_t run_start = 0;
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      size_t bad_len = 0;
      const size_t len = Utf8SequenceLength(text.substr(i), &bad_len);
      if (len != 0) {
        i += len;
        continue;
      }
      sink.Append(text.substr(run_start, i - run_start));
      sink.Append(kReplacementChar);
      i += bad_len;
      run_start = i;
      continue;
    }
    sink.Append(text.substr(run_start, i - run_start));
    AppendEscaped(sink, c);
    ++i;
    run_start = i;
  }
  sink.Append(text.substr(run_start));
  sink.Append("\"");
}

std::string JsonQuote(std::string_view text) {
  StringSink sink;
  AppendJsonString(sink, text);
  return sink.text();
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
  // Work on the magnitude in unsigned arithmetic so INT64_MIN does not overflow.
  const bool negative = ns < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  const uint64_t frac = magnitude % 1000;
  char buf[32];
  char* end = buf;
  if (negative)
    *end++ = '-';
  end = std::to_chars(end, buf + sizeof(buf), magnitude / 1000).ptr;
  *end++ = '.';
  *end++ = static_cast<char>('0' + frac / 100);
  *end++ = static_cast<char>('0' + frac / 10 % 10);
  *end++ = static_cast<char>('0' + frac % 10);
  return std::string(buf, end);
}

JsonWriter::JsonWriter(OutputSink* sink, int line_break_depth)
    : sink_(sink), line_break_depth_(line_break_depth) {}

void JsonWriter::NewLine(size_t depth) {
  static constexpr std::string_view kSpaces = "                                ";
  sink_->Append("\n");
  size_t indent = depth * 2;
  while (indent > 0) {
    const size_t n = std::min(indent, kSpaces.size());
    sink_->Append(kSpaces.substr(0, n));
    indent -= n;
  }
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
    sink_->Append(",");
  level.empty = false;
  if (level.broken)
    NewLine(stack_.size());
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Level& level = stack_.back();
  if (!level.empty)
    sink_->Append(",");
  level.empty = false;
  if (level.broken)
    NewLine(stack_.size());
  AppendJsonString(*sink_, key);
  sink_->Append(level.broken ? ": " : ":");
  after_key_ = true;
  return *this;
}

void JsonWriter::BeginContainer(bool is_object, char open) {
  BeforeValue();
  const bool broken = static_cast<int>(stack_.size()) < line_break_depth_;
  stack_.push_back(Level{is_object, broken});
  sink_->Append(std::string_view(&open, 1));
}

void JsonWriter::EndContainer(char close) {
  assert(!stack_.empty() && !after_key_);
  const Level level = stack_.back();
  stack_.pop_back();
  if (level.broken && !level.empty)
    NewLine(stack_.size());
  sink_->Append(std::string_view(&close, 1));
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
  AppendJsonString(*sink_, value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  char buf[24];
  sink_->Append(std::string_view(buf, std::to_chars(buf, buf + sizeof(buf), value).ptr - buf));
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  char buf[24];
  sink_->Append(std::string_view(buf, std::to_chars(buf, buf + sizeof(buf), value).ptr - buf));
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  sink_->Append(FormatJsonDouble(value));
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  sink_->Append(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  sink_->Append("null");
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  sink_->Append(json);
  return *this;
}

JsonWriter& JsonWriter::UsFromNs(int64_t ns) {
  BeforeValue();
  sink_->Append(FormatNsAsUs(ns));
  return *this;
}

void JsonWriter::Finish() {
  assert(stack_.empty() && !after_key_ && "unclosed JSON container");
  sink_->Append("\n");
}

}  // namespace rblnsim::trace
