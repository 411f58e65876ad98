// FdSink: the buffered OutputSink every file goes out through. Once its first buffer is full, a
// second thread does the write() calls while the caller goes on producing text: writing a trace
// of gigabytes costs the kernel's copy into the page cache about as much as the JSON text costs
// the writer, and on two cores the two overlap. A file smaller than one buffer never starts the
// thread. Bytes reach the fd in Append order, whichever thread writes them.
//
// Past FdSinkOptions::direct_from_bytes, whole buffers go out with O_DIRECT: the device reads
// them from the buffer itself, so the copy into the page cache, the fresh cache pages and the
// closing fsync's wait for gigabytes of dirty pages are all skipped. The head of the file and
// its tail (a partial buffer) stay buffered. A file or filesystem that refuses O_DIRECT is
// written buffered throughout.
#ifndef RBLNSIM_PROFILER_TRACE_FD_SINK_H_
#define RBLNSIM_PROFILER_TRACE_FD_SINK_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/status.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::trace {

struct FdSinkOptions {
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  size_t buffer_bytes = size_t{1} << 20;
  // False keeps every write() on the caller's thread.
  bool background = true;
  // File offset from which whole buffers are written with O_DIRECT; kNever: never. Only a
  // buffer that is a whole number of blocks, at a block-aligned offset, goes direct.
  uint64_t direct_from_bytes = kNever;
};

// Writes to a file descriptor it does not own. Flush() must be called before the fd is synced or
// closed; the destructor does not flush (buffers not yet written are dropped), so an abandoned
// write never half-lands. The fd's status flags are as they were after Flush() and destruction.
class FdSink final : public OutputSink {
 public:
  // Buffers alive at once in the background mode: one being filled, the rest queued or being
  // written.
  static constexpr size_t kMaxBuffers = 3;
  // O_DIRECT's alignment of memory, offset and length (the logical block of every disk in use;
  // a device whose block is larger refuses the write, and the sink falls back to buffered).
  static constexpr size_t kDirectAlignBytes = 4096;

  // |label| names the file in error messages.
  FdSink(int fd, std::string label, FdSinkOptions options = {});
  FdSink(const FdSink&) = delete;
  FdSink& operator=(const FdSink&) = delete;
  ~FdSink() override;

  void Append(std::string_view bytes) override;
  // Writes what is buffered and waits for the writer thread: afterwards every byte appended is
  // in the fd, or the first error is returned. Appending after a Flush() starts over.
  Status Flush();
  Status status() const override;
  // Whether a second thread did write() calls (tests: small files must not start one).
  bool wrote_in_background() const { return wrote_in_background_; }
  // Bytes that went out with O_DIRECT; read after Flush().
  uint64_t direct_bytes() const { return direct_bytes_; }

 private:
  // A buffer whose memory is aligned for O_DIRECT.
  class Buffer {
   public:
    Buffer() = default;
    explicit Buffer(size_t capacity);
    std::string_view view() const { return {data_.get(), size_}; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void append(std::string_view bytes);
    void clear() { size_ = 0; }

   private:
    struct Free {
      void operator()(char* p) const;
    };
    std::unique_ptr<char, Free> data_;
    size_t size_ = 0;
  };

  // |buffer_| is full: hands it to the writer thread (starting it on the first call) or writes
  // it here, and leaves |buffer_| empty with room for a buffer's worth.
  void HandOff();
  void WriterLoop();
  // Waits for the writer thread to finish: what is queued is written, or dropped when |drop|.
  void StopWriter(bool drop);
  // Writes on the calling thread; the first failure becomes the status.
  void WriteOut(std::string_view bytes);
  // Sets or clears O_DIRECT on the fd; false when the fd refuses it.
  bool SetDirect(bool on);

  int fd_;
  std::string label_;
  FdSinkOptions options_;
  bool wrote_in_background_ = false;
  Buffer buffer_;  // being filled, on the caller's thread
  // Set once, by whichever thread's write() failed first, before |failed_| is released; read
  // after |failed_| is acquired or after the writer thread is joined.
  Status status_;
  std::atomic<bool> failed_{false};
  // Touched only by the thread doing the writes (the writer thread while it runs, else the
  // caller), so never by two at once.
  uint64_t offset_ = 0;  // bytes this sink has written
  uint64_t direct_bytes_ = 0;
  bool direct_on_ = false;       // O_DIRECT is set on the fd
  bool direct_refused_ = false;  // the fd refused it once: not asked again

  std::mutex mutex_;  // guards the members below
  std::condition_variable changed_;
  std::deque<Buffer> queued_;  // full buffers, in file order
  std::vector<Buffer> spare_;  // written buffers, kept for reuse
  size_t buffers_ = 1;         // |buffer_| and those queued, spare or being written
  bool closing_ = false;       // nothing more is queued: the thread ends when done
  bool drop_ = false;          // the destructor: queued buffers are not written
  std::thread writer_;
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_FD_SINK_H_
