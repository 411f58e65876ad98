// The second importer thread (event_prefetch.h) reads stretches of one-event-per-line text
// ahead; the importer takes an event from it only where its own walk starts an element. Whatever
// the layout or the damage, two threads must give what one gives, byte for byte and error for
// error, and on a Kineto-shaped file most events must indeed come from the second thread.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/import/gzip_text.h"
#include "tests/unit/import/import_fingerprint.h"
#include "tests/unit/import/kineto_json_builder.h"
#include "tests/unit/replace_first.h"

namespace rblnsim::trace {
namespace {

// Small refills, so that a trace of a few hundred kB spans many windows and stretches.
constexpr size_t kChunkSizes[] = {4096, 16384, 100000};

StatusOr<ImportResult> Import(const std::string& json,
                              int threads,
                              size_t chunk,
                              std::optional<std::vector<std::string>> keep_args = std::nullopt) {
  ImportOptions options;
  options.threads = threads;
  options.window_chunk_bytes = chunk;
  options.keep_args = std::move(keep_args);
  return ImportChromeTraceFromBuffer(json, "t.json", options);
}

// Host ops with shapes, a launch marker, device slices and flows: a few thousand lines.
std::string LargeTrace() {
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  for (int i = 0; i < 2000; ++i) {
    const std::string n = std::to_string(i);
    b.Complete("cpu_op", "aten::mm" + std::string(i % 7 == 0 ? "_with_a_long_name" : ""), 4321,
               4321, 200'000 + i * 30, 20,
               "\"External id\": " + n +
                   ", \"Input Dims\": [[64, 64], [64, 64]], "
                   "\"Input type\": [\"c10::Half\", \"c10::H\\u0061lf\"], \"launch_id\": " +
                   n);
    b.Complete("kernel", "i" + n + "_0_W0_mm_0", 0, 7, 200'010 + i * 30, 5,
               "\"launch_id\": " + n + ", \"correlation\": " + n);
  }
  return b.Build();
}

TEST(ImportThreadsTest, TwoThreadsReadAheadAndGiveTheSameImport) {
  const std::string json = LargeTrace();
  for (size_t chunk : kChunkSizes) {
    const auto one = Import(json, 1, chunk);
    const auto two = Import(json, 2, chunk);
    ASSERT_TRUE(one.ok()) << one.status().message();
    ASSERT_TRUE(two.ok()) << two.status().message();
    EXPECT_EQ(testing::ImportFingerprint(two), testing::ImportFingerprint(one))
        << "chunk " << chunk;
    EXPECT_EQ(one->events_read_ahead, 0);
    // Half the text is handed ahead; the stretch's first event is the walk's, and refills cut
    // stretches short, so a third of the events is a safe floor.
    EXPECT_GT(two->events_read_ahead, two->events_read / 3) << "chunk " << chunk;
    const std::vector<std::string> keep = {"launch_id"};
    EXPECT_EQ(testing::ImportFingerprint(Import(json, 2, chunk, keep)),
              testing::ImportFingerprint(Import(json, 1, chunk, keep)));
  }
}

// A trace smaller than a share and a stretch of the window never starts the second thread.
TEST(ImportThreadsTest, ASmallTraceIsReadOnOneThread) {
  const std::string json = LargeTrace();
  ImportOptions options;
  options.threads = 2;
  ASSERT_LT(json.size(), options.window_chunk_bytes / 2);
  const auto r = ImportChromeTraceFromBuffer(json, "t.json", options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->events_read_ahead, 0);
}

// Damage inside what the second thread reads ahead: a type error, a line holding two events, an
// event spread over two lines, a line that is not an element (an '{' inside a pretty-printed
// value), a duplicate key, and text cut short. Each is read, or refused, as with one thread.
TEST(ImportThreadsTest, DamageAheadIsReportedAsWithOneThread) {
  const std::string json = LargeTrace();
  const std::string late = "\"External id\": 1500,";
  const std::vector<std::string> texts = {
      testing::ReplaceFirst(json, late, "\"External id\": [1500,"),
      testing::ReplaceFirst(json, late, "\"External id\": 1500, \"External id\": 7,"),
      testing::ReplaceFirst(json, "},\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"i1200_",
                            "}, {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"i1200_"),
      testing::ReplaceFirst(
          json,
          "\"Input Dims\": [[64, 64], [64, 64]], \"Input type\": [\"c10::Half\", "
          "\"c10::H\\u0061lf\"], \"launch_id\": 1300",
          "\"Input Dims\": [[64, 64], [64, 64]],\n \"Input type\": [\"c10::Half\", "
          "\"c10::H\\u0061lf\"], \"launch_id\": 1300"),
      testing::ReplaceFirst(json, "\"launch_id\": 1400,", "\"launch_id\": \n{\"ph\": \"X\"},"),
      json.substr(0, json.size() * 3 / 4),
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    for (size_t chunk : kChunkSizes) {
      EXPECT_EQ(testing::ImportFingerprint(Import(texts[i], 2, chunk)),
                testing::ImportFingerprint(Import(texts[i], 1, chunk)))
          << "case " << i << ", chunk " << chunk;
    }
  }
}

// A damaged gzip file: the second thread's stretches make the window read ahead, into the
// damage, long before the walk gets there. The error must still be the source's, reported where
// the walk meets it, as with one thread.
TEST(ImportThreadsTest, GzipDamageAheadIsReportedAsWithOneThread) {
  const std::string gz = testing::GzipText(LargeTrace());
  const std::string path = ::testing::TempDir() + "/import_threads_damaged.json.gz";
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(gz.data(), 1, gz.size() * 3 / 4, f);
    std::fclose(f);
  }
  for (size_t chunk : kChunkSizes) {
    ImportOptions options;
    options.window_chunk_bytes = chunk;
    options.threads = 1;
    const auto one = ImportChromeTrace(path, options);
    options.threads = 2;
    const auto two = ImportChromeTrace(path, options);
    ASSERT_FALSE(one.ok());
    EXPECT_NE(one.status().message().find("gzip"), std::string::npos) << one.status().message();
    EXPECT_EQ(testing::ImportFingerprint(two), testing::ImportFingerprint(one)) << chunk;
  }
  std::remove(path.c_str());
}

// Pretty-printed: no line is a whole event, so nothing is taken from the second thread, which
// soon stops being asked.
TEST(ImportThreadsTest, APrettyPrintedFileIsReadByTheWalkAlone) {
  std::string json = LargeTrace();
  for (size_t at = json.find(", \""); at != std::string::npos; at = json.find(", \"", at + 4))
    json.replace(at, 2, ",\n    ");
  const auto one = Import(json, 1, 16384);
  const auto two = Import(json, 2, 16384);
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(testing::ImportFingerprint(two), testing::ImportFingerprint(one));
  EXPECT_EQ(two->events_read_ahead, 0);
}

}  // namespace
}  // namespace rblnsim::trace
