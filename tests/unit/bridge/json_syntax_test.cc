#include "profiler/bridge/json_syntax.h"

#include <gtest/gtest.h>

#include <string>

namespace rblnsim::bridge {
namespace {

TEST(BridgeJsonSyntaxTest, AcceptsEveryKindOfValue) {
  for (const char* text : {"0", "-0", "12", "-3.25", "1e9", "2.5E-3", "true", "false", "null",
                           "\"\"", "\"a\\\"b\\u00e9\\n\"", "[]", "{}", " [1, {\"k\": [null]}] ",
                           "{\"a\": {\"b\": \"c\"}, \"d\": -1.0e+2}"}) {
    EXPECT_TRUE(IsValidJsonValue(text)) << text;
  }
}

TEST(BridgeJsonSyntaxTest, RejectsWhatWouldCorruptATraceFile) {
  for (const char* text : {"",
                           " ",
                           "01",
                           "1.",
                           ".5",
                           "+1",
                           "1e",
                           "-",
                           "tru",
                           "nul",
                           "NaN",
                           "Infinity",
                           "\"open",
                           "\"bad \\x escape\"",
                           "\"\\u12\"",
                           "[1,]",
                           "[1 2]",
                           "{\"a\" 1}",
                           "{\"a\": 1,}",
                           "{a: 1}",
                           "1 2",
                           "[1]]",
                           "{not json",
                           "'single'"}) {
    EXPECT_FALSE(IsValidJsonValue(text)) << text;
  }
  EXPECT_FALSE(IsValidJsonValue(std::string("\"a\nb\"")));  // raw control character
  EXPECT_FALSE(IsValidJsonValue(std::string("1\0", 2)));
}

TEST(BridgeJsonSyntaxTest, BoundsNestingDepth) {
  EXPECT_TRUE(IsValidJsonValue(std::string(64, '[') + std::string(64, ']')));
  EXPECT_FALSE(IsValidJsonValue(std::string(100000, '[') + std::string(100000, ']')));
}

}  // namespace
}  // namespace rblnsim::bridge
