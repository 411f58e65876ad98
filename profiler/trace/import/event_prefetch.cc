#include "profiler/trace/import/event_prefetch.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/line_stream.h"

namespace rblnsim::trace::import {

namespace {

// Lines looked at for an event start before a stretch is given up.
constexpr int kMaxLinesToFindAStart = 64;

}  // namespace

EventPrefetcher::EventPrefetcher(int ns_exponent,
                                 const std::vector<std::string>& keep_args,
                                 bool plain_scan)
    : reader_(std::make_unique<EventReader>(ns_exponent)), pool_(reader_->arg_pool()) {
  if (!keep_args.empty())
    reader_->KeepOnlyArgs(keep_args);
  reader_->set_plain_scan(plain_scan);
  // One thread for the whole import: its allocator arena and caches stay warm from stretch to
  // stretch.
  worker_ = std::thread(&EventPrefetcher::Work, this);
}

EventPrefetcher::~EventPrefetcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void EventPrefetcher::Work() {
  // Stretches are the same size and a file's events alike, so the last stretch's count sizes the
  // next one's array: growing it moved every event read so far, several times per stretch.
  size_t last_count = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return job_ || stop_; });
    if (stop_)
      return;
    job_ = false;
    Stretch stretch;
    stretch.reads = std::move(spare_);
    lock.unlock();
    try {
      stretch.reads.reserve(last_count);
      stretch.count = ReadStretch(reader_.get(), text_.get(), text_size_, text_capacity_,
                                  pending_begin_, &stretch.reads);
      last_count = stretch.count;
    } catch (const std::bad_alloc&) {
      // Nothing read ahead: the caller's thread reads the stretch itself, and reports running
      // out of memory the way it always does.
      stretch.count = 0;
    }
    lock.lock();
    result_ = std::move(stretch);
    done_ = true;
    finished_.store(true, std::memory_order_release);
    wake_.notify_all();
  }
}

void EventPrefetcher::set_ns_exponent(int ns_exponent) {
  if (in_flight_)
    Collect();  // the worker must not be reading while its reader changes
  reader_->set_ns_exponent(ns_exponent);
}

std::optional<uint64_t> EventPrefetcher::LineStartAfter(std::string_view text,
                                                        uint64_t text_offset,
                                                        uint64_t from) {
  if (from < text_offset)
    return std::nullopt;
  size_t rel = static_cast<size_t>(from - text_offset);
  for (int line = 0; line < kMaxLinesToFindAStart && rel < text.size(); ++line) {
    const void* newline = std::memchr(text.data() + rel, '\n', text.size() - rel);
    if (newline == nullptr)
      return std::nullopt;
    rel =
        SkipWhitespace(text, static_cast<size_t>(static_cast<const char*>(newline) - text.data()));
    if (rel < text.size() && text[rel] == '{')
      return text_offset + rel;
  }
  return std::nullopt;
}

size_t EventPrefetcher::ReadStretch(EventReader* reader,
                                    char* data,
                                    size_t size,
                                    size_t readable,
                                    uint64_t offset,
                                    std::vector<Read>* reads) {
  size_t count = 0;
  LineStream stream;
  // In streams of a few hundred kB: simdjson's buffers for a stream grow with its size, and a
  // stretch is megabytes. Each stream leaves its last event to the next one.
  size_t rel = 0;
  while (rel < size) {
    const size_t piece = std::min(size - rel, EventReader::kStreamBytes);
    if (!stream.OpenInPlace(reader, data + rel, piece, readable - rel, offset + rel))
      break;
    for (uint64_t begin = stream.next_begin(); begin != kNoOffset; begin = stream.next_begin()) {
      if (count == reads->size())
        reads->emplace_back();
      Read& read = (*reads)[count];
      const uint64_t end = stream.Take(reader, begin, &read.event);
      if (end == kNoOffset)
        return count;
      read.begin = begin;
      read.end = end;
      ++count;
    }
    // The next stream begins with the event this one could not hand out.
    const uint64_t left = stream.left_begin();
    if (left == kNoOffset)
      break;
    rel = static_cast<size_t>(left - offset);
  }
  return count;
}

bool EventPrefetcher::Start(std::string_view text, uint64_t text_offset) {
  const size_t needed = text.size() + simdjson::SIMDJSON_PADDING;
  if (needed > text_capacity_) {
    text_.reset(new (std::nothrow) char[needed]);
    text_capacity_ = text_ ? needed : 0;
    if (!text_)
      return false;
  }
  std::memcpy(text_.get(), text.data(), text.size());
  std::memset(text_.get() + text.size(), 0, simdjson::SIMDJSON_PADDING);
  text_size_ = text.size();
  pending_begin_ = text_offset;
  in_flight_ = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = true;
  }
  wake_.notify_all();
  return true;
}

void EventPrefetcher::Collect() {
  Stretch stretch;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return done_; });
    done_ = false;
    finished_.store(false, std::memory_order_relaxed);
    stretch = std::move(result_);
  }
  in_flight_ = false;
  ready_.push_back(std::move(stretch));
}

void EventPrefetcher::Retire() {
  if (ready_.front().taken == 0)
    ++misses_;
  // The stretch retired before is done with: its reads go back to the worker (what the caller
  // moved out of them is gone; the rest keeps its buffers).
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.capacity() < retired_.reads.capacity())
      spare_ = std::move(retired_.reads);
  }
  retired_ = std::move(ready_.front());
  ready_.pop_front();
}

bool EventPrefetcher::CollectIfDone() {
  if (!in_flight_)
    return true;
  if (ready_.size() >= kMaxReady || !finished_.load(std::memory_order_acquire))
    return false;
  Collect();
  return true;
}

uint64_t EventPrefetcher::ahead_end() const {
  for (auto it = ready_.rbegin(); it != ready_.rend(); ++it) {
    if (it->Left())
      return it->reads[it->count - 1].end;
  }
  return 0;
}

std::optional<uint64_t> EventPrefetcher::ahead_begin() const {
  for (const Stretch& stretch : ready_) {
    if (stretch.Left())
      return stretch.reads[stretch.next].begin;
  }
  if (in_flight_)
    return pending_begin_;
  return std::nullopt;
}

uint64_t EventPrefetcher::Take(uint64_t pos, RawEvent** event) {
  while (true) {
    while (!ready_.empty()) {
      Stretch& stretch = ready_.front();
      while (stretch.Left() && stretch.reads[stretch.next].begin < pos)
        ++stretch.next;
      if (stretch.Left()) {
        Read& read = stretch.reads[stretch.next];
        if (read.begin != pos)
          return kNoOffset;
        ++stretch.next;
        ++stretch.taken;
        *event = &read.event;
        return read.end;
      }
      Retire();
    }
    if (!in_flight_ || pos < pending_begin_)
      return kNoOffset;
    Collect();
  }
}

}  // namespace rblnsim::trace::import
