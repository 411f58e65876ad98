#include "profiler/trace/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace rblnsim::trace {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "atomic_file_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }

  std::vector<std::string> Listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
  }

  static Status WriteText(const std::string& path, const std::string& text) {
    return WriteFileAtomically(path, [&text](OutputSink& sink) {
      sink.Append(text);
      return Status::Ok();
    });
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesANewFileWithUsualPermissions) {
  const std::string path = (dir_ / "trace.json").string();
  ASSERT_TRUE(WriteText(path, "hello").ok());
  EXPECT_EQ(Read(path), "hello");
  EXPECT_EQ(Listing(), std::vector<std::string>{"trace.json"});

  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
}

TEST_F(AtomicFileTest, ReplacesAnExistingFile) {
  const std::string path = (dir_ / "trace.json").string();
  ASSERT_TRUE(WriteText(path, "old content that is longer").ok());
  ASSERT_TRUE(WriteText(path, "new").ok());
  EXPECT_EQ(Read(path), "new");
  EXPECT_EQ(Listing(), std::vector<std::string>{"trace.json"});
}

TEST_F(AtomicFileTest, AFilePastTheDirectThresholdLandsWhole) {
  // Past kWriteDirectFromBytes whole buffers bypass the page cache and the tail does not: the
  // file must read back as written, across the switch and the tail.
  std::string text(kWriteDirectFromBytes + 3 * FdSinkOptions().buffer_bytes + 12345, '\0');
  for (size_t i = 0; i < text.size(); ++i)
    text[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  const std::string path = (dir_ / "trace.json").string();
  const Status status = WriteFileAtomically(path, [&text](OutputSink& sink) {
    for (size_t at = 0; at < text.size(); at += 100003)
      sink.Append(std::string_view(text).substr(at, 100003));
    return Status::Ok();
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(Read(path) == text);
  EXPECT_EQ(Listing(), std::vector<std::string>{"trace.json"});
}

TEST_F(AtomicFileTest, FailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  const std::string path = (dir_ / "trace.json").string();
  ASSERT_TRUE(WriteText(path, "old").ok());
  // Enough data that part of it has already reached the temporary file when the writer fails.
  const Status status = WriteFileAtomically(path, [](OutputSink& sink) {
    sink.Append(std::string(1 << 20, 'x'));
    return Status::Error("simulated failure half-way");
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "simulated failure half-way");
  EXPECT_EQ(Read(path), "old");
  EXPECT_EQ(Listing(), std::vector<std::string>{"trace.json"});
}

TEST_F(AtomicFileTest, FailedFirstWriteCreatesNothing) {
  const std::string path = (dir_ / "trace.json").string();
  const Status status =
      WriteFileAtomically(path, [](OutputSink&) { return Status::Error("nothing to write"); });
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(Listing().empty());
}

TEST_F(AtomicFileTest, BareFileNameUsesTheCurrentDirectory) {
  const fs::path old_cwd = fs::current_path();
  fs::current_path(dir_);
  const Status status = WriteText("bare.json", "x");
  fs::current_path(old_cwd);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(Listing(), std::vector<std::string>{"bare.json"});
}

TEST_F(AtomicFileTest, MissingDirectoryIsReportedWithPathAndErrno) {
  const std::string path = (dir_ / "no" / "such" / "trace.json").string();
  const Status status = CheckWritable(path);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot write '" + path + "': directory '" +
                                  (dir_ / "no" / "such").string() + "': No such file or directory");
  const Status write_status = WriteText(path, "x");
  EXPECT_EQ(write_status.message(), status.message());
  // The path the user named cannot be written: bad input, exit 2.
  EXPECT_EQ(write_status.code(), StatusCode::kInvalidInput);
  EXPECT_EQ(ExitStatusFor(write_status.code()), 2);
  EXPECT_TRUE(Listing().empty());
}

TEST_F(AtomicFileTest, ParentThatIsAFileIsReported) {
  const std::string file = (dir_ / "plain").string();
  ASSERT_TRUE(WriteText(file, "x").ok());
  const Status status = CheckWritable(file + "/trace.json");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "cannot write '" + file + "/trace.json': '" + file + "' is not a directory");
}

TEST_F(AtomicFileTest, TargetThatIsADirectoryIsReported) {
  fs::create_directory(dir_ / "sub");
  const std::string path = (dir_ / "sub").string();
  const Status status = WriteText(path, "x");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot write '" + path + "': is a directory");
  EXPECT_TRUE(fs::is_directory(dir_ / "sub"));
  EXPECT_EQ(Listing(), std::vector<std::string>{"sub"});
}

TEST_F(AtomicFileTest, UnwritableDirectoryIsReported) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root bypasses directory permissions";
  fs::create_directory(dir_ / "locked");
  fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
  const std::string path = (dir_ / "locked" / "trace.json").string();
  const Status status = WriteText(path, "x");
  fs::permissions(dir_ / "locked", fs::perms::owner_all);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot write '" + path + "': directory '" +
                                  (dir_ / "locked").string() + "': Permission denied");
}

TEST_F(AtomicFileTest, ReadOnlyProcFilesystemIsReported) {
  // A directory nobody can create files in, even root: /proc refuses new entries.
  const Status status = WriteText("/proc/rblnsim_atomic_file_test.json", "x");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/proc/rblnsim_atomic_file_test.json"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::trace
