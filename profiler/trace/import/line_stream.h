// Reads a stretch of traceEvents laid out one event per line, the way Kineto writes them, as one
// simdjson stream instead of one document per event: stage 1 and the parser's set-up then run
// once per stretch, not once per event. Measured (bench/profiles.md): the two-thread import
// reads about a fifth faster; the single thread, whose time goes to the field walk, does not.
//
// simdjson streams whitespace-separated documents, so the stream reads a copy whose separating
// commas are blanked. Text that stays where it is (a mapped file) is not copied up front: its
// plain events are read where they lie, and the copy is made only if a stream is needed. The
// stretch is cut by the line guess (GuessLineEnd): events end at a line's last '}', separators are
// whitespace and one ','. An event is handed out only when its document began exactly there and the
// next one begins exactly at the next guessed event: it is then the event ReadEvent reads from its
// own bytes. The last event of a stretch has no next and is left to the caller; so is anything
// after a doubt, with the errors of the plain read. Most events never reach simdjson at all: the
// reader scans plain ones from their bytes (plain_event.h) and opens its stream only at the first
// other one.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_LINE_STREAM_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_LINE_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "profiler/trace/import/event_reader.h"
#include "profiler/trace/import/json_scan.h"

namespace rblnsim::trace::import {

class LineStream {
 public:
  LineStream() = default;
  LineStream(const LineStream&) = delete;
  LineStream& operator=(const LineStream&) = delete;

  // Opens the events from the first byte of |text| (the input from byte |offset|) for |reader|.
  // With |text_stays| the text must stay valid and unchanged until the next Open (a mapped
  // file's), and is read in place; otherwise the stream reads a copy. False when no event could
  // be handed out (fewer than two lines of events).
  bool Open(EventReader* reader, std::string_view text, uint64_t offset, bool text_stays);
  // The same over |size| bytes at |data| that the caller owns and lets this change (separators
  // are blanked in place); |readable| >= size + simdjson's padding.
  bool OpenInPlace(EventReader* reader, char* data, size_t size, size_t readable, uint64_t offset);

  // The event beginning at |pos| when it is the stream's next one, read into |event|; where it
  // ends. Otherwise kNoOffset, and the stream is closed.
  uint64_t Take(EventReader* reader, uint64_t pos, RawEvent* event);
  // Where the event after the one just handed out begins, when that one ended at |end|: the
  // bytes between were found to be a separator (whitespace, one ',' and whitespace). Otherwise
  // kNoOffset.
  uint64_t NextAfter(uint64_t end) const {
    return next_ > 0 && next_ < spans_.size() && spans_[next_ - 1].end == end ? spans_[next_].begin
                                                                              : kNoOffset;
  }
  // Where the next event to hand out begins; kNoOffset when the stream is closed or spent.
  uint64_t next_begin() const;
  // Once every event but the last was handed out: where that last one begins, for a next
  // stream to start from. Otherwise kNoOffset.
  uint64_t left_begin() const;

 private:
  struct Span {
    uint64_t begin = 0;
    uint64_t end = 0;
  };

  // The events from text[0] on (the input from byte |offset|), one per line; the end of the
  // last, or nullopt when fewer than two. The separating commas are blanked in |writable| (the
  // same bytes, the caller's to change) or, without it, their offsets go to separators_.
  std::optional<size_t> FindSpans(std::string_view text, uint64_t offset, char* writable);

  std::vector<Span> spans_;
  std::vector<uint64_t> separators_;  // the commas between the events, when not blanked
  size_t next_ = 0;
  std::unique_ptr<char[]> copy_;  // Open's copy of the text, padded for simdjson
  size_t copy_capacity_ = 0;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_LINE_STREAM_H_
