// FdSink: the buffered OutputSink every file goes out through. Once its first buffer is full, a
// second thread does the write() calls while the caller goes on producing text: writing a trace
// of gigabytes costs the kernel's copy into the page cache about as much as the JSON text costs
// the writer, and on two cores the two overlap. A file smaller than one buffer never starts the
// thread. Bytes reach the fd in Append order, whichever thread writes them.
#ifndef RBLNSIM_PROFILER_TRACE_FD_SINK_H_
#define RBLNSIM_PROFILER_TRACE_FD_SINK_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/status.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::trace {

// Writes to a file descriptor it does not own. Flush() must be called before the fd is synced or
// closed; the destructor does not flush (buffers not yet written are dropped), so an abandoned
// write never half-lands.
class FdSink final : public OutputSink {
 public:
  static constexpr size_t kDefaultBufferBytes = size_t{1} << 20;
  // Buffers alive at once in the background mode: one being filled, the rest queued or being
  // written.
  static constexpr size_t kMaxBuffers = 3;

  // |label| names the file in error messages. |background| false keeps every write() on the
  // caller's thread.
  FdSink(int fd,
         std::string label,
         size_t buffer_bytes = kDefaultBufferBytes,
         bool background = true);
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

 private:
  // |buffer_| is full: hands it to the writer thread (starting it on the first call) or writes
  // it here, and leaves |buffer_| empty with room for a buffer's worth.
  void HandOff();
  void WriterLoop();
  // Waits for the writer thread to finish: what is queued is written, or dropped when |drop|.
  void StopWriter(bool drop);
  // Writes on the calling thread; the first failure becomes the status.
  void WriteOut(std::string_view bytes);

  int fd_;
  std::string label_;
  size_t capacity_;
  bool background_;
  bool wrote_in_background_ = false;
  std::string buffer_;  // being filled, on the caller's thread
  // Set once, by whichever thread's write() failed first, before |failed_| is released; read
  // after |failed_| is acquired or after the writer thread is joined.
  Status status_;
  std::atomic<bool> failed_{false};

  std::mutex mutex_;  // guards the members below
  std::condition_variable changed_;
  std::deque<std::string> queued_;  // full buffers, in file order
  std::vector<std::string> spare_;  // written buffers, kept for reuse
  size_t buffers_ = 1;              // |buffer_| and those queued, spare or being written
  bool closing_ = false;            // nothing more is queued: the thread ends when done
  bool drop_ = false;               // the destructor: queued buffers are not written
  std::thread writer_;
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_FD_SINK_H_
