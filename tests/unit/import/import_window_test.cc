// The importer reads through a sliding window (text_window.h). Whatever the refill size, the
// result must be the one a whole-file read gives: events, strings with escaped quotes and
// brackets, and errors falling across refills, gzip included; and ImportOptions::keep_args drops
// args without dropping their validation.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/json_writer.h"
#include "tests/unit/import/error_line.h"
#include "tests/unit/import/gzip_text.h"
#include "tests/unit/import/import_fingerprint.h"
#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::trace {
namespace {

constexpr size_t kWindowChunkSizes[] = {1, 2, 3, 5, 7, 13, 64, 1000};

StatusOr<ImportResult> ImportInChunks(const std::string& json, size_t chunk_bytes) {
  ImportOptions options;
  options.window_chunk_bytes = chunk_bytes;
  return ImportChromeTraceFromBuffer(json, "t.json", options);
}

// A launch plus events whose strings hold escaped quotes, backslashes and brackets, and args with
// nested containers: what a structural scanner cut at the wrong place would get wrong.
std::string TrickyTrace() {
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  for (int i = 0; i < 30; ++i) {
    const std::string n = std::to_string(i);
    b.Complete("cpu_op", "q\\\"}]{[" + n + "\\\\", 4321, 4321, 200'000 + i * 1000, 500,
               "\"s\": \"\\\\\\\"]}\", \"nested\": {\"a\": [1, {\"b\": \"}\"}], \"c\": null}, "
               "\"launch_id\": " +
                   n);
    b.Complete("user_annotation", "plain " + n, 4321, 4321, 200'100 + i * 1000, 100);
  }
  b.Flow('s', 77, 4321, 9, 5);  // anchored nowhere: an orphan with a byte offset
  // Escaped keys are the same keys: "n\u0061me" is "name".
  b.Add(
      "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"n\\u0061me\": \"escaped keys\", \"pid\": 4321, "
      "\"tid\": 4321, \"ts\": 400.000, \"dur\": 1.000, \"args\": {\"k\\\"ey\": 1, "
      "\"launch\\u005fid\": 9}}");
  return b.Build();
}

TEST(ImportWindowTest, EveryRefillSizeGivesTheSameImport) {
  const std::string json = TrickyTrace();
  const std::string whole = testing::ImportFingerprint(ImportChromeTraceFromBuffer(json, "t.json"));
  ASSERT_EQ(whole.rfind("error", 0), std::string::npos) << whole;
  ASSERT_NE(whole.find("q\\\"}]{[29\\\\"), std::string::npos);  // the name survived intact
  auto r = ImportChromeTraceFromBuffer(json, "t.json");
  const Event& escaped = r->trace.events.back();
  EXPECT_EQ(escaped.name, "escaped keys");
  EXPECT_EQ(escaped.IntArg("launch_id"), 9);
  ASSERT_EQ(escaped.args.size(), 2u);
  EXPECT_EQ(escaped.args[0].key, "k\"ey");
  for (size_t chunk : kWindowChunkSizes) {
    EXPECT_EQ(testing::ImportFingerprint(ImportInChunks(json, chunk)), whole) << "chunk " << chunk;
  }
}

TEST(ImportWindowTest, ErrorsPastTheFirstRefillNameTheSameOffset) {
  const std::string json = TrickyTrace();
  // A type error inside an event, a bracket mismatch, and text cut short.
  const std::string marker = "\"name\": \"plain 20\"";
  const size_t at = json.find(marker);
  ASSERT_NE(at, std::string::npos);
  std::string type_error = json;
  type_error.replace(at, marker.size(), "\"name\": [\"plain 20\"]");
  std::string mismatch = json;
  mismatch.replace(at, marker.size(), "\"name\": \"plain 20\"]");
  const std::string cut = json.substr(0, json.size() - 200);

  const std::string cases[] = {type_error, mismatch, cut};
  for (const std::string& text : cases) {
    const std::string* bad = &text;
    const auto whole = ImportChromeTraceFromBuffer(*bad, "t.json");
    ASSERT_FALSE(whole.ok());
    const int64_t offset = testing::ErrorLineOffset(whole.status().message(), "t.json");
    ASSERT_GT(offset, 1000) << whole.status().message();
    for (size_t chunk : kWindowChunkSizes) {
      const auto r = ImportInChunks(*bad, chunk);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().message(), whole.status().message()) << "chunk " << chunk;
    }
  }
  // The offset is where the damage is, not where a refill started.
  const auto r = ImportInChunks(type_error, 7);
  EXPECT_EQ(testing::ErrorLineOffset(r.status().message(), "t.json"),
            static_cast<int64_t>(at + std::string("\"name\": ").size()));
}

// With newlines the importer guesses that an event ends at its line's end and reads it without
// the structural scan; without newlines (same offsets: spaces instead) it never guesses. The
// result, and every error, must not depend on the guess: on valid input, with several events on
// one line, an event spread over lines, CRLF endings, or damage right at a line's end.
TEST(ImportWindowTest, GuessingEventEndsAtLineEndsNeverChangesTheResult) {
  const std::string json = TrickyTrace();
  auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
    return s;
  };
  const std::string marker = "\"name\": \"plain 20\"";
  std::vector<std::string> texts = {
      json,
      replace_all(json, "},\n  {", "}, {"),                            // two events per line
      replace_all(json, ", \"pid\"", ",\n \"pid\""),                   // events over two lines
      replace_all(json, "\n", "\r\n"),                                 // CRLF
      replace_all(json, "\n  ],", "],"),                               // the array closes on a line
      replace_all(json, marker, "\"name\": \"plain 20\"}"),            // '}}' at a line's end
      replace_all(json, marker, "\"name\": [\"plain 20\"]"),           // a type error
      replace_all(json, marker, "\"name\": \"plain 20\", \"ph\": 5"),  // the last field is bad
      json.substr(0, json.size() / 2),                                 // cut in the middle
  };
  for (const std::string& text : texts) {
    std::string no_lines = replace_all(text, "\n", " ");
    for (size_t chunk : {size_t{7}, size_t{64}, size_t{8} << 20}) {
      EXPECT_EQ(testing::ImportFingerprint(ImportInChunks(text, chunk)),
                testing::ImportFingerprint(ImportInChunks(no_lines, chunk)))
          << "chunk " << chunk << "\n"
          << text.substr(0, 300);
    }
  }
}

TEST(ImportWindowTest, DeferredTraceEventsAreReadOnceTheUnitIsKnown) {
  // displayTimeUnit after traceEvents: the events wait in the window until the unit is read.
  const std::string json =
      "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 1000, \"dur\": 5}], \"traceName\": \"x\", \"displayTimeUnit\": \"ns\"}";
  const std::string whole = testing::ImportFingerprint(ImportChromeTraceFromBuffer(json, "t.json"));
  auto r = ImportInChunks(json, 3);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->trace.events.at(0).ts_ns, 1000);  // ns, not µs
  EXPECT_EQ(testing::ImportFingerprint(r), whole);
}

TEST(ImportWindowTest, GzipInTinyRefills) {
  const std::string json = TrickyTrace();
  const std::string gz = rblnsim::testing::GzipText(json);
  const std::string path = ::testing::TempDir() + "/import_window_gzip.json";
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(gz.data(), 1, gz.size(), f);
  std::fclose(f);

  const std::string whole = testing::ImportFingerprint(ImportChromeTraceFromBuffer(json, "t.json"));
  for (size_t chunk : {size_t{1}, size_t{13}, size_t{4096}}) {
    ImportOptions options;
    options.window_chunk_bytes = chunk;
    auto r = ImportChromeTrace(path, options);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->was_gzip);
    EXPECT_EQ(r->input_bytes, json.size());
    r->was_gzip = false;  // the only difference from the plain text
    EXPECT_EQ(testing::ImportFingerprint(r), whole) << "chunk " << chunk;
  }
  std::remove(path.c_str());
}

TEST(ImportWindowTest, KeepArgsDropsArgsButStillValidatesThem) {
  ImportOptions options;
  options.keep_args = std::vector<std::string>{"launch_id"};
  auto r = ImportChromeTraceFromBuffer(TrickyTrace(), "t.json", options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto all = ImportChromeTraceFromBuffer(TrickyTrace(), "t.json");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(r->trace.events.size(), all->trace.events.size());
  for (size_t i = 0; i < r->trace.events.size(); ++i) {
    const Event& e = r->trace.events[i];
    for (const trace::ArgView arg : e.args)
      EXPECT_EQ(arg.key, "launch_id");
    EXPECT_EQ(e.IntArg("launch_id"), all->trace.events[i].IntArg("launch_id"));
    EXPECT_EQ(e.name, all->trace.events[i].name);
  }
  // Metadata events still read their own args.
  ASSERT_NE(r->trace.FindProcess(testing::ValidLaunch::kDevicePid), nullptr);
  EXPECT_EQ(r->trace.FindProcess(testing::ValidLaunch::kDevicePid)->name, "RBLN");
  EXPECT_EQ(FormatImportSummary(*r), FormatImportSummary(*all));

  // An invalid value in a dropped arg is still the same error; a valid one is still fine.
  for (const char* value :
       {"[1, tru]", "01", "-", "1.", "--1", "123456789012345678901234", "-0", "1e5", "0"}) {
    testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
    b.Complete("cpu_op", "x", 4321, 4321, 300'000, 10, std::string("\"junk\": ") + value);
    const auto bad_all = ImportChromeTraceFromBuffer(b.Build(), "t.json");
    const auto bad_kept = ImportChromeTraceFromBuffer(b.Build(), "t.json", options);
    EXPECT_EQ(bad_kept.ok(), bad_all.ok()) << value;
    EXPECT_EQ(bad_kept.status().message(), bad_all.status().message()) << value;
  }
}

}  // namespace
}  // namespace rblnsim::trace
