#include "profiler/trace/import/text_window.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

namespace rblnsim::trace::import {

namespace {
constexpr size_t kPaddingBytes = simdjson::SIMDJSON_PADDING;
}  // namespace

TextWindow::TextWindow(std::unique_ptr<TextSource> source, size_t chunk_bytes)
    : source_(std::move(source)), chunk_bytes_(chunk_bytes > 0 ? chunk_bytes : 1) {
  mapping_ = source_->TakeMapping();
  if (mapping_) {
    data_ = mapping_->data();
    size_ = mapping_->size();
    capacity_ = mapping_->readable();
    eof_ = true;
  }
}

bool TextWindow::Reserve(size_t bytes) {
  if (bytes > SIZE_MAX - kPaddingBytes)
    return false;
  const size_t wanted = bytes + kPaddingBytes;
  if (wanted <= capacity_)
    return true;
  // Grow by half again so an element much larger than a chunk costs O(log n) reallocations.
  size_t grown = capacity_ + capacity_ / 2;
  if (grown < wanted)
    grown = wanted;
  std::unique_ptr<char[]> larger(new (std::nothrow) char[grown]);
  if (!larger)
    return false;
  if (size_ > 0)
    std::memcpy(larger.get(), bytes_.get(), size_);
  bytes_ = std::move(larger);
  data_ = bytes_.get();
  capacity_ = grown;
  return true;
}

void TextWindow::PadEnd() {
  // simdjson only needs the padding to be readable; zeroing it keeps runs deterministic.
  std::memset(bytes_.get() + size_, 0, kPaddingBytes);
}

Status TextWindow::Extend(uint64_t keep_from, size_t min_bytes) {
  if (mapping_) {
    mapping_->Advance(keep_from, keep_from);
    return Status::Ok();  // the whole text is in
  }
  if (keep_from > begin_) {
    const size_t drop = static_cast<size_t>(std::min<uint64_t>(keep_from - begin_, size_));
    // Only the element being read survives, which is small next to a chunk.
    if (drop < size_)
      std::memmove(bytes_.get(), bytes_.get() + drop, size_ - drop);
    size_ -= drop;
    begin_ += drop;
  }
  if (deferred_error_)
    return *std::exchange(deferred_error_, std::nullopt);
  if (eof_)
    return Status::Ok();
  size_t more = std::max(chunk_bytes_, min_bytes);
  // A source of known size needs no more window than what is left of it, and one byte over to
  // see its end: a trace of a few kB then costs a buffer of a few kB, not a chunk of megabytes.
  if (const std::optional<uint64_t> total = source_->size_hint(); total && *total >= end()) {
    const uint64_t left = *total - end() + 1;
    if (left < more)
      more = std::max<size_t>(min_bytes, static_cast<size_t>(left));
  }
  if (more > SIZE_MAX - size_ || !Reserve(size_ + more))
    return Status::ResourceExhausted("out of memory while reading the trace");
  // Fill the whole request: a gzip source may hand out little at a time.
  const size_t target = size_ + more;
  while (size_ < target) {
    StatusOr<size_t> n = source_->Read(bytes_.get() + size_, target - size_);
    if (!n.ok()) {
      source_failed_ = true;
      return n.status();
    }
    if (*n == 0) {
      eof_ = true;
      break;
    }
    size_ += *n;
  }
  PadEnd();
  return Status::Ok();
}

bool TextWindow::ReadAhead(uint64_t keep_from, size_t min_bytes) {
  if (eof_ || deferred_error_)
    return false;
  const uint64_t end_before = end();
  Status read = Extend(keep_from, min_bytes);
  if (!read.ok()) {
    // What was read before the failure stays, padded for simdjson like any other text.
    if (capacity_ >= size_ + kPaddingBytes)
      PadEnd();
    deferred_error_ = std::move(read);
  }
  return end() > end_before;
}

Status TextWindow::Drain() {
  if (deferred_error_)
    return *std::exchange(deferred_error_, std::nullopt);
  if (source_failed_)
    return Status::Ok();  // the reader already has the source's error
  std::vector<char> sink(chunk_bytes_);
  while (!eof_) {
    StatusOr<size_t> n = source_->Read(sink.data(), sink.size());
    if (!n.ok())
      return n.status();
    eof_ = *n == 0;
  }
  return Status::Ok();
}

}  // namespace rblnsim::trace::import
