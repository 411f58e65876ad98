#include "profiler/trace/import/text_cursor.h"

#include <cstring>

namespace rblnsim::trace::import {

Status TextCursor::Start(size_t bytes) {
  while (window_.size() < bytes && !window_.at_eof())
    RBLNSIM_RETURN_IF_ERROR(window_.Extend(0));
  return Status::Ok();
}

StatusOr<uint64_t> TextCursor::Ws(uint64_t pos) {
  window_.Forget(KeepFrom(pos), pos);
  while (true) {
    const size_t rel = SkipWhitespace(window_.view(), Rel(pos));
    if (rel < window_.size() || window_.at_eof())
      return window_.begin() + rel;
    pos = window_.begin() + rel;
    RBLNSIM_RETURN_IF_ERROR(window_.Extend(KeepFrom(pos)));
  }
}

StatusOr<uint64_t> TextCursor::Skip(uint64_t pos, bool string, size_t max_depth) {
  while (true) {
    bool truncated = false;
    const uint64_t base = window_.begin();
    StatusOr<size_t> end = string
                               ? SkipString(window_.view(), Rel(pos), base, &truncated)
                               : SkipValue(window_.view(), Rel(pos), base, &truncated, max_depth);
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

TextPiece TextCursor::Piece(uint64_t begin, uint64_t end) const {
  return {window_.data() + Rel(begin), static_cast<size_t>(end - begin),
          window_.readable() - Rel(begin), begin};
}

size_t GuessLineEnd(const char* data, size_t size, size_t rel) {
  const void* newline = std::memchr(data + rel, '\n', size - rel);
  if (newline == nullptr)
    return kNoOffset;  // the bytes end first: a scan refills them
  size_t end = static_cast<size_t>(static_cast<const char*>(newline) - data);
  while (end > rel && IsJsonWhitespace(data[end - 1]))
    --end;
  if (end > rel && data[end - 1] == ',') {
    --end;
    while (end > rel && IsJsonWhitespace(data[end - 1]))
      --end;
  }
  if (end < rel + 2 || data[end - 1] != '}')
    return kNoOffset;
  return end;
}

uint64_t TextCursor::LineEnd(uint64_t begin) const {
  const size_t end = GuessLineEnd(window_.data(), window_.size(), Rel(begin));
  return end == kNoOffset ? kNoOffset : window_.begin() + end;
}

}  // namespace rblnsim::trace::import
