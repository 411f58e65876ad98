// A streaming JSON writer. Output always is valid JSON in valid UTF-8: strings are escaped per
// RFC 8259 and invalid UTF-8 bytes become U+FFFD, so a trace with a broken kernel name still loads
// in Perfetto. Text goes to an OutputSink in chunks of up to kChunkBytes as it is produced; no
// document is held in memory (atomic_file.h has the file sink, FdSink).
#ifndef RBLNSIM_PROFILER_TRACE_JSON_WRITER_H_
#define RBLNSIM_PROFILER_TRACE_JSON_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

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

// Length of the well-formed UTF-8 sequence at the start of |text| (1-4), or 0 if it is not
// well-formed; then *bad_len is the length of its maximal ill-formed prefix (Unicode §3.9, the
// unit that one U+FFFD replaces).
size_t Utf8SequenceLength(std::string_view text, size_t* bad_len);

// Number of code points, counting each ill-formed unit as one (what Python's len() shows after
// a lossy decode).
size_t Utf8Length(std::string_view text);

// Appends |text| as a quoted JSON string.
void AppendJsonString(OutputSink& sink, std::string_view text);
std::string JsonQuote(std::string_view text);
// The same, appended to |out| in place (no temporary per string: the importer quotes every
// string inside a compacted value).
void AppendJsonQuoted(std::string* out, std::string_view text);

// Shortest text that reads back as the same double, independent of the locale. Integral values
// get ".0" so a reader keeps them as doubles. NaN and infinities give "null" (JSON has neither).
std::string FormatJsonDouble(double value);

// Kineto's time text: ns as µs with exactly three decimals, e.g. 5100000123456 ->
// "5100000123.456", -500 -> "-0.500".
std::string FormatNsAsUs(int64_t ns);

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
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view value);
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

  void BeforeValue();
  void BeginContainer(bool is_object, char open);
  void EndContainer(char close);
  void NewLine(size_t depth);
  void Put(std::string_view text) {
    out_.append(text);
    if (out_.size() >= kChunkBytes)
      Flush();
  }
  void Put(char c) {
    out_.push_back(c);
    if (out_.size() >= kChunkBytes)
      Flush();
  }
  void Flush();

  OutputSink* sink_;
  std::string out_;  // not yet handed to sink_
  int line_break_depth_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_JSON_WRITER_H_
