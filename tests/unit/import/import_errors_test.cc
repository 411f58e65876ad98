// Malformed input: every failure is one line "<path>: byte <offset>: <what>", and nothing crashes.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/import/error_line.h"
#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::trace {
namespace {

// Returns the byte offset named in the error, or -1 when the error has the wrong shape.
int64_t ErrorOffset(const std::string& json, const std::string& expect_substring = "") {
  auto result = ImportChromeTraceFromBuffer(json, "bad.json");
  EXPECT_FALSE(result.ok()) << json;
  if (result.ok())
    return -1;
  const std::string message = result.status().message();
  const int64_t offset = testing::ErrorLineOffset(message, "bad.json");
  EXPECT_GE(offset, 0) << message;
  if (!expect_substring.empty()) {
    EXPECT_NE(message.find(expect_substring), std::string::npos) << message;
  }
  return offset;
}

TEST(ImportErrorsTest, EmptyAndBlankInput) {
  EXPECT_EQ(ErrorOffset("", "empty input"), 0);
  EXPECT_EQ(ErrorOffset(" \n\t", "only whitespace"), 3);
}

TEST(ImportErrorsTest, NotJson) {
  EXPECT_EQ(ErrorOffset("hello world", "expected '{' or '['"), 0);
  EXPECT_EQ(ErrorOffset("  <html></html>", "expected '{' or '['"), 2);
  EXPECT_EQ(ErrorOffset("{traceEvents: []}", "expected a member name"), 1);
  EXPECT_EQ(ErrorOffset("{\"traceEvents\" []}", "expected ':'"), 15);
}

TEST(ImportErrorsTest, BinaryJunk) {
  std::string junk;
  for (int i = 0; i < 256; ++i)
    junk.push_back(static_cast<char>((i * 37 + 11) & 0xff));
  EXPECT_EQ(ErrorOffset(junk, "byte 0x0b"), 0);
  // Junk inside an otherwise valid event: simdjson rejects the invalid UTF-8.
  EXPECT_EQ(ErrorOffset("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"\xff\xfe\",\"ts\":1}]}",
                        "invalid JSON"),
            16);
}

TEST(ImportErrorsTest, TruncatedFile) {
  const std::string json = testing::ValidLaunchBuilder().Build();
  const std::string cut = json.substr(0, json.size() / 2);
  EXPECT_EQ(ErrorOffset(cut, "unexpected end of input"), static_cast<int64_t>(cut.size()));
}

TEST(ImportErrorsTest, WrongTypes) {
  const std::string events_5 = "{\"traceEvents\": 5}";
  EXPECT_EQ(ErrorOffset(events_5, "\"traceEvents\" must be an array, found a number"), 16);
  EXPECT_EQ(ErrorOffset("{\"traceEvents\": {}}", "found an object"), 16);
  const std::string ts_array = "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":[]}]}";
  EXPECT_EQ(ErrorOffset(ts_array, "\"ts\" must be a number, found an array"),
            static_cast<int64_t>(ts_array.find("[]")));
  const std::string pid_obj = "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":{},\"tid\":1,\"ts\":1}]}";
  EXPECT_EQ(ErrorOffset(pid_obj, "\"pid\" must be a number or a string"),
            static_cast<int64_t>(pid_obj.find("{}")));
  const std::string ph_num = "{\"traceEvents\":[{\"ph\":7}]}";
  EXPECT_EQ(ErrorOffset(ph_num, "\"ph\" must be a string"), 22);
  const std::string args_arr = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"args\":[1]}]}";
  EXPECT_EQ(ErrorOffset(args_arr, "\"args\" must be an object"),
            static_cast<int64_t>(args_arr.find("[1]")));
  const std::string ts_text = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":\"soon\"}]}";
  EXPECT_EQ(ErrorOffset(ts_text, "not a time in range: \"soon\""),
            static_cast<int64_t>(ts_text.find("\"soon\"")));
  EXPECT_GE(ErrorOffset("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1e400}]}", "not a time"), 0);
  EXPECT_GE(
      ErrorOffset("{\"baseTimeNanoseconds\": 1.5, \"traceEvents\":[]}", "baseTimeNanoseconds"), 0);
}

TEST(ImportErrorsTest, MissingTraceEvents) {
  EXPECT_EQ(ErrorOffset("{\"schemaVersion\": 1}", "no \"traceEvents\""), 0);
  EXPECT_EQ(ErrorOffset("  {}", "no \"traceEvents\""), 2);
}

TEST(ImportErrorsTest, EventNotAnObject) {
  const std::string json = "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1}, 42]}";
  EXPECT_EQ(ErrorOffset(json, "trace event is a number, not an object"),
            static_cast<int64_t>(json.find("42")));
  EXPECT_EQ(ErrorOffset("[[]]", "trace event is an array"), 1);
}

TEST(ImportErrorsTest, MissingRequiredEventFields) {
  EXPECT_EQ(ErrorOffset("[{\"name\":\"x\"}]", "no \"ph\""), 1);
  EXPECT_EQ(ErrorOffset("[{\"ph\":\"X\",\"pid\":1}]", "\"X\" event has no \"ts\""), 1);
}

TEST(ImportErrorsTest, StructureErrors) {
  EXPECT_EQ(ErrorOffset("[{\"ph\":\"M\"} {\"ph\":\"M\"}]", "expected ',' or ']'"), 12);
  EXPECT_EQ(ErrorOffset("[{\"ph\":\"M\"},]", "expected a value"), 12);
  EXPECT_EQ(ErrorOffset("[{\"ph\":\"M\"]]", "closes the value opened at byte 1"), 10);
  EXPECT_EQ(ErrorOffset("{\"traceEvents\":[]} x", "after the top-level value"), 19);
  EXPECT_EQ(ErrorOffset("{\"traceEvents\":[] \"a\":1}", "expected ',' or '}'"), 18);
  EXPECT_EQ(ErrorOffset("[{\"ph\":\"X\",\"ts\":1 2}]", "invalid JSON"), 18);  // at the '2'
  EXPECT_GE(ErrorOffset("{\"traceEvents\":[], \"host_name\": tru}", "invalid JSON"), 0);
  EXPECT_EQ(ErrorOffset(std::string(3000, '['), "JSON nesting deeper than 1024 levels"), 1025);
}

TEST(ImportErrorsTest, DuplicateKeysAtTheTopLevel) {
  const std::string events_twice = "{\"traceEvents\":[], \"traceEvents\":[]}";
  EXPECT_EQ(ErrorOffset(events_twice,
                        "duplicate key \"traceEvents\" at the top level (first at "
                        "byte 1)"),
            static_cast<int64_t>(events_twice.rfind("\"traceEvents\"")));
  const std::string unit_twice =
      "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[],\"displayTimeUnit\":\"ms\"}";
  EXPECT_EQ(ErrorOffset(unit_twice, "duplicate key \"displayTimeUnit\""),
            static_cast<int64_t>(unit_twice.rfind("\"displayTimeUnit\"")));
  // Spelled differently, the same name.
  const std::string escaped = "{\"host_name\":1, \"host_\\u006eame\":2, \"traceEvents\":[]}";
  EXPECT_EQ(ErrorOffset(escaped, "duplicate key \"host_name\""),
            static_cast<int64_t>(escaped.find("\"host_\\u")));
}

TEST(ImportErrorsTest, DuplicateKeysInAnEventAndItsArgs) {
  const std::string compact =
      "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"ts\":2}]}";
  EXPECT_EQ(ErrorOffset(compact, "duplicate key \"ts\" in a trace event (first at byte 42)"),
            static_cast<int64_t>(compact.rfind("\"ts\"")));
  const std::string unknown_key =
      "[{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":1,\"bp\":\"e\",\"s\":\"g\",\"bp\":\"e\"}]";
  EXPECT_EQ(ErrorOffset(unknown_key, "duplicate key \"bp\""),
            static_cast<int64_t>(unknown_key.rfind("\"bp\"")));
  const std::string args =
      "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{\"a\":1,\"b\":2,\"a\":3}}]";
  EXPECT_EQ(ErrorOffset(args, "duplicate key \"a\" in \"args\""),
            static_cast<int64_t>(args.rfind("\"a\"")));
  // Whatever args the caller keeps: commands that read few args see the same error.
  ImportOptions options;
  options.keep_args = std::vector<std::string>{"b"};
  auto kept = ImportChromeTraceFromBuffer(args, "bad.json", options);
  ASSERT_FALSE(kept.ok());
  EXPECT_NE(kept.status().message().find("duplicate key \"a\""), std::string::npos);
  // Kineto's layout, read line by line without the structural scan: the same error.
  testing::KinetoJsonBuilder b = testing::ValidLaunchBuilder();
  b.Add("{\"ph\": \"X\", \"name\": \"x\", \"pid\": 1, \"tid\": 1, \"ts\": 1.000, \"name\": \"y\"}");
  const std::string kineto = b.Build();
  EXPECT_EQ(ErrorOffset(kineto, "duplicate key \"name\" in a trace event"),
            static_cast<int64_t>(kineto.rfind("\"name\": \"y\"")));
  // An object with many members takes another path to the same answer.
  std::string many = "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{";
  for (int i = 0; i < 100; ++i)
    many += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  many += "\"k57\":0}}]";
  EXPECT_EQ(ErrorOffset(many, "duplicate key \"k57\" in \"args\""),
            static_cast<int64_t>(many.rfind("\"k57\"")));
}

TEST(ImportErrorsTest, DisplayTimeUnitIsMsOrNs) {
  const std::string us = "{\"displayTimeUnit\": \"us\", \"traceEvents\": []}";
  EXPECT_EQ(ErrorOffset(us, "\"displayTimeUnit\" must be \"ms\" or \"ns\", found \"us\""), 20);
  EXPECT_EQ(ErrorOffset("{\"traceEvents\": [], \"displayTimeUnit\": \"NS\"}", "found \"NS\""), 39);
  EXPECT_EQ(ErrorOffset("{\"displayTimeUnit\": 3, \"traceEvents\": []}", "must be a string"), 20);
  for (const char* unit : {"ms", "ns"}) {
    const std::string json =
        std::string("{\"displayTimeUnit\": \"") + unit + "\", \"traceEvents\": []}";
    EXPECT_TRUE(ImportChromeTraceFromBuffer(json, "ok.json").ok()) << unit;
  }
}

// Cutting the valid trace anywhere must give an error line (or, past the last brace, succeed).
TEST(ImportErrorsTest, EveryPrefixOfAValidTraceFailsCleanly) {
  const std::string json = testing::ValidLaunchBuilder().Build();
  const size_t last_brace = json.rfind('}');
  for (size_t n = 0; n <= last_brace; ++n) {
    auto result = ImportChromeTraceFromBuffer(json.substr(0, n), "cut.json");
    ASSERT_FALSE(result.ok()) << n;
    ASSERT_GE(testing::ErrorLineOffset(result.status().message(), "cut.json"), 0)
        << result.status().message();
  }
  EXPECT_TRUE(ImportChromeTraceFromBuffer(json.substr(0, last_brace + 1), "cut.json").ok());
}

// A cheap deterministic fuzz pass: random byte edits never crash, errors stay one line.
TEST(ImportErrorsTest, RandomEditsNeverCrash) {
  const std::string json = testing::ValidLaunchBuilder().Build();
  std::mt19937 rng(20260820);
  const char kAlphabet[] = "{}[]\",:0123456789.-eE \\ntfu\x00\xff";
  for (int round = 0; round < 3000; ++round) {
    std::string text = json;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
          break;
        case 1:
          text.erase(at, 1 + rng() % 8);
          break;
        default:
          text.insert(at, 1, kAlphabet[rng() % (sizeof(kAlphabet) - 1)]);
      }
    }
    auto result = ImportChromeTraceFromBuffer(text, "fuzz.json");
    if (!result.ok()) {
      ASSERT_GE(testing::ErrorLineOffset(result.status().message(), "fuzz.json"), 0)
          << result.status().message();
    }
  }
}

}  // namespace
}  // namespace rblnsim::trace
