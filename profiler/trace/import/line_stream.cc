#include "profiler/trace/import/line_stream.h"

#include <simdjson.h>

#include <cstring>
#include <new>

#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/text_cursor.h"

namespace rblnsim::trace::import {

bool LineStream::Open(EventReader* reader,
                      std::string_view text,
                      uint64_t offset,
                      bool text_stays) {
  if (text_stays) {
    // Read where it is: most stretches are plain events only, and their copy was a second
    // write and read of every byte (the whole file, for a Kineto trace).
    const std::optional<size_t> stream_end = FindSpans(text, offset, /*writable=*/nullptr);
    if (!stream_end)
      return false;
    reader->OpenStream({text.data(), *stream_end, text.size(), offset}, &separators_);
    return true;
  }
  spans_.clear();
  next_ = 0;
  const size_t needed = text.size() + simdjson::SIMDJSON_PADDING;
  if (needed > copy_capacity_) {
    copy_.reset(new (std::nothrow) char[needed]);
    copy_capacity_ = copy_ ? needed : 0;
    if (!copy_)
      return false;  // the caller reads the events one by one
  }
  std::memcpy(copy_.get(), text.data(), text.size());
  std::memset(copy_.get() + text.size(), 0, simdjson::SIMDJSON_PADDING);
  return OpenInPlace(reader, copy_.get(), text.size(), copy_capacity_, offset);
}

bool LineStream::OpenInPlace(EventReader* reader,
                             char* data,
                             size_t size,
                             size_t readable,
                             uint64_t offset) {
  const std::optional<size_t> stream_end = FindSpans({data, size}, offset, data);
  if (!stream_end)
    return false;
  reader->OpenStream({data, *stream_end, readable, offset});
  return true;
}

std::optional<size_t> LineStream::FindSpans(std::string_view text,
                                            uint64_t offset,
                                            char* writable) {
  spans_.clear();
  separators_.clear();
  next_ = 0;
  const char* const data = text.data();
  const size_t size = text.size();
  size_t rel = 0;
  size_t stream_end = 0;
  // A separator is blanked only once an event follows it in the stream: the text after the
  // last event stays as it was, for whoever reads on from there (the next stream).
  std::optional<size_t> comma_before;
  while (rel < size && data[rel] == '{') {
    const size_t end = GuessLineEnd(data, size, rel);
    if (end == kNoOffset)
      break;
    if (comma_before) {
      if (writable != nullptr)
        writable[*comma_before] = ' ';
      else
        separators_.push_back(offset + *comma_before);
    }
    spans_.push_back({offset + rel, offset + end});
    stream_end = end;
    const size_t comma = SkipWhitespace(text, end);
    if (comma >= size || data[comma] != ',')
      break;
    comma_before = comma;
    rel = SkipWhitespace(text, comma + 1);
  }
  if (spans_.size() < 2) {
    spans_.clear();
    return std::nullopt;
  }
  return stream_end;
}

uint64_t LineStream::Take(EventReader* reader, uint64_t pos, RawEvent* event) {
  if (next_ + 1 >= spans_.size() || spans_[next_].begin != pos ||
      !reader->ReadStreamEvent(pos, spans_[next_].end, spans_[next_ + 1].begin, event)) {
    spans_.clear();
    next_ = 0;
    return kNoOffset;
  }
  return spans_[next_++].end;
}

uint64_t LineStream::next_begin() const {
  return next_ + 1 < spans_.size() ? spans_[next_].begin : kNoOffset;
}

uint64_t LineStream::left_begin() const {
  return !spans_.empty() && next_ + 1 == spans_.size() ? spans_.back().begin : kNoOffset;
}

}  // namespace rblnsim::trace::import
