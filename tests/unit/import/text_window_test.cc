// The sliding window the importer reads through: offsets stay those of the whole text, only the
// text from |keep_from| on survives a refill, padding is readable and zeroed, and a gzip source
// inflates on demand with its damage reported as an error.
#include "profiler/trace/import/text_window.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <memory>
#include <string>

#include "profiler/trace/import/text_source.h"
#include "tests/unit/import/gzip_text.h"

namespace rblnsim::trace::import {
namespace {

std::string Digits(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i)
    s.push_back(static_cast<char>('0' + i % 10));
  return s;
}

TEST(TextWindowTest, SlidesAndKeepsOffsetsOfTheWholeText) {
  const std::string text = Digits(100);
  TextWindow window(TextSourceFromMemory(text), 16);
  ASSERT_TRUE(window.Extend(0).ok());
  EXPECT_EQ(window.begin(), 0u);
  EXPECT_EQ(window.end(), 16u);
  EXPECT_FALSE(window.at_eof());

  // Keep from 10: bytes 10.. stay, 16 more are read after them.
  ASSERT_TRUE(window.Extend(10).ok());
  EXPECT_EQ(window.begin(), 10u);
  EXPECT_EQ(window.end(), 32u);
  EXPECT_EQ(window.view(), text.substr(10, 22));

  // Asking for more than a chunk reads that much.
  ASSERT_TRUE(window.Extend(30, 50).ok());
  EXPECT_EQ(window.begin(), 30u);
  EXPECT_EQ(window.end(), 82u);
  EXPECT_EQ(window.view(), text.substr(30, 52));

  while (!window.at_eof())
    ASSERT_TRUE(window.Extend(window.end()).ok());
  EXPECT_EQ(window.end(), text.size());
  EXPECT_EQ(window.view(), "89");  // the last refill found 2 bytes and the end
}

TEST(TextWindowTest, KeepingEverythingGrowsTheWindow) {
  const std::string text = Digits(1000);
  TextWindow window(TextSourceFromMemory(text), 7);
  while (!window.at_eof())
    ASSERT_TRUE(window.Extend(0).ok());
  EXPECT_EQ(window.begin(), 0u);
  EXPECT_EQ(window.view(), text);
}

TEST(TextWindowTest, ASourceOfKnownSizeGetsNoLargerWindow) {
  // A chunk of 8 MiB over a text of 100 bytes: the window holds the text, one byte to see its
  // end, and simdjson's padding; not the chunk.
  const std::string text = Digits(100);
  TextWindow window(TextSourceFromMemory(text), size_t{8} << 20);
  ASSERT_TRUE(window.Extend(0).ok());
  EXPECT_TRUE(window.at_eof());
  EXPECT_EQ(window.view(), text);
  EXPECT_LE(window.readable(), text.size() + 1 + simdjson::SIMDJSON_PADDING);
  // Asking for more than is left still gets what was asked for.
  TextWindow asked(TextSourceFromMemory(text), 16);
  ASSERT_TRUE(asked.Extend(0, 4096).ok());
  EXPECT_EQ(asked.view(), text);
  EXPECT_GE(asked.readable(), 4096u);
}

TEST(TextWindowTest, PaddingIsReadableAndZero) {
  TextWindow window(TextSourceFromMemory("[1,2,3]"), 4096);
  ASSERT_TRUE(window.Extend(0).ok());
  EXPECT_TRUE(window.at_eof());
  ASSERT_EQ(window.size(), 7u);
  ASSERT_GE(window.readable(), window.size() + simdjson::SIMDJSON_PADDING);
  for (size_t i = window.size(); i < window.size() + simdjson::SIMDJSON_PADDING; ++i)
    EXPECT_EQ(window.data()[i], '\0') << i;
}

std::string Gzip(const std::string& text) {
  return rblnsim::testing::GzipText(text);
}

class GzipWindowTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& bytes) {
    path_ = ::testing::TempDir() + "/text_window_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".gz";
    FILE* f = std::fopen(path_.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    return path_;
  }
  void TearDown() override { std::remove(path_.c_str()); }
  // A window over the first half of a gzip file: damaged, its source ends in an error.
  std::unique_ptr<TextWindow> HalfAGzipFile() {
    const std::string gz = Gzip(Digits(300000));
    auto source = OpenTextSource(Write(gz.substr(0, gz.size() / 2)));
    EXPECT_TRUE(source.ok());
    return source.ok() ? std::make_unique<TextWindow>(std::move(*source), 4096) : nullptr;
  }
  std::string path_;
};

TEST_F(GzipWindowTest, InflatesPieceByPieceAcrossMembers) {
  const std::string text = Digits(300000);
  auto source = OpenTextSource(Write(Gzip(text.substr(0, 1000)) + Gzip(text.substr(1000))));
  ASSERT_TRUE(source.ok()) << source.status().message();
  TextWindow window(std::move(*source), 4096);
  EXPECT_TRUE(window.was_gzip());
  std::string seen;
  while (!window.at_eof()) {
    ASSERT_TRUE(window.Extend(window.end()).ok());
    EXPECT_LE(window.size(), 4096u);  // never the whole text
    seen.append(window.view());
  }
  EXPECT_EQ(seen, text);
}

TEST_F(GzipWindowTest, DamageIsAnErrorWithACompressedOffset) {
  const std::unique_ptr<TextWindow> damaged = HalfAGzipFile();
  ASSERT_NE(damaged, nullptr);
  TextWindow& window = *damaged;
  Status status = window.Drain();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("byte ", 0), 0u) << status.message();
  EXPECT_NE(status.message().find("truncated gzip stream"), std::string::npos);
}

TEST_F(GzipWindowTest, AfterAFailedRefillDrainLeavesTheErrorToTheReader) {
  const std::unique_ptr<TextWindow> damaged = HalfAGzipFile();
  ASSERT_NE(damaged, nullptr);
  TextWindow& window = *damaged;
  Status status;
  while (status.ok() && !window.at_eof())
    status = window.Extend(window.end());
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("truncated gzip stream"), std::string::npos);
  EXPECT_TRUE(window.Drain().ok());
}

// Reading ahead keeps the text from |keep_from| on like Extend, but a source's failure waits: the
// bytes read before it are in the window, and the next Extend (once the reader needs more) or
// Drain reports it, as reading on demand would have.
TEST(TextWindowTest, ReadAheadKeepsTextLikeExtend) {
  const std::string text = Digits(100);
  TextWindow window(TextSourceFromMemory(text), 16);
  ASSERT_TRUE(window.Extend(0).ok());
  EXPECT_TRUE(window.ReadAhead(10, 40));
  EXPECT_EQ(window.begin(), 10u);
  EXPECT_EQ(window.end(), 56u);
  EXPECT_EQ(window.view(), text.substr(10, 46));
  while (window.ReadAhead(window.begin(), 16)) {
  }
  EXPECT_TRUE(window.at_eof());
  EXPECT_EQ(window.view(), text.substr(10));
  EXPECT_FALSE(window.ReadAhead(10, 16));  // nothing more to read
}

TEST_F(GzipWindowTest, ReadAheadLeavesTheSourcesErrorToTheNextExtend) {
  const std::unique_ptr<TextWindow> damaged = HalfAGzipFile();
  ASSERT_NE(damaged, nullptr);
  TextWindow& window = *damaged;
  while (window.ReadAhead(0, 4096)) {
  }
  const std::string read = std::string(window.view());
  EXPECT_GT(read.size(), 4096u);
  EXPECT_EQ(read, Digits(read.size()));
  for (size_t i = window.size(); i < window.size() + simdjson::SIMDJSON_PADDING; ++i)
    ASSERT_EQ(window.data()[i], '\0') << i;
  // The reader uses what was read, then asks for more: now it gets the error.
  const Status status = window.Extend(0);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("truncated gzip stream"), std::string::npos);
  EXPECT_EQ(window.view(), read);
  EXPECT_TRUE(window.Drain().ok());  // reported once
}

TEST_F(GzipWindowTest, ADrainAfterReadingAheadReportsTheWaitingError) {
  const std::unique_ptr<TextWindow> damaged = HalfAGzipFile();
  ASSERT_NE(damaged, nullptr);
  TextWindow& window = *damaged;
  while (window.ReadAhead(0, 4096)) {
  }
  const Status status = window.Drain();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("truncated gzip stream"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::trace::import
