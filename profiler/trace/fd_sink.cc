#include "profiler/trace/fd_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <system_error>
#include <utility>

namespace rblnsim::trace {
namespace {

constexpr std::align_val_t kBufferAlign{FdSink::kDirectAlignBytes};

bool IsAligned(uint64_t value) {
  return value % FdSink::kDirectAlignBytes == 0;
}

}  // namespace

FdSink::Buffer::Buffer(size_t capacity) {
  const size_t rounded = (capacity + kDirectAlignBytes - 1) / kDirectAlignBytes * kDirectAlignBytes;
  data_.reset(static_cast<char*>(::operator new(rounded, kBufferAlign)));
}

void FdSink::Buffer::Free::operator()(char* p) const {
  ::operator delete(p, kBufferAlign);
}

void FdSink::Buffer::append(std::string_view bytes) {
  std::memcpy(data_.get() + size_, bytes.data(), bytes.size());
  size_ += bytes.size();
}

FdSink::FdSink(int fd, std::string label, FdSinkOptions options)
    : fd_(fd), label_(std::move(label)), options_(options) {
  options_.buffer_bytes = std::max<size_t>(options_.buffer_bytes, 1);
  buffer_ = Buffer(options_.buffer_bytes);
}

FdSink::~FdSink() {
  StopWriter(/*drop=*/true);
  SetDirect(false);
}

void FdSink::Append(std::string_view bytes) {
  if (failed_.load(std::memory_order_acquire))
    return;
  // Text longer than the room left is cut at the buffer's end, so every write() but the last is
  // a whole buffer and no append bypasses the queue (which would reorder the file).
  const size_t capacity = options_.buffer_bytes;
  while (bytes.size() > capacity - buffer_.size()) {
    const size_t room = capacity - buffer_.size();
    buffer_.append(bytes.substr(0, room));
    bytes.remove_prefix(room);
    HandOff();
    if (failed_.load(std::memory_order_acquire))
      return;
  }
  buffer_.append(bytes);
}

void FdSink::HandOff() {
  if (options_.background && !writer_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = false;
      drop_ = false;
      spare_.reserve(kMaxBuffers + 1);  // the writer thread then never allocates
    }
    try {
      writer_ = std::thread([this] { WriterLoop(); });
    } catch (const std::system_error&) {
      options_.background = false;  // no thread to be had: the caller writes, as a small file does
    }
  }
  if (!writer_.joinable()) {
    WriteOut(buffer_.view());
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
    buffer_ = Buffer(options_.buffer_bytes);
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
    Buffer buffer = std::move(queued_.front());
    queued_.pop_front();
    const bool drop = drop_;
    lock.unlock();
    // After a failure the rest is dropped, but still taken off the queue, so the caller never
    // waits for a buffer that will not come back.
    if (!drop && !failed_.load(std::memory_order_acquire))
      WriteOut(buffer.view());
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
  bool handed_over = false;
  if (!buffer_.empty() && !failed_.load(std::memory_order_acquire)) {
    if (writer_.joinable()) {
      std::lock_guard<std::mutex> lock(mutex_);
      queued_.push_back(std::move(buffer_));
      ++buffers_;  // the queue owns it now; |buffer_| is rebuilt below
      changed_.notify_all();
      handed_over = true;
    } else {
      WriteOut(buffer_.view());
    }
  }
  StopWriter(/*drop=*/false);
  SetDirect(false);
  // The thread is gone: its buffers go with it, and a later append starts over with one.
  spare_.clear();
  buffers_ = 1;
  if (handed_over)
    buffer_ = Buffer(options_.buffer_bytes);
  else
    buffer_.clear();
  return status();
}

Status FdSink::status() const {
  return failed_.load(std::memory_order_acquire) ? status_ : Status::Ok();
}

bool FdSink::SetDirect(bool on) {
  if (on == direct_on_)
    return true;
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT) != 0) {
    if (on)
      direct_refused_ = true;
    return false;
  }
  direct_on_ = on;
  return true;
}

void FdSink::WriteOut(std::string_view bytes) {
  while (!bytes.empty()) {
    // The head of a file stays in the page cache, where whoever reads it next finds it; and a
    // write O_DIRECT cannot take (a partial block, an unaligned offset) is buffered.
    const bool direct = !direct_refused_ && offset_ >= options_.direct_from_bytes &&
                        IsAligned(offset_) && IsAligned(bytes.size()) &&
                        IsAligned(reinterpret_cast<uintptr_t>(bytes.data()));
    const bool direct_set = SetDirect(direct) && direct;
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written < 0 && errno == EINVAL && direct_set) {
      direct_refused_ = true;  // the device's block is larger than ours: buffered from now on
      continue;
    }
    if (written <= 0) {
      // A zero-byte write of a non-empty buffer would loop forever; report it like an error.
      status_ = Status::IoError(
          "cannot write '" + label_ + "': " +
          (written < 0 ? std::generic_category().message(errno) : std::string("no progress")));
      failed_.store(true, std::memory_order_release);
      return;
    }
    offset_ += static_cast<uint64_t>(written);
    if (direct_set)
      direct_bytes_ += static_cast<uint64_t>(written);
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

}  // namespace rblnsim::trace
