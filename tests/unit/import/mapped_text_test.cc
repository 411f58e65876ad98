// A plain trace file is read in place (mapped_text.h): the import must be the one a read of the
// same text from memory gives, wherever the text ends against a page boundary (simdjson reads
// padding past the end); pages behind the reader must leave the process and still read the same
// when touched again; a file that cannot be mapped (a pipe) is still read.
#include "profiler/trace/import/mapped_text.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/text_source.h"
#include "profiler/trace/import/text_window.h"
#include "profiler/trace/import/top_level_reader.h"
#include "tests/unit/import/import_fingerprint.h"
#include "tests/unit/import/kineto_json_builder.h"
#include "tests/unit/import/temp_dir_test.h"

namespace rblnsim::trace {
namespace {

using import::MappedText;

class MappedTextTest : public TempDirTest {};

// Resident kB of the mapping that starts at |p|, from /proc/self/smaps; -1 if not found.
int64_t ResidentKbAt(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  std::ostringstream start;
  start << std::hex << reinterpret_cast<uintptr_t>(p) << "-";
  std::string line;
  bool in_range = false;
  while (std::getline(smaps, line)) {
    if (line.rfind(start.str(), 0) == 0) {
      in_range = true;
    } else if (in_range && line.rfind("Rss:", 0) == 0) {
      return std::stoll(line.substr(4));
    }
  }
  return -1;
}

TEST_F(MappedTextTest, TextEndingAroundAPageBoundaryImportsAsFromMemory) {
  const std::string base = testing::ValidLaunchBuilder().Build();
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  ASSERT_LT(base.size(), 3 * page);
  for (const size_t size :
       {3 * page - simdjson::SIMDJSON_PADDING, 3 * page - 1, 3 * page, 3 * page + 1, 4 * page}) {
    // Trailing whitespace moves the end of the text without changing the trace.
    const std::string json = base + std::string(size - base.size(), '\n');
    const std::string expected =
        testing::ImportFingerprint(ImportChromeTraceFromBuffer(json, "t.json"));
    ASSERT_EQ(expected.rfind("error", 0), std::string::npos) << expected;
    auto mapped = ImportChromeTrace(Write("t.json", json));
    EXPECT_EQ(testing::ImportFingerprint(mapped), expected) << size;
    // Unclosed, the text runs into the padding: the same error at the same byte.
    std::string cut = base.substr(0, base.rfind('}'));
    cut += std::string(size - cut.size(), ' ');
    const std::string cut_path = Write("cut.json", cut);
    auto cut_mapped = ImportChromeTrace(cut_path);
    auto cut_memory = ImportChromeTraceFromBuffer(cut, cut_path);
    ASSERT_FALSE(cut_mapped.ok());
    EXPECT_EQ(cut_mapped.status().message(), cut_memory.status().message());
    EXPECT_NE(cut_mapped.status().message().find("byte " + std::to_string(size)), std::string::npos)
        << cut_mapped.status().message();
  }
}

TEST_F(MappedTextTest, PaddingIsZeroAndPagesBehindTheReaderAreDropped) {
  const size_t size = 3 * MappedText::kStepBytes + 12345;
  std::string text(size, 'x');
  for (size_t i = 0; i < size; i += 4096)
    text[i] = static_cast<char>('a' + i / 4096 % 26);
  const std::string path = Write("big.txt", text);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto mapped = MappedText::Map(fd, size);
  ::close(fd);  // the mapping outlives the descriptor
  ASSERT_NE(mapped, nullptr);
  ASSERT_EQ(mapped->size(), size);
  ASSERT_GE(mapped->readable(), size + simdjson::SIMDJSON_PADDING);
  for (size_t i = size; i < mapped->readable(); ++i)
    ASSERT_EQ(mapped->data()[i], 0) << i;

  mapped->Advance(0, 0);
  uint64_t sum = 0;
  for (size_t i = 0; i < size; i += 4096)
    sum += static_cast<unsigned char>(mapped->data()[i]);
  const int64_t all_kb = ResidentKbAt(mapped->data());
  ASSERT_GE(all_kb, static_cast<int64_t>(size / 1024 - 4));

  // At the end, nothing but the step kept behind the reader stays.
  mapped->Advance(size, size);
  const int64_t left_kb = ResidentKbAt(mapped->data());
  EXPECT_LE(left_kb, static_cast<int64_t>(MappedText::kStepBytes / 1024 + 8)) << all_kb;
  // Dropped pages read the same again.
  uint64_t again = 0;
  for (size_t i = 0; i < size; i += 4096)
    again += static_cast<unsigned char>(mapped->data()[i]);
  EXPECT_EQ(again, sum);
  EXPECT_EQ(std::string(mapped->data(), size), text);
}

// Another process writing over the trace (truncate, then write) while it is read takes the file's
// pages away: reading one must not end the process.
TEST_F(MappedTextTest, PagesLostToATruncationReadAsZerosAndAreReported) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const std::string text(3 * page + 100, 'x');
  const std::string path = Write("shrinking.txt", text);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto mapped = MappedText::Map(fd, text.size());
  ::close(fd);
  ASSERT_NE(mapped, nullptr);
  EXPECT_EQ(mapped->data()[2 * page], 'x');
  EXPECT_FALSE(mapped->lost());
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(page)), 0);
  EXPECT_EQ(mapped->data()[page - 1], 'x');  // still the file's
  EXPECT_EQ(mapped->data()[2 * page + 5], 0);
  EXPECT_EQ(mapped->data()[3 * page + 50], 0);
  EXPECT_TRUE(mapped->lost());
}

TEST_F(MappedTextTest, AnImportOfAFileThatShrankSaysSo) {
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  for (int i = 0; i < 3000; ++i)
    b.Complete("cpu_op", "aten::add", 4321, 4321, 300'000 + i * 100, 50);
  const std::string json = b.Build();
  const std::string path = Write("shrinking.json", json);
  auto source = import::OpenTextSource(path);
  ASSERT_TRUE(source.ok());
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(json.size() / 2)), 0);
  import::TextWindow window(std::move(*source), ImportOptions().window_chunk_bytes);
  ImportResult result;
  const Status status = import::ReadChromeTrace(&window, ImportOptions(), &result);
  EXPECT_EQ(status.code(), StatusCode::kIoError);
  EXPECT_NE(status.message().find("shrank while it was being read"), std::string::npos)
      << status.message();
}

// The handler repairs only the pages of live mappings: any other SIGBUS still ends the process.
TEST_F(MappedTextTest, OtherBusErrorsStillEndTheProcess) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const std::string path = Write("other.txt", std::string(2 * page, 'y'));
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto ours = MappedText::Map(fd, 2 * page);  // installs the handler
  ASSERT_NE(ours, nullptr);
  void* other = ::mmap(nullptr, 2 * page, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  ASSERT_NE(other, MAP_FAILED);
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  EXPECT_EXIT(
      {
        volatile char c = static_cast<const char*>(other)[page];
        (void)c;
        std::exit(0);
      },
      [](int status) { return !(WIFEXITED(status) && WEXITSTATUS(status) == 0); }, "");
  ::munmap(other, 2 * page);
}

TEST_F(MappedTextTest, APipeIsReadAsBefore) {
  const std::string json = testing::ValidLaunchBuilder().Build();
  const std::string path = (dir_ / "pipe.json").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(path, std::ios::binary) << json; });
  auto piped = ImportChromeTrace(path);
  writer.join();
  EXPECT_EQ(testing::ImportFingerprint(piped),
            testing::ImportFingerprint(ImportChromeTraceFromBuffer(json, "t.json")));
}

}  // namespace
}  // namespace rblnsim::trace
