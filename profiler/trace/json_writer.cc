#include "profiler/trace/json_writer.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

namespace rblnsim::trace {

namespace {

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

void AppendJsonString(OutputSink& sink, std::string_view text) {
  sink.Append(JsonQuote(text));
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
    : sink_(sink),
      buffer_(std::make_unique_for_overwrite<char[]>(kChunkBytes + kSlackBytes)),
      line_break_depth_(line_break_depth) {}

JsonWriter::~JsonWriter() {
  Flush();
}

void JsonWriter::Flush() {
  if (used_ == 0)
    return;
  sink_->Append(std::string_view(buffer_.get(), used_));
  used_ = 0;
}

void JsonWriter::PutLarge(std::string_view text) {
  Flush();
  sink_->Append(text);
}

void JsonWriter::PutQuoted(std::string_view text) {
  if (text.size() <= kJsonPieceBytes) {
    char* at = Next();
    *at++ = '"';
    at = EscapeJsonTextTo(at, text);
    *at++ = '"';
    Commit(at);
    return;
  }
  Put('"');
  for (size_t start = 0; start < text.size();) {
    const size_t end = JsonPieceEnd(text, start);
    Commit(EscapeJsonTextTo(Next(), text.substr(start, end - start)));
    start = end;
  }
  Put('"');
}

void JsonWriter::NewLine(size_t depth) {
  Put('\n');
  for (size_t i = 0; i < depth; ++i)
    Put("  ");
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

JsonWriter& JsonWriter::KeyText(std::string_view key) {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Level& level = stack_.back();
  if (!level.broken && key.size() <= kJsonPieceBytes) {
    // The common case in one write: separator, quoted key, colon.
    char* at = Next();
    if (!level.empty)
      *at++ = ',';
    level.empty = false;
    *at++ = '"';
    at = EscapeJsonTextTo(at, key);
    *at++ = '"';
    *at++ = ':';
    Commit(at);
    after_key_ = true;
    return *this;
  }
  if (!level.empty)
    Put(',');
  level.empty = false;
  if (level.broken)
    NewLine(stack_.size());
  PutQuoted(key);
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

JsonWriter& JsonWriter::StringText(std::string_view value) {
  BeforeValue();
  PutQuoted(value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  char* at = Next();
  Commit(std::to_chars(at, at + 24, value).ptr);
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  char* at = Next();
  Commit(std::to_chars(at, at + 24, value).ptr);
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
  Commit(FormatNsAsUsTo(ns, Next()));
  return *this;
}

void JsonWriter::Finish() {
  assert(stack_.empty() && !after_key_ && "unclosed JSON container");
  Put('\n');
  Flush();
}

}  // namespace rblnsim::trace
