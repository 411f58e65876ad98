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

// Launch ids, the usual raw value, take a shortcut past the recogniser: it must agree with it.
TEST(BridgeJsonSyntaxTest, ShortIntegersAgreeWithTheRecogniser) {
  for (const char* text : {"7", "-7", "0", "-0", "123456789012345678", "-123456789012345678", " 7",
                           "7 ", "1234567890123456789"}) {
    EXPECT_TRUE(IsValidJsonValue(text)) << text;
  }
  for (const char* text : {"00", "-01", "7a", "--7", "-", "7-", "0x7"})
    EXPECT_FALSE(IsValidJsonValue(text)) << text;
}

// Numbers a 64-bit integer or a double cannot hold are refused, as simdjson refuses them.
TEST(BridgeJsonSyntaxTest, NumbersMustFitA64BitIntegerOrADouble) {
  for (const char* text :
       {"18446744073709551615", "-9223372036854775808", "[4294967296, -1]", "1e308", "1e-400"}) {
    EXPECT_TRUE(IsValidJsonValue(text)) << text;
  }
  for (const char* text : {"18446744073709551616", "-9223372036854775809",
                           "[1, 99999999999999999999]", "1e309", "-1e999"}) {
    EXPECT_FALSE(IsValidJsonValue(text)) << text;
  }
}

TEST(BridgeJsonSyntaxTest, BoundsNestingDepth) {
  EXPECT_TRUE(IsValidJsonValue(std::string(64, '[') + std::string(64, ']')));
  EXPECT_FALSE(IsValidJsonValue(std::string(100000, '[') + std::string(100000, ']')));
}

}  // namespace
}  // namespace rblnsim::bridge
