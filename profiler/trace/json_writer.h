// A streaming JSON writer. Output always is valid JSON in valid UTF-8: strings are escaped as
// json_escape.h says. Text goes to an OutputSink in chunks of up to kChunkBytes as it is produced;
// no document is held in memory (atomic_file.h has the file sink, FdSink).
#ifndef RBLNSIM_PROFILER_TRACE_JSON_WRITER_H_
#define RBLNSIM_PROFILER_TRACE_JSON_WRITER_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/status.h"
#include "profiler/trace/json_escape.h"

namespace rblnsim::trace {

// Where serialized bytes go. Sinks remember their first failure instead of reporting it per call,
// so writers stay simple and check status() once at the end.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual void Append(std::string_view bytes) = 0;
  virtual Status status() const { return Status::Ok(); }
};

class StringSink final : public OutputSink {
 public:
  void Append(std::string_view bytes) override { text_.append(bytes); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Appends |text| as a quoted JSON string.
void AppendJsonString(OutputSink& sink, std::string_view text);

// Shortest text that reads back as the same double, independent of the locale. Integral values
// get ".0" so a reader keeps them as doubles. NaN and infinities give "null" (JSON has neither).
std::string FormatJsonDouble(double value);

// Kineto's time text: ns as µs with exactly three decimals, e.g. 5100000123456 ->
// "5100000123.456", -500 -> "-0.500".
std::string FormatNsAsUs(int64_t ns);

// A key or string value spelt in the source as a literal: its size, and that it needs no escape,
// are settled when the program is compiled, and the writer copies it as it is. The event
// writer's keys ("ph", "ts", ...) are most of the keys of a trace. Any char array converts here,
// and one that is no constant does not compile: `cond ? "ab" : "cd"` is such an array (both
// literals have one type), to be written as std::string_view(cond ? "ab" : "cd").
class JsonLiteral {
 public:
  static constexpr size_t kMaxBytes = 256;

  template <size_t N>
  consteval JsonLiteral(const char (&text)[N]) : text_(text, N - 1) {  // NOLINT: a literal
    // A throw is no constant expression: a literal that breaks a rule does not compile.
    if (N - 1 > kMaxBytes || text[N - 1] != '\0')
      throw "a JsonLiteral is a string literal of at most kMaxBytes";
    for (size_t i = 0; i + 1 < N; ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
        throw "a JsonLiteral needs no escaping";
    }
  }
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

// Text in anything but a char array: std::string, string_view, const char*, EventName and the
// like (a char array goes to the JsonLiteral overloads).
template <typename Text>
concept JsonText = std::is_convertible_v<const Text&, std::string_view> && !std::is_array_v<Text>;

// The writer collects its text in a buffer and hands it to the sink in chunks: one virtual
// Append per token would cost more than producing the token (a Chrome trace has tens of tokens
// per event). The buffer goes to the sink when it fills, whenever a top-level value is complete,
// in Finish(), in sink() and on destruction, so text written to the sink directly between
// documents, or after Finish(), keeps its place.
class JsonWriter {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 16;

  // Members of containers nested less than |line_break_depth| deep each start on a new line
  // (indent two spaces per level); deeper containers are written compactly. 0 = all compact.
  explicit JsonWriter(OutputSink* sink, int line_break_depth = 0);
  ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(JsonLiteral key);
  template <JsonText Text>
  JsonWriter& Key(const Text& key) {
    return KeyText(key);
  }

  JsonWriter& String(JsonLiteral value);
  template <JsonText Text>
  JsonWriter& String(const Text& value) {
    return StringText(value);
  }
  JsonWriter& Int(int64_t value);
  JsonWriter& Uint(uint64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // Already-serialized JSON (a number, object, ...), written verbatim; the caller vouches for it.
  JsonWriter& Raw(std::string_view json);
  // A number of µs with three decimals from ns (FormatNsAsUs).
  JsonWriter& UsFromNs(int64_t ns);

  // Ends the document with a newline and hands everything to the sink. Containers must all be
  // closed.
  void Finish();
  // The sink, with everything written so far handed to it.
  OutputSink& sink() {
    Flush();
    return *sink_;
  }

 private:
  struct Level {
    bool is_object;
    bool broken;  // members on their own lines
    bool empty = true;
  };

  // Room the buffer keeps past a chunk: the largest single write (an escaped piece of a string
  // with its quotes and punctuation, a number) fits whenever less than a chunk is buffered,
  // which holds between writes. Tokens are then written in place, without a capacity check each.
  static constexpr size_t kSlackBytes = kMaxEscapedBytesPerByte * kJsonPieceBytes + 64;

  JsonWriter& KeyText(std::string_view key);
  JsonWriter& StringText(std::string_view value);
  void BeforeValue();
  void BeginContainer(bool is_object, char open);
  void EndContainer(char close);
  void NewLine(size_t depth);
  // Where the next write of at most kSlackBytes goes; Commit(end) takes what was written there.
  char* Next() { return buffer_.get() + used_; }
  void Commit(const char* end) {
    used_ = static_cast<size_t>(end - buffer_.get());
    if (used_ >= kChunkBytes)
      Flush();
  }
  void Put(std::string_view text) {
    if (text.size() > kSlackBytes) {
      PutLarge(text);
      return;
    }
    char* at = Next();
    std::memcpy(at, text.data(), text.size());
    Commit(at + text.size());
  }
  void Put(char c) {
    char* at = Next();
    *at = c;
    Commit(at + 1);
  }
  void PutLarge(std::string_view text);
  // |text| as a quoted JSON string.
  void PutQuoted(std::string_view text);
  void Flush();

  OutputSink* sink_;
  std::unique_ptr<char[]> buffer_;  // kChunkBytes + kSlackBytes; not yet handed to sink_
  size_t used_ = 0;
  int line_break_depth_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

// Inline, so a literal's size is a constant where it is copied.
inline JsonWriter& JsonWriter::Key(JsonLiteral key) {
  assert(!stack_.empty() && stack_.back().is_object && !after_key_);
  Level& level = stack_.back();
  if (level.broken)
    return KeyText(key.text());
  char* at = Next();
  if (!level.empty)
    *at++ = ',';
  level.empty = false;
  *at++ = '"';
  std::memcpy(at, key.text().data(), key.text().size());
  at += key.text().size();
  *at++ = '"';
  *at++ = ':';
  Commit(at);
  after_key_ = true;
  return *this;
}

inline JsonWriter& JsonWriter::String(JsonLiteral value) {
  BeforeValue();
  char* at = Next();
  *at++ = '"';
  std::memcpy(at, value.text().data(), value.text().size());
  at += value.text().size();
  *at++ = '"';
  Commit(at);
  return *this;
}

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_JSON_WRITER_H_
