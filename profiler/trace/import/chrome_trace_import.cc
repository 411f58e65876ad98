#include "profiler/trace/import/chrome_trace_import.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <memory>
#include <utility>
#include <vector>

#include "profiler/trace/import/event_reader.h"
#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/text_source.h"
#include "profiler/trace/import/text_window.h"
#include "profiler/trace/import/trace_assembler.h"

namespace rblnsim::trace {

namespace {

using import::ErrorAtByte;
using import::TextWindow;

// Names the JSON type a value starting with |c| would have, for "must be an array" errors.
std::string DescribeValueStart(char c) {
  switch (c) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      return (c == '-' || (c >= '0' && c <= '9')) ? "a number" : import::DescribeByte(c);
  }
}

// Walks the top level with the structural scanner and hands every event to simdjson, one at a
// time. The text is read through a sliding window (text_window.h): positions are offsets into
// the whole text, and the window keeps from the element being read onwards, so memory stays
// proportional to the model, not to the input.
class TopLevelReader {
 public:
  TopLevelReader(TextWindow* window, const ImportOptions& options, ImportResult* result)
      : window_(*window), reader_(kMicrosecondExponent), assembler_(result), result_(*result) {
    if (options.keep_args) {
      assembler_.KeepOnlyArgs(*options.keep_args);
      // The reader must still hand over what metadata events read (trace_assembler.cc).
      std::vector<std::string> read = *options.keep_args;
      for (const char* key : {"name", "labels", "sort_index"})
        read.emplace_back(key);
      reader_.KeepOnlyArgs(std::move(read));
    }
  }

  Status Run() {
    // Three bytes at least, for the byte order mark (tests read in tiny chunks).
    while (window_.size() < 3 && !window_.at_eof())
      RBLNSIM_RETURN_IF_ERROR(window_.Extend(0));
    if (window_.size() == 0)
      return ErrorAtByte(0, "empty input");
    uint64_t pos = 0;
    if (window_.view().substr(0, 3) == "\xEF\xBB\xBF")
      pos = 3;  // a UTF-8 byte order mark
    RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(pos));
    if (AtEnd(pos))
      return ErrorAtByte(pos, "no JSON value, only whitespace");
    uint64_t end = 0;
    if (Byte(pos) == '[') {
      // A bare array of events (Chrome's "JSON array format"): µs, absolute times.
      RBLNSIM_ASSIGN_OR_RETURN(end, ReadEvents(pos));
    } else if (Byte(pos) == '{') {
      RBLNSIM_ASSIGN_OR_RETURN(end, ReadTopObject(pos));
    } else {
      return ErrorAtByte(pos, "not a Chrome trace: expected '{' or '[', found " +
                                  import::DescribeByte(Byte(pos)));
    }
    RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(end));
    if (!AtEnd(pos)) {
      return ErrorAtByte(
          pos, "unexpected " + import::DescribeByte(Byte(pos)) + " after the top-level value");
    }
    result_.input_bytes = window_.end();
    return assembler_.Finish(base_ns_, base_offset_);
  }

 private:
  static constexpr int kMicrosecondExponent = 3;

  // --- Access to the window. After Ws(pos), either the byte at pos is in the window or pos is
  // the end of the whole text.
  bool AtEnd(uint64_t pos) const { return pos >= window_.end(); }
  char Byte(uint64_t pos) const { return window_.data()[pos - window_.begin()]; }
  size_t Rel(uint64_t pos) const { return static_cast<size_t>(pos - window_.begin()); }

  // Text before this is not needed again: the window may forget it. A deferred traceEvents array
  // is read again at the end, so everything from it on is kept (as a whole-file read would).
  uint64_t KeepFrom(uint64_t pos) const {
    return deferred_events_.empty() ? pos : std::min(pos, deferred_events_.front());
  }

  // The first non-whitespace position at or after |pos|, or the end of the text.
  StatusOr<uint64_t> Ws(uint64_t pos) {
    while (true) {
      const size_t rel = import::SkipWhitespace(window_.view(), Rel(pos));
      if (rel < window_.size() || window_.at_eof())
        return window_.begin() + rel;
      pos = window_.begin() + rel;
      RBLNSIM_RETURN_IF_ERROR(window_.Extend(KeepFrom(pos)));
    }
  }

  // One past the value (or string, with |string|) starting at |pos|; the window then holds all
  // of it. A value cut by the window's end is scanned again once more text is in.
  StatusOr<uint64_t> Skip(uint64_t pos, bool string) {
    while (true) {
      bool truncated = false;
      const uint64_t base = window_.begin();
      StatusOr<size_t> end =
          string ? import::SkipString(window_.view(), Rel(pos), base, &truncated)
                 : import::SkipValue(window_.view(), Rel(pos), base, &truncated);
      if (!truncated || window_.at_eof()) {
        if (!end.ok())
          return end.status();
        return base + *end;
      }
      // Read at least as much again as was scanned in vain, so a value much larger than a chunk
      // is scanned O(1) times per byte, not once per chunk.
      RBLNSIM_RETURN_IF_ERROR(window_.Extend(KeepFrom(pos), window_.end() - pos));
    }
  }

  import::TextPiece Piece(uint64_t begin, uint64_t end) const {
    return {window_.data() + Rel(begin), static_cast<size_t>(end - begin),
            window_.readable() - Rel(begin), begin};
  }

  StatusOr<uint64_t> ReadTopObject(uint64_t open) {
    bool saw_events = false;
    uint64_t pos = 0;
    RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(open + 1));
    if (!AtEnd(pos) && Byte(pos) == '}') {
      return ErrorAtByte(open, "the top-level object has no \"traceEvents\"");
    }
    while (true) {
      if (AtEnd(pos))
        return Unclosed(open, "object");
      if (Byte(pos) != '"') {
        return ErrorAtByte(pos,
                           "expected a member name, found " + import::DescribeByte(Byte(pos)));
      }
      uint64_t key_end = 0;
      RBLNSIM_ASSIGN_OR_RETURN(key_end, Skip(pos, /*string=*/true));
      std::string key;
      RBLNSIM_ASSIGN_OR_RETURN(key, reader_.ReadString(Piece(pos, key_end)));
      RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(key_end));
      if (AtEnd(pos))
        return Unclosed(open, "object");
      if (Byte(pos) != ':') {
        return ErrorAtByte(
            pos, "expected ':' after a member name, found " + import::DescribeByte(Byte(pos)));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(pos + 1));
      if (AtEnd(pos))
        return Unclosed(open, "object");
      uint64_t end = 0;
      if (key == "traceEvents") {
        if (Byte(pos) != '[') {
          return ErrorAtByte(pos, "\"traceEvents\" must be an array, found " +
                                      DescribeValueStart(Byte(pos)));
        }
        saw_events = true;
        if (unit_known_) {
          RBLNSIM_ASSIGN_OR_RETURN(end, ReadEvents(pos));
        } else {
          // displayTimeUnit decides how every ts reads, and it may come later: come back once
          // the whole object has been seen. Kineto always writes it first, so this is rare.
          deferred_events_.push_back(pos);
          RBLNSIM_ASSIGN_OR_RETURN(end, Skip(pos, /*string=*/false));
        }
      } else {
        RBLNSIM_ASSIGN_OR_RETURN(end, Skip(pos, /*string=*/false));
        RBLNSIM_RETURN_IF_ERROR(ReadMember(key, pos, end));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(end));
      if (AtEnd(pos))
        return Unclosed(open, "object");
      if (Byte(pos) == '}')
        break;
      if (Byte(pos) != ',') {
        return ErrorAtByte(
            pos, "expected ',' or '}' after a member, found " + import::DescribeByte(Byte(pos)));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(pos + 1));
    }
    if (!saw_events)
      return ErrorAtByte(open, "the top-level object has no \"traceEvents\"");
    // The window still holds every deferred array (KeepFrom), so no text is read again.
    for (uint64_t events_open : deferred_events_) {
      RBLNSIM_RETURN_IF_ERROR(ReadEvents(events_open).status());
    }
    return pos + 1;
  }

  // Top-level members other than traceEvents. The keys the writer owns are read into the model;
  // everything else (host_name, WARNING, distributedInfo, rbln_bridge, ...) stays raw JSON.
  Status ReadMember(const std::string& key, uint64_t begin, uint64_t end) {
    Trace& trace = result_.trace;
    const import::TextPiece piece = Piece(begin, end);
    if (key == "displayTimeUnit") {
      auto unit = reader_.ReadString(piece);
      if (!unit.ok())
        return ErrorAtByte(begin, "\"displayTimeUnit\" must be a string");
      // Kineto built with DISPLAY_TRACE_IN_NS writes "ns" and then prints ns (reference §2.1).
      unit_known_ = true;
      reader_.set_ns_exponent(*unit == "ns" ? 0 : kMicrosecondExponent);
    } else if (key == "baseTimeNanoseconds") {
      auto base = reader_.ReadInt(piece);
      if (!base.ok())
        return ErrorAtByte(begin, "\"baseTimeNanoseconds\" must be an integer");
      base_ns_ = *base;
      base_offset_ = begin;
    } else if (key == "traceName") {
      auto name = reader_.ReadString(piece);
      if (!name.ok())
        return ErrorAtByte(begin, "\"traceName\" must be a string");
      trace.trace_name = std::move(*name);
    } else if (key == "deviceProperties") {
      if (Byte(begin) != '[') {
        return ErrorAtByte(begin, "\"deviceProperties\" must be an array, found " +
                                      DescribeValueStart(Byte(begin)));
      }
      return ForEachElement(begin,
                            [&](uint64_t b, uint64_t e) -> Status {
                              RBLNSIM_ASSIGN_OR_RETURN(std::string json,
                                                       reader_.ReadCompact(Piece(b, e)));
                              trace.device_properties.push_back(RawJson{std::move(json)});
                              return Status::Ok();
                            })
          .status();
    } else if (key != "schemaVersion") {  // the writer stamps its own schema version
      RBLNSIM_ASSIGN_OR_RETURN(std::string json, reader_.ReadCompact(piece));
      trace.metadata.emplace_back(key, RawJson{std::move(json)});
    }
    return Status::Ok();
  }

  StatusOr<uint64_t> ReadEvents(uint64_t open) {
    if (!events_open_)
      events_open_ = open;
    return ForEachElement(
        open,
        [&](uint64_t b, uint64_t e, bool already_read) -> Status {
          ++result_.events_read;
          if (!already_read)
            RBLNSIM_RETURN_IF_ERROR(reader_.ReadEvent(Piece(b, e), &event_));
          if (result_.events_read == kEventsBeforeReserve)
            ReserveEvents(e);
          return assembler_.Add(event_);
        },
        [&](uint64_t b) { return ReadEventToLineEnd(b); });
  }

  // Kineto writes one event per line, and a raw newline cannot sit inside a JSON string, so an
  // event most likely ends at the last '}' before the next newline. Reading that piece at once
  // saves the structural scan (a sixth of an import). The guess counts only when simdjson read
  // one whole, valid event ending exactly there, which is where the scan would have ended it;
  // otherwise (pretty-printed or single-line files, damaged events) the element is scanned and
  // read as usual, so results and errors do not depend on the guess. Returns the event's end,
  // with event_ filled, or nullopt.
  std::optional<uint64_t> ReadEventToLineEnd(uint64_t begin) {
    if (line_guess_misses_ >= kMaxLineGuessMisses || Byte(begin) != '{')
      return std::nullopt;
    const char* data = window_.data();
    const size_t rel = Rel(begin);
    const void* newline = std::memchr(data + rel, '\n', window_.size() - rel);
    if (newline == nullptr)
      return std::nullopt;  // the window ends first: the scan refills it
    size_t end = static_cast<size_t>(static_cast<const char*>(newline) - data);
    while (end > rel && import::IsJsonWhitespace(data[end - 1]))
      --end;
    if (end > rel && data[end - 1] == ',') {
      --end;
      while (end > rel && import::IsJsonWhitespace(data[end - 1]))
        --end;
    }
    bool whole = false;
    if (end < rel + 2 || data[end - 1] != '}' ||
        !reader_.ReadEvent(Piece(begin, window_.begin() + end), &event_, &whole).ok() || !whole) {
      ++line_guess_misses_;
      return std::nullopt;
    }
    return window_.begin() + end;
  }
  // A file laid out otherwise stops paying for guesses that miss.
  static constexpr int kMaxLineGuessMisses = 64;

  // A vector of millions of events that grows by doubling holds the old and the new copy while
  // it moves: that move was the peak of a large import. So once the first events show how many
  // bytes an event takes, the vector is reserved for the whole file (plus a margin). Reserved
  // pages that are never written cost address space, not memory.
  static constexpr int64_t kEventsBeforeReserve = 50000;
  void ReserveEvents(uint64_t pos) {
    const std::optional<uint64_t> total = window_.size_hint();
    if (!total || pos <= *events_open_ || *total <= pos)
      return;
    const double events_per_byte =
        static_cast<double>(result_.events_read) / static_cast<double>(pos - *events_open_);
    const double estimate =
        1.2 * events_per_byte * static_cast<double>(*total - *events_open_) + 1024.0;
    // At least ~16 bytes of text per event: a bound that keeps a strange start from reserving
    // absurd amounts.
    const double bound = static_cast<double>(*total) / 16.0;
    std::vector<Event>& events = result_.trace.events;
    const size_t wanted = static_cast<size_t>(std::min(estimate, bound));
    if (wanted <= events.capacity())
      return;
    events.reserve(wanted);
  }

  template <typename Fn>
  StatusOr<uint64_t> ForEachElement(uint64_t open, Fn&& fn) {
    return ForEachElement(
        open, [&](uint64_t b, uint64_t e, bool) { return fn(b, e); },
        [](uint64_t) { return std::optional<uint64_t>(); });
  }

  // Calls |fn(begin, end, already_read)| for each element of the array opening at |open|;
  // returns its end. The window holds each element while |fn| runs. |read_whole(begin)| may read
  // an element without the scan and return its end (already_read is then true).
  template <typename Fn, typename ReadWhole>
  StatusOr<uint64_t> ForEachElement(uint64_t open, Fn&& fn, ReadWhole&& read_whole) {
    uint64_t pos = 0;
    RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(open + 1));
    if (!AtEnd(pos) && Byte(pos) == ']')
      return pos + 1;
    while (true) {
      if (AtEnd(pos))
        return Unclosed(open, "array");
      uint64_t end = 0;
      if (const std::optional<uint64_t> read_end = read_whole(pos)) {
        end = *read_end;
        RBLNSIM_RETURN_IF_ERROR(fn(pos, end, /*already_read=*/true));
      } else {
        RBLNSIM_ASSIGN_OR_RETURN(end, Skip(pos, /*string=*/false));
        RBLNSIM_RETURN_IF_ERROR(fn(pos, end, /*already_read=*/false));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(end));
      if (AtEnd(pos))
        return Unclosed(open, "array");
      if (Byte(pos) == ']')
        return pos + 1;
      if (Byte(pos) != ',') {
        return ErrorAtByte(pos, "expected ',' or ']' after an array element, found " +
                                    import::DescribeByte(Byte(pos)));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, Ws(pos + 1));
    }
  }

  // Only called at the end of the text, so window_.end() is its size.
  Status Unclosed(uint64_t open, const char* what) const {
    return ErrorAtByte(window_.end(), std::string("unexpected end of input: the ") + what +
                                          " opened at byte " + std::to_string(open) +
                                          " is not closed");
  }

  TextWindow& window_;
  import::EventReader reader_;
  import::TraceAssembler assembler_;
  ImportResult& result_;
  import::RawEvent event_;  // reused so its buffers are allocated once
  std::vector<uint64_t> deferred_events_;  // where each postponed traceEvents array opens
  std::optional<uint64_t> events_open_;     // where the first traceEvents array opens
  int line_guess_misses_ = 0;
  bool unit_known_ = false;
  int64_t base_ns_ = 0;  // absolute times when the file has no baseTimeNanoseconds
  uint64_t base_offset_ = 0;
};

StatusOr<ImportResult> ImportText(std::unique_ptr<import::TextSource> source,
                                  const std::string& name,
                                  const ImportOptions& options) {
  TextWindow window(std::move(source), options.window_chunk_bytes);
  ImportResult result;
  result.was_gzip = window.was_gzip();
  Status status = TopLevelReader(&window, options, &result).Run();
  if (!status.ok()) {
    // Damage in a gzip file is what to report, not what it did to the text (a whole-file
    // inflate would have failed before parsing began).
    if (window.was_gzip() && !window.at_eof()) {
      Status drained = window.Drain();
      if (!drained.ok())
        return drained.WithPrefix(name + ": ");
    }
    return status.WithPrefix(name + ": ");
  }
  return result;
}

}  // namespace

StatusOr<ImportResult> ImportChromeTrace(const std::string& path) {
  return ImportChromeTrace(path, ImportOptions());
}

StatusOr<ImportResult> ImportChromeTrace(const std::string& path, const ImportOptions& options) {
  RBLNSIM_ASSIGN_OR_RETURN(std::unique_ptr<import::TextSource> source,
                           import::OpenTextSource(path));
  return ImportText(std::move(source), path, options);
}

StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json, const std::string& name) {
  return ImportChromeTraceFromBuffer(json, name, ImportOptions());
}

StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json,
                                                   const std::string& name,
                                                   const ImportOptions& options) {
  return ImportText(import::TextSourceFromMemory(json), name, options);
}

std::string FormatImportSummary(const ImportResult& r) {
  const std::pair<const char*, int64_t> counters[] = {
      {"input_bytes", static_cast<int64_t>(r.input_bytes)},
      {"events_read", r.events_read},
      {"complete_events", r.complete_events},
      {"instant_events", r.instant_events},
      {"metadata_events", r.metadata_events},
      {"flow_events", r.flow_events},
      {"orphan_flow_events", r.orphan_flow_events},
      {"other_flow_events", r.other_flow_events},
      {"span_events", r.span_events},
      {"skipped_events", r.skipped_events},
      {"unknown_phase_events", r.unknown_phase_events},
      {"unknown_metadata_events", r.unknown_metadata_events},
      {"conflicting_rows", r.conflicting_rows},
  };
  std::string out;
  out += std::string("gzip: ") + (r.was_gzip ? "yes" : "no") + "\n";
  for (const auto& [name, value] : counters) {
    out += std::string(name) + ": " + std::to_string(value) + "\n";
  }
  out += std::string("capture_window: ") +
         (r.capture_window_from_trace ? "from the Trace span" : "from the events") + "\n";
  return out;
}

}  // namespace rblnsim::trace
