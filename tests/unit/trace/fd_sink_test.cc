#include "profiler/trace/fd_sink.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

namespace rblnsim::trace {
namespace {

// An unlinked temporary file: what was written is read back through the same fd.
class TempFd {
 public:
  TempFd() {
    char path[] = "/tmp/fd_sink_test_XXXXXX";
    fd_ = ::mkstemp(path);
    if (fd_ >= 0)
      ::unlink(path);
  }
  ~TempFd() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  int fd() const { return fd_; }
  std::string Content() const {
    std::string content;
    char chunk[1 << 16];
    for (off_t at = 0;;) {
      const ssize_t got = ::pread(fd_, chunk, sizeof(chunk), at);
      if (got <= 0)
        return content;
      content.append(chunk, static_cast<size_t>(got));
      at += got;
    }
  }

 private:
  int fd_ = -1;
};

// Text whose every position differs from its neighbours', so a reordered or repeated buffer
// shows.
std::string Numbered(int from, int count) {
  std::string text;
  for (int i = from; i < from + count; ++i)
    text += std::to_string(i) + ',';
  return text;
}

TEST(FdSink, BuffersAndReportsErrors) {
  TempFd file;
  ASSERT_GE(file.fd(), 0);
  {
    FdSink sink(file.fd(), "t.json", /*buffer_bytes=*/4);
    sink.Append("ab");
    sink.Append("cdef");        // overflows the buffer
    sink.Append("0123456789");  // larger than the buffer
    sink.Append("z");
    ASSERT_TRUE(sink.Flush().ok());
  }
  EXPECT_EQ(file.Content(), "abcdef0123456789z");

  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (full < 0)
    GTEST_SKIP() << "no /dev/full";
  // Many more buffers than the sink keeps: after the first write fails, the rest must still
  // come back to the caller, or it would wait for a buffer forever.
  FdSink failing(full, "trace.json", 8);
  failing.Append(std::string(100, 'x'));
  failing.Append("more");
  const Status status = failing.Flush();
  ::close(full);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot write 'trace.json': No space left on device");
  // A full disk is not the user's input being wrong: it exits 3, not 2.
  EXPECT_EQ(status.code(), StatusCode::kIoError);
  EXPECT_EQ(ExitStatusFor(status.code()), 3);
  EXPECT_FALSE(failing.status().ok());
}

TEST(FdSink, ManyBuffersArriveInOrderFromTheWriterThread) {
  TempFd file;
  ASSERT_GE(file.fd(), 0);
  const std::string text = Numbered(0, 300000);
  FdSink sink(file.fd(), "t.json", /*buffer_bytes=*/4096);
  // Appends of every size around the buffer's: within one, across two, longer than several.
  size_t at = 0;
  for (size_t i = 0; at < text.size(); ++i) {
    const size_t size = std::min(text.size() - at, 1 + (i * 37) % 15000);
    sink.Append(std::string_view(text).substr(at, size));
    at += size;
  }
  ASSERT_TRUE(sink.Flush().ok());
  EXPECT_TRUE(sink.wrote_in_background());
  ASSERT_GT(text.size(), 50 * FdSink::kMaxBuffers * 4096);
  EXPECT_EQ(file.Content(), text);

  // After a Flush the sink starts over, thread and all, at the end of what it wrote.
  sink.Append(Numbered(0, 5000));
  ASSERT_TRUE(sink.Flush().ok());
  EXPECT_EQ(file.Content(), text + Numbered(0, 5000));
}

TEST(FdSink, SmallFilesAndTheForegroundModeStayOnTheCallersThread) {
  TempFd small;
  ASSERT_GE(small.fd(), 0);
  FdSink one_buffer(small.fd(), "small.json", /*buffer_bytes=*/1024);
  one_buffer.Append(std::string(1024, 'a'));  // exactly one buffer: nothing handed off yet
  ASSERT_TRUE(one_buffer.Flush().ok());
  EXPECT_FALSE(one_buffer.wrote_in_background());
  EXPECT_EQ(small.Content(), std::string(1024, 'a'));

  TempFd large;
  ASSERT_GE(large.fd(), 0);
  FdSink foreground(large.fd(), "large.json", /*buffer_bytes=*/16, /*background=*/false);
  foreground.Append(Numbered(0, 1000));
  ASSERT_TRUE(foreground.Flush().ok());
  EXPECT_FALSE(foreground.wrote_in_background());
  EXPECT_EQ(large.Content(), Numbered(0, 1000));
}

TEST(FdSink, DestroyedWithoutFlushLeavesTheUnflushedTailUnwritten) {
  TempFd file;
  ASSERT_GE(file.fd(), 0);
  {
    FdSink sink(file.fd(), "t.json", /*buffer_bytes=*/64);
    sink.Append(std::string(63, 'a'));
  }
  EXPECT_EQ(file.Content(), "");
  {
    // With the writer thread running: it is stopped, and the buffer being filled never lands.
    FdSink sink(file.fd(), "t.json", /*buffer_bytes=*/64);
    sink.Append(std::string(64 * 20 + 10, 'b'));
  }
  const std::string content = file.Content();
  EXPECT_LE(content.size(), size_t{64 * 20});
  EXPECT_EQ(content, std::string(content.size(), 'b'));
}

}  // namespace
}  // namespace rblnsim::trace
