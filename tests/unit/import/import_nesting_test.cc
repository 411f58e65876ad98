// The one nesting limit (kMaxJsonDepth levels per event or top-level value) holds on every path:
// Kineto's layout (displayTimeUnit first, one event per line, read without the structural scan),
// other layouts (traceEvents before displayTimeUnit, a bare array, one line), plain and gzip.
// Past the limit the import is one error line naming the first bracket too deep, however deep
// the input goes; at the limit it imports, and survives a write and a second import.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/json_writer.h"
#include "tests/unit/import/error_line.h"
#include "tests/unit/import/gzip_text.h"
#include "tests/unit/import/temp_dir_test.h"

namespace rblnsim::trace {
namespace {

constexpr int64_t kLimit = 1024;

enum class Layout {
  kKineto,         // displayTimeUnit before traceEvents, one event per line
  kUnitLast,       // displayTimeUnit after traceEvents, whole document on one line
  kBareArray,      // [event, event]
  kPrettyPrinted,  // members of each event on their own lines
};

// An event whose "args" holds |arrays| nested arrays: the event is level 1, args level 2, so the
// innermost array is level |arrays| + 2.
std::string DeepEvent(int64_t arrays, bool pretty) {
  const std::string sep = pretty ? "\n    " : " ";
  return "{\"ph\": \"X\"," + sep + "\"cat\": \"kernel\"," + sep + "\"name\": \"deep\"," + sep +
         "\"pid\": 0," + sep + "\"tid\": 7," + sep + "\"ts\": 1.000," + sep + "\"dur\": 2.000," +
         sep + "\"args\": {\"deep\": " + std::string(arrays, '[') + std::string(arrays, ']') + "}}";
}

std::string NestedTrace(Layout layout, int64_t arrays) {
  const std::string plain =
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
      "\"ts\": 5.000, \"dur\": 1.000}";
  switch (layout) {
    case Layout::kKineto:
      return "{\n  \"schemaVersion\": 1,\n  \"displayTimeUnit\": \"ms\",\n"
             "  \"baseTimeNanoseconds\": 1000000000,\n  \"traceEvents\": [\n  " +
             plain + ",\n  " + DeepEvent(arrays, false) + ",\n  " + plain +
             "\n  ],\n  \"traceName\": \"deep.json\"\n}\n";
    case Layout::kUnitLast:
      return "{\"traceEvents\": [" + plain + ", " + DeepEvent(arrays, false) + ", " + plain +
             "], \"displayTimeUnit\": \"ms\"}";
    case Layout::kBareArray:
      return "[" + plain + ",\n" + DeepEvent(arrays, false) + "\n]";
    case Layout::kPrettyPrinted:
      return "{\n  \"traceEvents\": [\n  " + DeepEvent(arrays, true) + "\n  ]\n}\n";
  }
  return "";
}

// Where the first bracket past the limit sits in NestedTrace(layout, arrays).
uint64_t FirstTooDeep(const std::string& json) {
  const size_t deep = json.find("\"deep\": ") + 8;
  return deep + (kLimit - 2);  // levels 1 and 2 are the event and its args
}

const Layout kLayouts[] = {Layout::kKineto, Layout::kUnitLast, Layout::kBareArray,
                           Layout::kPrettyPrinted};

class ImportNestingTest : public TempDirTest {
 protected:
  // Imports |json| from memory, from a file and from a gzip file, in a large and a tiny window;
  // every way must fail with the nesting error at |offset|.
  void ExpectTooDeep(const std::string& json, uint64_t offset) {
    const std::string plain_path = Write("deep.json", json);
    const std::string gz_path = Write("deep.json.gz", testing::GzipText(json));
    for (size_t chunk : {size_t{8} << 20, size_t{4096}}) {
      ImportOptions options;
      options.window_chunk_bytes = chunk;
      const std::pair<std::string, StatusOr<ImportResult>> runs[] = {
          {"mem.json", ImportChromeTraceFromBuffer(json, "mem.json", options)},
          {plain_path, ImportChromeTrace(plain_path, options)},
          {gz_path, ImportChromeTrace(gz_path, options)},
      };
      for (const auto& [name, result] : runs) {
        ASSERT_FALSE(result.ok()) << name;
        EXPECT_EQ(result.status().message(), name + ": byte " + std::to_string(offset) +
                                                 ": JSON nesting deeper than 1024 levels")
            << "chunk " << chunk;
      }
    }
  }
};

TEST_F(ImportNestingTest, OneLevelPastTheLimitIsAnErrorInEveryLayout) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(static_cast<int>(layout));
    const std::string json = NestedTrace(layout, kLimit - 1);  // innermost at level 1025
    ExpectTooDeep(json, FirstTooDeep(json));
  }
}

TEST_F(ImportNestingTest, TensOfThousandsOfLevelsAreAnErrorNotACrash) {
  for (int64_t arrays : {int64_t{25000}, int64_t{100000}}) {
    for (Layout layout : kLayouts) {
      SCOPED_TRACE(std::to_string(arrays) + " arrays, layout " +
                   std::to_string(static_cast<int>(layout)));
      const std::string json = NestedTrace(layout, arrays);
      ExpectTooDeep(json, FirstTooDeep(json));
    }
  }
}

TEST_F(ImportNestingTest, DeepObjectsOutsideArgsToo) {
  // Nested objects under a key the model ignores, in Kineto's layout.
  std::string deep;
  for (int i = 0; i < 30000; ++i)
    deep += "{\"a\":";
  deep += "1" + std::string(30000, '}');
  const std::string json =
      "{\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [\n  {\"ph\": \"i\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 1.000, \"extra\": " +
      deep + "}\n  ]\n}\n";
  // Level 1 is the event: the extra object's brackets are levels 2, 3, ...
  const size_t extra = json.find("\"extra\": ") + 9;
  ExpectTooDeep(json, extra + 5 * (kLimit - 1));
}

TEST_F(ImportNestingTest, TopLevelMembersHaveTheSameLimit) {
  const std::string member =
      "\"distributedInfo\": " + std::string(kLimit + 1, '[') + std::string(kLimit + 1, ']') + ",\n";
  const std::string json =
      "{\n  \"displayTimeUnit\": \"ms\",\n  " + member + "  \"traceEvents\": []\n}\n";
  ExpectTooDeep(json, json.find('[') + kLimit);
  // At the limit the member is kept, verbatim.
  const std::string ok = "{\"distributedInfo\": " + std::string(kLimit, '[') +
                         std::string(kLimit, ']') + ", \"traceEvents\": []}";
  auto r = ImportChromeTraceFromBuffer(ok, "ok.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->trace.metadata.size(), 1u);
  EXPECT_EQ(r->trace.metadata[0].second.text.size(), 2 * static_cast<size_t>(kLimit));
}

TEST_F(ImportNestingTest, AtTheLimitImportsAndSurvivesARewrite) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(static_cast<int>(layout));
    const std::string json = NestedTrace(layout, kLimit - 2);  // innermost at level 1024
    auto r = ImportChromeTrace(Write("ok.json.gz", testing::GzipText(json)));
    ASSERT_TRUE(r.ok()) << r.status().message();
    const Event* deep = nullptr;
    for (const Event& e : r->trace.events) {
      if (e.name == "deep")
        deep = &e;
    }
    ASSERT_NE(deep, nullptr);
    ASSERT_EQ(deep->args.size(), 1u);
    const trace::ArgView arg = deep->args[0];
    const auto* raw = std::get_if<trace::RawJsonView>(&arg.value);
    ASSERT_NE(raw, nullptr);
    EXPECT_EQ(raw->text, std::string(kLimit - 2, '[') + std::string(kLimit - 2, ']'));
    // The writer puts the event at the same depth of its own document: it reads back.
    StringSink sink;
    ASSERT_TRUE(WriteChromeTrace(r->trace, sink).ok());
    auto again = ImportChromeTraceFromBuffer(sink.text(), "again.json");
    ASSERT_TRUE(again.ok()) << again.status().message();
    EXPECT_EQ(again->trace.events.size(), r->trace.events.size());
  }
}

}  // namespace
}  // namespace rblnsim::trace
