// A sliding window over a TextSource: the bytes from the reader's current element to the last
// chunk read, in one padded buffer that simdjson can read in place. The reader says how far back
// it still needs the text (|keep_from|) each time it asks for more, so the window holds about
// one chunk plus the element being read, never the whole trace: a 1 GB trace is imported in a
// few MB of text. An element larger than a chunk (a huge args object, a deferred traceEvents
// array) grows the window to fit it. A source that maps its text (mapped_text.h) is read in
// place instead: the window is then the whole text, and forgetting drops its pages.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_WINDOW_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_WINDOW_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>

#include "base/status.h"
#include "profiler/trace/import/text_source.h"

namespace rblnsim::trace::import {

class TextWindow {
 public:
  // |chunk_bytes|: how much each Extend reads at least (tests use tiny chunks).
  TextWindow(std::unique_ptr<TextSource> source, size_t chunk_bytes);
  TextWindow(const TextWindow&) = delete;
  TextWindow& operator=(const TextWindow&) = delete;

  // Offset in the text of data()[0], and one past the last byte read so far.
  uint64_t begin() const { return begin_; }
  uint64_t end() const { return begin_ + size_; }
  // The source is exhausted: end() is the size of the whole text.
  bool at_eof() const { return eof_; }
  const char* data() const { return data_; }
  size_t size() const { return size_; }
  // Bytes readable from data(): size() plus at least simdjson's padding, zeroed.
  size_t readable() const { return capacity_; }
  std::string_view view() const { return {data(), size_}; }
  // The text stays where it is, unchanged, while the window lives (a mapped text): a view of it
  // stays good as the window moves on. A read text moves when the window slides or grows.
  bool text_stays() const { return mapping_ != nullptr; }
  bool was_gzip() const { return source_->was_gzip(); }
  std::optional<uint64_t> size_hint() const { return source_->size_hint(); }

  // Forgets the text before |keep_from| (begin() <= keep_from <= end()), then reads at least
  // one more chunk, and at least |min_bytes|, unless the source ends first. Offsets stay those
  // of the whole text. Errors come from the source, or "out of memory while reading the trace".
  Status Extend(uint64_t keep_from, size_t min_bytes = 0);

  // Extend for a reader that looks ahead (a second thread's stretch) rather than one that needs
  // the bytes now: an error of the source is not reported here but kept, and the next Extend or
  // Drain reports it, once the reader has used the bytes read before it. So the text and the
  // errors a reader sees are those of reading only on demand. False when nothing more was read.
  bool ReadAhead(uint64_t keep_from, size_t min_bytes);

  // The reader is at |pos| and needs nothing before |keep_from| any more: a mapped text drops
  // what is behind and maps what is ahead (MappedText::Advance); otherwise the next Extend
  // forgets it.
  void Forget(uint64_t keep_from, uint64_t pos) {
    if (mapping_)
      mapping_->Advance(keep_from, pos);
  }

  // A mapped text lost pages while it was read (the file shrank): what was read there is zeros.
  bool lost_text() const { return mapping_ && mapping_->lost(); }

  // Reads the rest of the source without keeping it. Used after a parse error so that damage
  // in a gzip file is reported rather than what the damage did to the text. Ok when an earlier
  // Extend already failed in the source: that error is the one to report.
  Status Drain();

 private:
  // new (std::nothrow) char[] rather than std::string: growing must neither zero-fill every step
  // nor throw when memory runs out (a gzip bomb inside one element is an error, not a crash).
  // Not realloc: operator new is where an executable's allocation policy lives (the rblnsim
  // tool's advises blocks of megabytes as huge pages, and a window is one).
  bool Reserve(size_t bytes);
  void PadEnd();

  std::unique_ptr<TextSource> source_;
  size_t chunk_bytes_;
  std::unique_ptr<char[]> bytes_;
  std::unique_ptr<MappedText> mapping_;  // the whole text, when the source maps it
  const char* data_ = nullptr;           // bytes_ or the mapping
  size_t capacity_ = 0;                  // allocated bytes, padding included
  size_t size_ = 0;
  uint64_t begin_ = 0;
  bool eof_ = false;
  bool source_failed_ = false;
  std::optional<Status> deferred_error_;  // from ReadAhead, for the next Extend or Drain
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_TEXT_WINDOW_H_
