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

FdSinkOptions Options(size_t buffer_bytes, bool background = true) {
  FdSinkOptions options;
  options.buffer_bytes = buffer_bytes;
  options.background = background;
  return options;
}

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
    FdSink sink(file.fd(), "t.json", Options(4));
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
  FdSink failing(full, "trace.json", Options(8));
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
  FdSink sink(file.fd(), "t.json", Options(4096));
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
  FdSink one_buffer(small.fd(), "small.json", Options(1024));
  one_buffer.Append(std::string(1024, 'a'));  // exactly one buffer: nothing handed off yet
  ASSERT_TRUE(one_buffer.Flush().ok());
  EXPECT_FALSE(one_buffer.wrote_in_background());
  EXPECT_EQ(small.Content(), std::string(1024, 'a'));

  TempFd large;
  ASSERT_GE(large.fd(), 0);
  FdSink foreground(large.fd(), "large.json", Options(16, /*background=*/false));
  foreground.Append(Numbered(0, 1000));
  ASSERT_TRUE(foreground.Flush().ok());
  EXPECT_FALSE(foreground.wrote_in_background());
  EXPECT_EQ(large.Content(), Numbered(0, 1000));
}

TEST(FdSink, DestroyedWithoutFlushLeavesTheUnflushedTailUnwritten) {
  TempFd file;
  ASSERT_GE(file.fd(), 0);
  {
    FdSink sink(file.fd(), "t.json", Options(64));
    sink.Append(std::string(63, 'a'));
  }
  EXPECT_EQ(file.Content(), "");
  {
    // With the writer thread running: it is stopped, and the buffer being filled never lands.
    FdSink sink(file.fd(), "t.json", Options(64));
    sink.Append(std::string(64 * 20 + 10, 'b'));
  }
  const std::string content = file.Content();
  EXPECT_LE(content.size(), size_t{64 * 20});
  EXPECT_EQ(content, std::string(content.size(), 'b'));
}

bool AcceptsDirect(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_DIRECT) != 0)
    return false;
  return ::fcntl(fd, F_SETFL, flags) == 0;
}

bool HasDirectFlag(int fd) {
  return (::fcntl(fd, F_GETFL) & O_DIRECT) != 0;
}

TEST(FdSink, WholeBuffersPastTheThresholdGoDirect) {
  constexpr size_t kBuffer = 2 * FdSink::kDirectAlignBytes;
  const std::string text = Numbered(0, 200000);
  for (const bool background : {true, false}) {
    SCOPED_TRACE(background ? "background" : "foreground");
    TempFd file;
    ASSERT_GE(file.fd(), 0);
    if (!AcceptsDirect(file.fd()))
      GTEST_SKIP() << "the temporary directory's filesystem refuses O_DIRECT";
    FdSinkOptions options = Options(kBuffer, background);
    // Not on a buffer's boundary: the first direct write is the buffer after it.
    options.direct_from_bytes = 3 * kBuffer + 100;
    FdSink sink(file.fd(), "t.json", options);
    for (size_t at = 0; at < text.size(); at += 777)
      sink.Append(std::string_view(text).substr(at, 777));
    ASSERT_TRUE(sink.Flush().ok());
    EXPECT_FALSE(HasDirectFlag(file.fd()));
    EXPECT_EQ(file.Content(), text);
    // Every whole buffer from the fifth on, and not the partial tail.
    EXPECT_EQ(sink.direct_bytes(), (text.size() / kBuffer - 4) * kBuffer);

    // Appending after the unaligned tail: the offset is off the block grid, so nothing more
    // can go direct, and the bytes still land in order.
    sink.Append(Numbered(0, 20000));
    ASSERT_TRUE(sink.Flush().ok());
    EXPECT_EQ(file.Content(), text + Numbered(0, 20000));
    EXPECT_EQ(sink.direct_bytes(), (text.size() / kBuffer - 4) * kBuffer);
  }
}

TEST(FdSink, WritesThatCannotGoDirectAreBuffered) {
  const std::string text = Numbered(0, 50000);
  {
    // Buffers that are not whole blocks.
    TempFd file;
    ASSERT_GE(file.fd(), 0);
    FdSinkOptions options = Options(FdSink::kDirectAlignBytes + 904);
    options.direct_from_bytes = 0;
    FdSink sink(file.fd(), "t.json", options);
    sink.Append(text);
    ASSERT_TRUE(sink.Flush().ok());
    EXPECT_EQ(sink.direct_bytes(), 0u);
    EXPECT_EQ(file.Content(), text);
  }
  {
    // The default: never.
    TempFd file;
    ASSERT_GE(file.fd(), 0);
    FdSink sink(file.fd(), "t.json", Options(FdSink::kDirectAlignBytes));
    sink.Append(text);
    ASSERT_TRUE(sink.Flush().ok());
    EXPECT_EQ(sink.direct_bytes(), 0u);
    EXPECT_EQ(file.Content(), text);
  }
  // A file that refuses O_DIRECT (fcntl says EINVAL) is written buffered, without an error.
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(null, 0);
  FdSinkOptions options = Options(FdSink::kDirectAlignBytes);
  options.direct_from_bytes = 0;
  FdSink sink(null, "null", options);
  sink.Append(text);
  const Status status = sink.Flush();
  ::close(null);
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(sink.direct_bytes(), 0u);
}

TEST(FdSink, ODirectIsClearedWhenTheSinkIsDoneWithTheFd) {
  TempFd file;
  ASSERT_GE(file.fd(), 0);
  if (!AcceptsDirect(file.fd()))
    GTEST_SKIP() << "the temporary directory's filesystem refuses O_DIRECT";
  FdSinkOptions options = Options(FdSink::kDirectAlignBytes);
  options.direct_from_bytes = 0;
  {
    // Whole buffers to the end: no buffered tail clears the flag, Flush() must.
    FdSink sink(file.fd(), "t.json", options);
    sink.Append(std::string(4 * FdSink::kDirectAlignBytes, 'a'));
    ASSERT_TRUE(sink.Flush().ok());
    EXPECT_EQ(sink.direct_bytes(), 4 * FdSink::kDirectAlignBytes);
    EXPECT_FALSE(HasDirectFlag(file.fd()));
  }
  ASSERT_EQ(::ftruncate(file.fd(), 0), 0);
  ASSERT_EQ(::lseek(file.fd(), 0, SEEK_SET), 0);
  {
    // Destroyed mid-write.
    FdSinkOptions foreground = Options(FdSink::kDirectAlignBytes, /*background=*/false);
    foreground.direct_from_bytes = 0;
    FdSink sink(file.fd(), "t.json", foreground);
    sink.Append(std::string(3 * FdSink::kDirectAlignBytes + 10, 'c'));
    EXPECT_TRUE(HasDirectFlag(file.fd()));  // the whole buffers went out direct
  }
  EXPECT_FALSE(HasDirectFlag(file.fd()));
  EXPECT_EQ(file.Content(), std::string(3 * FdSink::kDirectAlignBytes, 'c'));
}

}  // namespace
}  // namespace rblnsim::trace
