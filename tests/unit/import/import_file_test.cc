// Reading files: plain and gzip (by magic bytes, whatever the name), damaged gzip, and a round
// trip through the project's Chrome trace writer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/import/error_line.h"
#include "tests/unit/import/gzip_text.h"
#include "tests/unit/import/kineto_json_builder.h"
#include "tests/unit/import/temp_dir_test.h"

namespace rblnsim::trace {
namespace {

class ImportFileTest : public TempDirTest {
 protected:
  static std::string Gzip(const std::string& text, int level = 6) {
    return rblnsim::testing::GzipText(text, level);
  }
};

TEST_F(ImportFileTest, PlainAndGzipGiveTheSameTrace) {
  const std::string json = testing::ValidLaunchBuilder().Build();
  auto plain = ImportChromeTrace(Write("trace.json", json));
  // The name says .json; the magic bytes say gzip.
  auto gz = ImportChromeTrace(Write("trace.json", Gzip(json)));
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  ASSERT_TRUE(gz.ok()) << gz.status().message();
  EXPECT_FALSE(plain->was_gzip);
  EXPECT_TRUE(gz->was_gzip);
  EXPECT_EQ(gz->input_bytes, json.size());
  ASSERT_EQ(gz->trace.events.size(), plain->trace.events.size());
  for (size_t i = 0; i < plain->trace.events.size(); ++i) {
    EXPECT_EQ(gz->trace.events[i].name, plain->trace.events[i].name);
    EXPECT_EQ(gz->trace.events[i].ts_ns, plain->trace.events[i].ts_ns);
    EXPECT_EQ(gz->trace.events[i].flow_role, plain->trace.events[i].flow_role);
  }
}

TEST_F(ImportFileTest, LargeGzipAndSeveralMembers) {
  testing::KinetoJsonBuilder b;
  for (int i = 0; i < 20000; ++i) {
    b.Complete("kernel", "k" + std::to_string(i), 0, 7, int64_t{1000} * i, 500,
               "\"launch_id\": " + std::to_string(i));
  }
  const std::string json = b.Build();
  const std::string half = json.substr(0, json.size() / 2);
  // `cat a.gz b.gz` is a valid gzip file holding both texts.
  auto r = ImportChromeTrace(Write("multi.gz", Gzip(half, 1) + Gzip(json.substr(half.size()), 9)));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->complete_events, 20000);
  EXPECT_EQ(r->trace.events.back().name, "k19999");
}

TEST_F(ImportFileTest, DamagedGzipIsAnErrorLine) {
  const std::string gz = Gzip(testing::ValidLaunchBuilder().Build());
  // One error line naming the file and a byte offset.
  auto shaped = [](const StatusOr<ImportResult>& r, const std::string& path) {
    return !r.ok() && testing::ErrorLineOffset(r.status().message(), path) >= 0;
  };

  const std::string t_gz = Write("t.gz", gz.substr(0, gz.size() / 2));
  auto truncated = ImportChromeTrace(t_gz);
  ASSERT_TRUE(shaped(truncated, t_gz)) << truncated.status().message();
  EXPECT_NE(truncated.status().message().find("truncated gzip"), std::string::npos);

  std::string corrupt = gz;
  for (size_t i = 20; i < 60 && i < corrupt.size(); ++i)
    corrupt[i] ^= 0x5a;
  const std::string c_gz = Write("c.gz", corrupt);
  auto bad = ImportChromeTrace(c_gz);
  ASSERT_TRUE(shaped(bad, c_gz)) << bad.status().message();
  EXPECT_NE(bad.status().message().find("gzip"), std::string::npos);

  const std::string g_gz = Write("g.gz", gz + "garbage!");
  auto trailing = ImportChromeTrace(g_gz);
  EXPECT_TRUE(shaped(trailing, g_gz)) << trailing.status().message();

  const std::string m_gz = Write("m.gz", "\x1f\x8b");
  auto only_magic = ImportChromeTrace(m_gz);
  EXPECT_TRUE(shaped(only_magic, m_gz)) << only_magic.status().message();
}

TEST_F(ImportFileTest, MissingFileAndEmptyFile) {
  auto missing = ImportChromeTrace((dir_ / "nope.json").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot open"), std::string::npos);
  auto empty = ImportChromeTrace(Write("empty.json", ""));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(), (dir_ / "empty.json").string() + ": byte 0: empty input");
}

TEST_F(ImportFileTest, RoundTripThroughTheWriter) {
  auto first = ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "a.json");
  ASSERT_TRUE(first.ok()) << first.status().message();
  StringSink sink;
  ASSERT_TRUE(WriteChromeTrace(first->trace, sink).ok());
  auto second = ImportChromeTraceFromBuffer(sink.text(), "b.json");
  ASSERT_TRUE(second.ok()) << second.status().message();
  const Trace& a = first->trace;
  const Trace& b = second->trace;
  EXPECT_EQ(b.base_time_ns, a.base_time_ns);
  EXPECT_EQ(b.capture_start_ns, a.capture_start_ns);
  EXPECT_EQ(b.capture_end_ns, a.capture_end_ns);
  ASSERT_EQ(b.events.size(), a.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    EXPECT_EQ(b.events[i].name, a.events[i].name);
    EXPECT_EQ(b.events[i].cat(), a.events[i].cat());
    EXPECT_EQ(b.events[i].ts_ns, a.events[i].ts_ns);
    EXPECT_EQ(b.events[i].dur_ns, a.events[i].dur_ns);
    EXPECT_EQ(b.events[i].args, a.events[i].args);
    EXPECT_EQ(b.events[i].flow_id, a.events[i].flow_id);
    EXPECT_EQ(b.events[i].flow_role, a.events[i].flow_role);
  }
  EXPECT_EQ(second->orphan_flow_events, 0);
  EXPECT_EQ(b.processes.size(), a.processes.size());
  EXPECT_EQ(b.threads.size(), a.threads.size());
}

}  // namespace
}  // namespace rblnsim::trace
