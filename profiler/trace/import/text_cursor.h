// Positions in the text of a trace, read through a TextWindow: whitespace and values are skipped
// by offsets into the whole text, refilling the window whenever a value runs past its end, so
// the readers above never see where the window happens to begin or end.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_CURSOR_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "base/status.h"
#include "profiler/trace/import/event_reader.h"
#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/text_window.h"

namespace rblnsim::trace::import {

// TextCursor::LineEnd over |size| bytes at |data| for the object starting at |rel|: the offset
// one past its last '}' if the line ends there (before a ',' and whitespace), else kNoOffset
// (no newline in the bytes, or the line does not end in '}').
size_t GuessLineEnd(const char* data, size_t size, size_t rel);

class TextCursor {
 public:
  explicit TextCursor(TextWindow* window) : window_(*window) {}

  // After Ws(pos), either the byte at |pos| is in the window or |pos| is the end of the text.
  bool AtEnd(uint64_t pos) const { return pos >= window_.end(); }
  char Byte(uint64_t pos) const { return window_.data()[Rel(pos)]; }
  // The size of the whole text, once AtEnd() has been reached.
  uint64_t text_size() const { return window_.end(); }

  // Keeps the text from |pos| on in the window from now on, however far reading goes (a
  // deferred traceEvents array is read again at the end, as a whole-file read would allow).
  void Pin(uint64_t pos) {
    if (!pin_)
      pin_ = pos;
  }

  // Reads the first bytes of the text: at least |bytes| unless it is shorter.
  Status Start(size_t bytes);

  // The first non-whitespace position at or after |pos|, or the end of the text.
  StatusOr<uint64_t> Ws(uint64_t pos);

  // One past the value (or string, with |string|) starting at |pos|; the window then holds all
  // of it. A value cut by the window's end is scanned again once more text is in. |max_depth|
  // as in SkipValue.
  StatusOr<uint64_t> Skip(uint64_t pos, bool string, size_t max_depth = kMaxJsonDepth);

  // Has the window hold the text up to |until| (or to its end), keeping it from |pos| on, for a
  // reader that looks ahead: errors of the source wait for the walk (TextWindow::ReadAhead).
  void ReadAhead(uint64_t pos, uint64_t until) {
    while (window_.end() < until && window_.ReadAhead(KeepFrom(pos), until - window_.end())) {
    }
  }

  // [begin, end) as simdjson reads it; both must be in the window (after Skip(begin)).
  TextPiece Piece(uint64_t begin, uint64_t end) const;

  // Where the object starting at |begin| ends if it ends on its own line, the way Kineto writes
  // events: the last '}' before the next newline, before a ',' and whitespace. Only a guess,
  // for the caller to confirm; kNoOffset when there is no newline in the window.
  uint64_t LineEnd(uint64_t begin) const;

 private:
  size_t Rel(uint64_t pos) const { return static_cast<size_t>(pos - window_.begin()); }
  // Text before this is not needed again: the window may forget it.
  uint64_t KeepFrom(uint64_t pos) const { return pin_ && *pin_ < pos ? *pin_ : pos; }

  TextWindow& window_;
  std::optional<uint64_t> pin_;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_CURSOR_H_
