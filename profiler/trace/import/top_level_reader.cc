#include "profiler/trace/import/top_level_reader.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profiler/trace/import/event_prefetch.h"
#include "profiler/trace/import/event_reader.h"
#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/line_stream.h"
#include "profiler/trace/import/text_cursor.h"
#include "profiler/trace/import/trace_assembler.h"

namespace rblnsim::trace::import {

namespace {

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
      return (c == '-' || (c >= '0' && c <= '9')) ? "a number" : DescribeByte(c);
  }
}

// Walks the top level with the structural scanner and hands every event to simdjson, one at a
// time. The text is read through a sliding window (text_window.h): positions are offsets into
// the whole text, and the window keeps from the element being read onwards, so memory stays
// proportional to the model, not to the input.
class TopLevelReader {
 public:
  TopLevelReader(TextWindow* window, const ImportOptions& options, ImportResult* result)
      : window_(*window),
        cursor_(window),
        reader_(kMicrosecondExponent),
        assembler_(result),
        result_(*result) {
    // The events keep their args in the readers' pools: the trace keeps the pools.
    result_.trace.arg_pools.push_back(reader_.arg_pool());
    std::vector<std::string> read;
    if (options.keep_args) {
      assembler_.KeepOnlyArgs(*options.keep_args);
      // The reader must still hand over what metadata events read (trace_assembler.cc).
      read = *options.keep_args;
      for (const char* key : {"name", "labels", "sort_index"})
        read.emplace_back(key);
      reader_.KeepOnlyArgs(read);
    }
    threads_ =
        options.threads > 0 ? options.threads : (std::thread::hardware_concurrency() >= 2 ? 2 : 1);
    prefetch_keep_args_ = std::move(read);
    plain_scan_ = options.plain_scan;
    reader_.set_plain_scan(plain_scan_);
    // This thread reads a share and assembles it and the second thread's stretch: with the
    // stretch twice the share, both threads are about equally busy (measured best on a 2-core
    // VM against shares of 1/6 and 1/12 of a chunk).
    share_bytes_ = std::max<size_t>(1, options.window_chunk_bytes / 8);
    stretch_bytes_ = std::max<size_t>(1, options.window_chunk_bytes / 4);
  }

  Status Run() {
    // Three bytes at least, for the byte order mark (tests read in tiny chunks).
    RBLNSIM_RETURN_IF_ERROR(cursor_.Start(3));
    if (window_.size() == 0)
      return ErrorAtByte(0, "empty input");
    uint64_t pos = 0;
    if (window_.view().substr(0, 3) == "\xEF\xBB\xBF")
      pos = 3;  // a UTF-8 byte order mark
    RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(pos));
    if (cursor_.AtEnd(pos))
      return ErrorAtByte(pos, "no JSON value, only whitespace");
    uint64_t end = 0;
    if (cursor_.Byte(pos) == '[') {
      // A bare array of events (Chrome's "JSON array format"): µs, absolute times.
      RBLNSIM_ASSIGN_OR_RETURN(end, ReadEvents(pos));
    } else if (cursor_.Byte(pos) == '{') {
      RBLNSIM_ASSIGN_OR_RETURN(end, ReadTopObject(pos));
    } else {
      return ErrorAtByte(
          pos, "not a Chrome trace: expected '{' or '[', found " + DescribeByte(cursor_.Byte(pos)));
    }
    RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(end));
    if (!cursor_.AtEnd(pos)) {
      return ErrorAtByte(
          pos, "unexpected " + DescribeByte(cursor_.Byte(pos)) + " after the top-level value");
    }
    result_.input_bytes = window_.end();
    return assembler_.Finish(base_ns_, base_offset_);
  }

 private:
  static constexpr int kMicrosecondExponent = 3;

  StatusOr<uint64_t> ReadTopObject(uint64_t open) {
    bool saw_events = false;
    uint64_t pos = 0;
    RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(open + 1));
    if (!cursor_.AtEnd(pos) && cursor_.Byte(pos) == '}') {
      return ErrorAtByte(open, "the top-level object has no \"traceEvents\"");
    }
    while (true) {
      if (cursor_.AtEnd(pos))
        return Unclosed(open, "object");
      if (cursor_.Byte(pos) != '"') {
        return ErrorAtByte(pos, "expected a member name, found " + DescribeByte(cursor_.Byte(pos)));
      }
      uint64_t key_end = 0;
      RBLNSIM_ASSIGN_OR_RETURN(key_end, cursor_.Skip(pos, /*string=*/true));
      std::string key;
      RBLNSIM_ASSIGN_OR_RETURN(key, reader_.ReadString(cursor_.Piece(pos, key_end)));
      // A second traceEvents would be merged into the first, a second displayTimeUnit would
      // win: either way one of them would be lost without a word.
      if (auto [first, inserted] = top_level_keys_.try_emplace(key, pos); !inserted) {
        return ErrorAtByte(pos, "duplicate key " + Excerpt(key) +
                                    " at the top level (first at byte " +
                                    std::to_string(first->second) + ")");
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(key_end));
      if (cursor_.AtEnd(pos))
        return Unclosed(open, "object");
      if (cursor_.Byte(pos) != ':') {
        return ErrorAtByte(
            pos, "expected ':' after a member name, found " + DescribeByte(cursor_.Byte(pos)));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(pos + 1));
      if (cursor_.AtEnd(pos))
        return Unclosed(open, "object");
      uint64_t end = 0;
      if (key == "traceEvents") {
        if (cursor_.Byte(pos) != '[') {
          return ErrorAtByte(pos, "\"traceEvents\" must be an array, found " +
                                      DescribeValueStart(cursor_.Byte(pos)));
        }
        saw_events = true;
        if (unit_known_) {
          RBLNSIM_ASSIGN_OR_RETURN(end, ReadEvents(pos));
        } else {
          // displayTimeUnit decides how every ts reads, and it may come later: come back once
          // the whole object has been seen. Kineto always writes it first, so this is rare.
          deferred_events_.push_back(pos);
          cursor_.Pin(pos);  // read again at the end
          // Each event may nest kMaxJsonDepth deep, the array holding them one level more.
          RBLNSIM_ASSIGN_OR_RETURN(end, cursor_.Skip(pos, /*string=*/false, kMaxJsonDepth + 1));
        }
      } else {
        RBLNSIM_ASSIGN_OR_RETURN(end, cursor_.Skip(pos, /*string=*/false));
        RBLNSIM_RETURN_IF_ERROR(ReadMember(key, pos, end));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(end));
      if (cursor_.AtEnd(pos))
        return Unclosed(open, "object");
      if (cursor_.Byte(pos) == '}')
        break;
      if (cursor_.Byte(pos) != ',') {
        return ErrorAtByte(
            pos, "expected ',' or '}' after a member, found " + DescribeByte(cursor_.Byte(pos)));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(pos + 1));
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
    const TextPiece piece = cursor_.Piece(begin, end);
    if (key == "displayTimeUnit") {
      auto unit = reader_.ReadString(piece);
      if (!unit.ok())
        return ErrorAtByte(begin, "\"displayTimeUnit\" must be a string");
      // The two units the format defines. Kineto writes "ms" (times in µs), or "ns" when built
      // with DISPLAY_TRACE_IN_NS, and then prints ns (reference §2.1). Any other value would
      // leave every time's unit a guess.
      if (*unit != "ms" && *unit != "ns") {
        return ErrorAtByte(begin,
                           "\"displayTimeUnit\" must be \"ms\" or \"ns\", found " + Excerpt(*unit));
      }
      unit_known_ = true;
      ns_exponent_ = *unit == "ns" ? 0 : kMicrosecondExponent;
      reader_.set_ns_exponent(ns_exponent_);
      if (prefetch_)
        prefetch_->set_ns_exponent(ns_exponent_);
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
      if (cursor_.Byte(begin) != '[') {
        return ErrorAtByte(begin, "\"deviceProperties\" must be an array, found " +
                                      DescribeValueStart(cursor_.Byte(begin)));
      }
      return ForEachElement(begin,
                            [&](uint64_t b, uint64_t e) -> Status {
                              RBLNSIM_ASSIGN_OR_RETURN(std::string json,
                                                       reader_.ReadCompact(cursor_.Piece(b, e)));
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
          if (!already_read) {
            RBLNSIM_RETURN_IF_ERROR(reader_.ReadEvent(cursor_.Piece(b, e), &event_));
            current_ = &event_;
          }
          if (result_.events_read == kEventsBeforeReserve)
            ReserveEvents(e);
          return assembler_.Add(*current_);
        },
        [&](uint64_t b) -> uint64_t {
          current_ = &event_;
          if (threads_ >= 2) {
            if (prefetch_) {
              if (const uint64_t end = prefetch_->Take(b, &current_); end != kNoOffset) {
                ++result_.events_read_ahead;
                Prefetch(end);
                return end;
              }
            }
            Prefetch(b);
          }
          if (const uint64_t end = ReadFromLineStream(b); end != kNoOffset)
            return end;
          return ReadEventToLineEnd(b);
        },
        [&](uint64_t e) { return lines_.NextAfter(e); });
  }

  // Hands the second thread the next stretch past what it has read: from the first line that
  // starts with '{' a share ahead of |pos|. The window reads ahead for it (TextWindow::ReadAhead:
  // errors of the source still come where the walk meets them).
  void Prefetch(uint64_t pos) {
    if (!prefetch_) {
      // A thread pays only once the window holds a share and a stretch ahead: small traces
      // (and the fuzzers' inputs) never start one.
      if (window_.end() < pos + share_bytes_ + stretch_bytes_)
        return;
      try {
        prefetch_ =
            std::make_unique<EventPrefetcher>(ns_exponent_, prefetch_keep_args_, plain_scan_);
        result_.trace.arg_pools.push_back(prefetch_->arg_pool());
      } catch (const std::system_error&) {
        threads_ = 1;  // no thread to be had (a process at its limits): this one reads all
        return;
      } catch (const std::bad_alloc&) {
        threads_ = 1;
        return;
      }
    }
    if (prefetch_->misses() >= kMaxPrefetchMisses || !prefetch_->CollectIfDone())
      return;
    const uint64_t from = std::max(pos, prefetch_->ahead_end()) + share_bytes_;
    // Waiting for the walk to need the text left the second thread idle for a third of an
    // import. Usually the text is in already, read after the last stretch was handed out.
    cursor_.ReadAhead(pos, from + stretch_bytes_);
    if (from >= window_.end())
      return;
    const std::optional<uint64_t> start =
        EventPrefetcher::LineStartAfter(window_.view(), window_.begin(), from);
    if (!start)
      return;
    const uint64_t end = std::min<uint64_t>(window_.end(), *start + stretch_bytes_);
    if (!prefetch_->Start(window_.view().substr(*start - window_.begin(), end - *start), *start))
      return;
    // The next stretch's text is read while the second thread reads this one (it has a copy).
    cursor_.ReadAhead(pos, end + share_bytes_ + stretch_bytes_);
  }
  // Stretches that gave the walk nothing before the second thread is left alone.
  static constexpr int kMaxPrefetchMisses = 4;

  // This thread's share of the events, read a stretch at a time as one simdjson stream
  // (line_stream.h), up to where the second thread's stretch begins. Returns the event's end,
  // with event_ filled, or kNoOffset: the event is then read on its own.
  uint64_t ReadFromLineStream(uint64_t begin) {
    if (const uint64_t end = lines_.Take(&reader_, begin, &event_); end != kNoOffset)
      return end;
    if (line_stream_misses_ >= kMaxLineGuessMisses || cursor_.Byte(begin) != '{')
      return kNoOffset;
    uint64_t limit = std::min<uint64_t>(window_.end(), begin + EventReader::kStreamBytes);
    if (prefetch_) {
      if (const std::optional<uint64_t> ahead = prefetch_->ahead_begin(); ahead && *ahead > begin)
        limit = std::min(limit, *ahead);
    }
    // Near the end of the window or of this thread's share, the few events left are read one
    // by one; a stretch cut short there says nothing about how the file is laid out.
    const bool full = limit - begin == EventReader::kStreamBytes;
    if (!full && limit - begin < kMinLineStreamBytes)
      return kNoOffset;
    const std::string_view text = window_.view().substr(begin - window_.begin(), limit - begin);
    uint64_t end = kNoOffset;
    if (lines_.Open(&reader_, text, begin, window_.text_stays()))
      end = lines_.Take(&reader_, begin, &event_);
    if (end == kNoOffset && full)
      ++line_stream_misses_;
    return end;
  }
  static constexpr uint64_t kMinLineStreamBytes = uint64_t{16} << 10;

  // Kineto writes one event per line, and a raw newline cannot sit inside a JSON string, so an
  // event most likely ends at the last '}' before the next newline. Reading that piece at once
  // saves the structural scan (a sixth of an import). The guess counts only when simdjson read
  // one whole, valid event ending exactly there, which is where the scan would have ended it;
  // otherwise (pretty-printed or single-line files, damaged events) the element is scanned and
  // read as usual, so results and errors do not depend on the guess. Returns the event's end,
  // with event_ filled, or kNoOffset.
  uint64_t ReadEventToLineEnd(uint64_t begin) {
    if (line_guess_misses_ >= kMaxLineGuessMisses || cursor_.Byte(begin) != '{')
      return kNoOffset;
    const uint64_t end = cursor_.LineEnd(begin);
    if (end == kNoOffset)
      return kNoOffset;
    bool whole = false;
    if (!reader_.ReadEvent(cursor_.Piece(begin, end), &event_, &whole).ok() || !whole) {
      ++line_guess_misses_;
      return kNoOffset;
    }
    return end;
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
        [](uint64_t) { return kNoOffset; }, [](uint64_t) { return kNoOffset; });
  }

  // Calls |fn(begin, end, already_read)| for each element of the array opening at |open|;
  // returns its end. The window holds each element while |fn| runs. |read_whole(begin)| may read
  // an element without the scan and return its end (already_read is then true), or kNoOffset.
  // |next_known(end)| is where the next element begins when what lies between was already found
  // to be whitespace, one ',' and whitespace; otherwise kNoOffset, and it is read here.
  template <typename Fn, typename ReadWhole, typename NextKnown>
  StatusOr<uint64_t> ForEachElement(uint64_t open,
                                    Fn&& fn,
                                    ReadWhole&& read_whole,
                                    NextKnown&& next_known) {
    uint64_t pos = 0;
    RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(open + 1));
    if (!cursor_.AtEnd(pos) && cursor_.Byte(pos) == ']')
      return pos + 1;
    while (true) {
      if (cursor_.AtEnd(pos))
        return Unclosed(open, "array");
      uint64_t end = 0;
      if (const uint64_t read_end = read_whole(pos); read_end != kNoOffset) {
        end = read_end;
        RBLNSIM_RETURN_IF_ERROR(fn(pos, end, /*already_read=*/true));
        // Skipping the separator again cost two window calls per event (a twentieth of an
        // import); the window is told where the reader is at the next element read here.
        if (const uint64_t next = next_known(end); next != kNoOffset) {
          pos = next;
          continue;
        }
      } else {
        RBLNSIM_ASSIGN_OR_RETURN(end, cursor_.Skip(pos, /*string=*/false));
        RBLNSIM_RETURN_IF_ERROR(fn(pos, end, /*already_read=*/false));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(end));
      if (cursor_.AtEnd(pos))
        return Unclosed(open, "array");
      if (cursor_.Byte(pos) == ']')
        return pos + 1;
      if (cursor_.Byte(pos) != ',') {
        return ErrorAtByte(pos, "expected ',' or ']' after an array element, found " +
                                    DescribeByte(cursor_.Byte(pos)));
      }
      RBLNSIM_ASSIGN_OR_RETURN(pos, cursor_.Ws(pos + 1));
    }
  }

  // Only called at the end of the text.
  Status Unclosed(uint64_t open, const char* what) const {
    return ErrorAtByte(cursor_.text_size(), std::string("unexpected end of input: the ") + what +
                                                " opened at byte " + std::to_string(open) +
                                                " is not closed");
  }

  TextWindow& window_;
  TextCursor cursor_;
  EventReader reader_;
  TraceAssembler assembler_;
  ImportResult& result_;
  RawEvent event_;  // reused so its buffers are allocated once
  // The event the assembler takes next: event_, or one the second thread read, taken from
  // where it lies (moving it here cost more than assembling it).
  RawEvent* current_ = &event_;
  int threads_ = 1;                              // 2: a second thread may read ahead
  std::vector<std::string> prefetch_keep_args_;  // reader_'s, for the second thread's reader
  bool plain_scan_ = true;                       // ImportOptions::plain_scan
  int ns_exponent_ = kMicrosecondExponent;       // reader_'s, likewise
  std::unique_ptr<EventPrefetcher> prefetch_;    // started once there is a stretch to read
  size_t share_bytes_ = 0;                       // left to this thread ahead of each stretch
  size_t stretch_bytes_ = 0;                     // the most text one stretch gets
  std::vector<uint64_t> deferred_events_;        // where each postponed traceEvents array opens
  std::unordered_map<std::string, uint64_t> top_level_keys_;  // name -> where it was written
  std::optional<uint64_t> events_open_;  // where the first traceEvents array opens
  int line_guess_misses_ = 0;
  LineStream lines_;  // this thread's stretch of events, read as one stream
  int line_stream_misses_ = 0;
  bool unit_known_ = false;
  int64_t base_ns_ = 0;  // absolute times when the file has no baseTimeNanoseconds
  uint64_t base_offset_ = 0;
};

}  // namespace

Status ReadChromeTrace(TextWindow* window, const ImportOptions& options, ImportResult* result) {
  Status status = TopLevelReader(window, options, result).Run();
  // Whatever the walk made of the zeros that stood in for the lost pages, this is the cause.
  if (window->lost_text()) {
    return Status::IoError("the file shrank while it was being read (it was " +
                           std::to_string(window->end()) + " bytes)");
  }
  return status;
}

}  // namespace rblnsim::trace::import
