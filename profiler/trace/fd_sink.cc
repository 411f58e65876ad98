#include "profiler/trace/fd_sink.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

namespace rblnsim::trace {

FdSink::FdSink(int fd, std::string label, size_t buffer_bytes, bool background)
    : fd_(fd),
      label_(std::move(label)),
      capacity_(std::max<size_t>(buffer_bytes, 1)),
      background_(background) {
  buffer_.reserve(capacity_);
}

FdSink::~FdSink() {
  StopWriter(/*drop=*/true);
}

void FdSink::Append(std::string_view bytes) {
  if (failed_.load(std::memory_order_acquire))
    return;
  // Text longer than the room left is cut at the buffer's end, so every write() but the last is
  // a whole buffer and no append bypasses the queue (which would reorder the file).
  while (bytes.size() > capacity_ - buffer_.size()) {
    const size_t room = capacity_ - buffer_.size();
    buffer_.append(bytes.substr(0, room));
    bytes.remove_prefix(room);
    HandOff();
    if (failed_.load(std::memory_order_acquire))
      return;
  }
  buffer_.append(bytes);
}

void FdSink::HandOff() {
  if (background_ && !writer_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = false;
      drop_ = false;
      spare_.reserve(kMaxBuffers + 1);  // the writer thread then never allocates
    }
    try {
      writer_ = std::thread([this] { WriterLoop(); });
    } catch (const std::system_error&) {
      background_ = false;  // no thread to be had: the caller writes, as a small file does
    }
  }
  if (!writer_.joinable()) {
    WriteOut(buffer_);
    buffer_.clear();
    return;
  }
  wrote_in_background_ = true;
  std::unique_lock<std::mutex> lock(mutex_);
  queued_.push_back(std::move(buffer_));
  changed_.notify_all();
  if (spare_.empty() && buffers_ < kMaxBuffers) {
    ++buffers_;
    lock.unlock();
    buffer_ = std::string();
    buffer_.reserve(capacity_);
    return;
  }
  changed_.wait(lock, [this] { return !spare_.empty(); });
  buffer_ = std::move(spare_.back());
  spare_.pop_back();
}

void FdSink::WriterLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return !queued_.empty() || closing_; });
    if (queued_.empty())
      return;
    std::string buffer = std::move(queued_.front());
    queued_.pop_front();
    const bool drop = drop_;
    lock.unlock();
    // After a failure the rest is dropped, but still taken off the queue, so the caller never
    // waits for a buffer that will not come back.
    if (!drop && !failed_.load(std::memory_order_acquire))
      WriteOut(buffer);
    buffer.clear();
    lock.lock();
    spare_.push_back(std::move(buffer));
    changed_.notify_all();
  }
}

void FdSink::StopWriter(bool drop) {
  if (!writer_.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    drop_ = drop;
    changed_.notify_all();
  }
  writer_.join();
}

Status FdSink::Flush() {
  if (!buffer_.empty() && !failed_.load(std::memory_order_acquire)) {
    if (writer_.joinable()) {
      std::lock_guard<std::mutex> lock(mutex_);
      queued_.push_back(std::move(buffer_));
      ++buffers_;  // the queue owns it now; |buffer_| is rebuilt below
      changed_.notify_all();
    } else {
      WriteOut(buffer_);
    }
  }
  StopWriter(/*drop=*/false);
  // The thread is gone: its buffers go with it, and a later append starts over with one.
  spare_.clear();
  buffers_ = 1;
  buffer_.clear();
  buffer_.reserve(capacity_);
  return status();
}

Status FdSink::status() const {
  return failed_.load(std::memory_order_acquire) ? status_ : Status::Ok();
}

void FdSink::WriteOut(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0) {
      // A zero-byte write of a non-empty buffer would loop forever; report it like an error.
      status_ = Status::IoError(
          "cannot write '" + label_ + "': " +
          (written < 0 ? std::generic_category().message(errno) : std::string("no progress")));
      failed_.store(true, std::memory_order_release);
      return;
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

}  // namespace rblnsim::trace
