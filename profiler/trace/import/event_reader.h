// Parses single JSON values cut out of the input by the scanner (json_scan.h) with simdjson's
// On-Demand API: one trace event at a time, or one top-level member's value. Only this file's
// .cc includes simdjson.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_EVENT_READER_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_EVENT_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace::import {

// A piece of the input handed to simdjson: |size| bytes at |data|, |readable| >= size +
// simdjson's padding bytes readable there, starting at byte |offset| of the whole input.
struct TextPiece {
  const char* data = nullptr;
  size_t size = 0;
  size_t readable = 0;
  uint64_t offset = 0;
};

// A "pid" or "tid": an integer (number or numeric string), or the text of any other value
// (Kineto's "Spans", "Traces", "", or a tid such as "PyTorch Profiler").
struct RowId {
  bool present = false;
  bool is_int = false;
  int64_t value = 0;
  std::string text;
};

// One traceEvents element as written, before the assembler decides what it is.
struct RawEvent {
  uint64_t offset = 0;  // byte offset of the element in the (decompressed) input
  bool has_ph = false;
  bool has_cat = false;
  bool has_ts = false;
  bool has_dur = false;
  // A pid, tid, ts or dur was written as a string and read as a number.
  bool quoted_numbers = false;
  std::string ph;
  std::string cat;
  std::string name;
  RowId pid;
  RowId tid;
  int64_t ts_ns = 0;  // relative to baseTimeNanoseconds (added later: it may come after)
  int64_t dur_ns = 0;
  std::optional<uint64_t> id;  // flow id, when it is a non-negative integer
  ArgList args;

  void Clear();
};

class EventReader {
 public:
  // |ns_exponent|: 3 when ts/dur are µs, 0 when ns.
  explicit EventReader(int ns_exponent);
  ~EventReader();
  EventReader(const EventReader&) = delete;
  EventReader& operator=(const EventReader&) = delete;

  // displayTimeUnit may only be known after the reader is made.
  void set_ns_exponent(int ns_exponent);
  // From now on only args with these keys are read into RawEvent::args; the others are only
  // validated. Empty: every arg is read (the default).
  void KeepOnlyArgs(std::vector<std::string> keys);
  // ImportOptions::plain_scan: with false every event is read by the On-Demand walk.
  void set_plain_scan(bool on);

  // One traceEvents element. Errors are "byte <offset>: <what>", offsets into the whole input:
  // invalid JSON, a field of the wrong type, a name given twice in the event or its args, or
  // nesting deeper than kMaxJsonDepth (json_scan.h). With |whole|, also tells whether the event
  // ended exactly at the end of |piece| (nothing but whitespace after it), for callers that
  // guessed where it ends.
  Status ReadEvent(const TextPiece& piece, RawEvent* event, bool* whole = nullptr);

  // Many events at once (line_stream.h): |text| holds whole events separated by whitespace
  // only, which must stay valid while they are read; or, with |separators|, by whitespace and
  // one ',' at each of those input offsets (sorted), in text that is then only read, never
  // changed, and a stream reads a copy of it with the commas blanked. |separators| must stay
  // valid as long as |text|. ReadStreamEvent reads the one in [begin, end) that is followed by
  // the next at |next| (only whitespace and a separator between): the event ReadEvent would
  // read from [begin, next) with *whole set. Plain events are read from their bytes; from the
  // first other one on, |text| is read as one simdjson stream. Any other case (an error, a
  // document elsewhere, the end) gives false and closes the text, and the caller reads the event
  // by itself.
  void OpenStream(const TextPiece& text, const std::vector<uint64_t>* separators = nullptr);
  // The most text a stream is given (larger texts work, with a parser grown to fit): small
  // enough for stage 1's output to stay in the caches while the events are read.
  static constexpr size_t kStreamBytes = size_t{256} << 10;
  bool ReadStreamEvent(uint64_t begin, uint64_t end, uint64_t next, RawEvent* event);

  // The pool the args of the events this reader reads are placed in: whoever keeps those
  // events keeps the pool (Trace::arg_pools).
  std::shared_ptr<const ArgPool> arg_pool() const;

  // A top-level member's value, validated and re-serialised compactly.
  StatusOr<std::string> ReadCompact(const TextPiece& piece);
  // A string value (or key, quotes included), unescaped.
  StatusOr<std::string> ReadString(const TextPiece& piece);
  // An integer value, written as a number or a numeric string.
  StatusOr<int64_t> ReadInt(const TextPiece& piece);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_EVENT_READER_H_
