#include "profiler/trace/json_writer.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rblnsim::trace {
namespace {

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

// Parses |text| strictly (no comments, no exceptions) and returns the string it holds.
std::string ParseJsonString(const std::string& text) {
  const nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(value.is_discarded()) << text;
  EXPECT_TRUE(value.is_string()) << text;
  return value.is_string() ? value.get<std::string>() : std::string();
}

TEST(JsonWriterEscape, QuotesAndBackslashes) {
  EXPECT_EQ(JsonQuote(R"(say "hi" \ bye)"), R"("say \"hi\" \\ bye")");
  EXPECT_EQ(JsonQuote(""), R"("")");
  EXPECT_EQ(ParseJsonString(JsonQuote(R"(a"b\c)")), R"(a"b\c)");
}

TEST(JsonWriterEscape, EveryControlCharacter) {
  for (int c = 0; c < 0x20; ++c) {
    std::string expected;
    switch (c) {
      case '\b':
        expected = "\\b";
        break;
      case '\f':
        expected = "\\f";
        break;
      case '\n':
        expected = "\\n";
        break;
      case '\r':
        expected = "\\r";
        break;
      case '\t':
        expected = "\\t";
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        expected = buf;
      }
    }
    const std::string raw = std::string("x") + static_cast<char>(c) + "y";
    EXPECT_EQ(JsonQuote(raw), "\"x" + expected + "y\"") << "char " << c;
    EXPECT_EQ(ParseJsonString(JsonQuote(raw)), raw) << "char " << c;
  }
}

TEST(JsonWriterEscape, DelAndPrintableAsciiPassThrough) {
  EXPECT_EQ(JsonQuote("a\x7f"
                      "b"),
            "\"a\x7f"
            "b\"");
  std::string printable;
  for (char c = 0x20; c < 0x7f; ++c) {
    if (c != '"' && c != '\\')
      printable += c;
  }
  EXPECT_EQ(JsonQuote(printable), "\"" + printable + "\"");
}

TEST(JsonWriterEscape, ValidUtf8PassesThroughUnchanged) {
  for (const std::string text : {"µs", "한국어", "🚀 emoji", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBD"}) {
    EXPECT_EQ(JsonQuote(text), "\"" + text + "\"");
    EXPECT_EQ(ParseJsonString(JsonQuote(text)), text);
  }
}

TEST(JsonWriterEscape, InvalidUtf8BecomesReplacementCharacter) {
  const std::string f(kFffd);
  struct Case {
    std::string input;
    std::string expected;
  };
  const Case cases[] = {
      {"\xFF", f},         // never valid
      {"a\xC3", "a" + f},  // truncated 2-byte sequence at the end
      {"\xE2\x82"
       "A",
       f + "A"},                            // truncated 3-byte sequence: one U+FFFD
      {"\xC0\xAF", f + f},                  // overlong '/'
      {"\xE0\x80\x80", f + f + f},          // overlong NUL
      {"\xED\xA0\x80", f + f + f},          // UTF-16 surrogate
      {"\xF4\x90\x80\x80", f + f + f + f},  // above U+10FFFF
      {"\x80"
       "k",
       f + "k"},  // stray continuation byte
      {"ok\xF0\x9F\x9A"
       "\xF0\x9F\x9A\x80",
       "ok" + f + "🚀"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(JsonQuote(c.input), "\"" + c.expected + "\"");
    EXPECT_EQ(ParseJsonString(JsonQuote(c.input)), c.expected);
  }
}

// Plain text is cleared eight bytes at a time: a byte that needs escaping or replacing must be
// found at every position of a word, at every length, including right after another one and
// in the bytes past the last whole word.
TEST(JsonWriterEscape, SpecialBytesAtEveryPositionAndLength) {
  const std::string f(kFffd);
  struct Special {
    std::string raw;
    std::string quoted;
  };
  const Special specials[] = {
      {"\"", "\\\""},
      {"\\", "\\\\"},
      {"\n", "\\n"},
      {std::string(1, '\0'), "\\u0000"},
      {"\x1f", "\\u001f"},
      {"\x7f", "\x7f"},
      {" ", " "},
      {"\xC2\xB5", "\xC2\xB5"},
      {"\xF0\x9F\x9A\x80", "\xF0\x9F\x9A\x80"},
      {"\xFF", f},
      {"\x80", f},
      {"!", "!"},
      {"#", "#"},
      {"[", "["},
      {"]", "]"},
  };
  for (const Special& special : specials) {
    for (size_t length = 0; length <= 24; ++length) {
      for (size_t at = 0; at <= length; ++at) {
        const std::string before(at, 'a');
        const std::string after(length - at, 'z');
        EXPECT_EQ(JsonQuote(before + special.raw + after),
                  "\"" + before + special.quoted + after + "\"")
            << "special " << static_cast<int>(static_cast<unsigned char>(special.raw[0])) << " at "
            << at << " of " << length;
        EXPECT_EQ(JsonQuote(before + special.raw + special.raw + after),
                  "\"" + before + special.quoted + special.quoted + after + "\"");
      }
    }
  }
}

TEST(JsonWriterEscape, Utf8Length) {
  EXPECT_EQ(Utf8Length(""), 0u);
  EXPECT_EQ(Utf8Length("abc"), 3u);
  EXPECT_EQ(Utf8Length("µs"), 2u);
  EXPECT_EQ(Utf8Length("한국어"), 3u);
  EXPECT_EQ(Utf8Length("🚀"), 1u);
  EXPECT_EQ(Utf8Length("\xE2\x82"
                       "A"),
            2u);
}

// ASCII is counted a word at a time: a sequence, a broken one or a lone byte at any position of
// a longer text, before, inside or after a whole word, is still counted as one character.
TEST(JsonWriterEscape, Utf8LengthOfLongTexts) {
  for (const std::string_view unit :
       {"\xC2\xB5", "\xED\x95\x9C", "\xF0\x9F\x9A\x80", "\xE2\x82", "\xFF", "\x80"}) {
    for (size_t before = 0; before <= 20; ++before) {
      for (size_t after : {0, 1, 7, 8, 9, 17}) {
        const std::string text =
            std::string(before, 'a') + std::string(unit) + std::string(after, 'b');
        EXPECT_EQ(Utf8Length(text), before + 1 + after)
            << "unit of " << unit.size() << " bytes after " << before << ", before " << after;
      }
    }
  }
  EXPECT_EQ(Utf8Length(std::string(64, 'x')), 64u);
  EXPECT_EQ(
      Utf8Length(std::string(64, 'x') + "\xC2\xB5" + std::string(64, 'y') + "\xF0\x9F\x9A\x80"),
      130u);
}

TEST(JsonWriterNumbers, NsAsUsWithThreeDecimals) {
  EXPECT_EQ(FormatNsAsUs(0), "0.000");
  EXPECT_EQ(FormatNsAsUs(7), "0.007");
  EXPECT_EQ(FormatNsAsUs(999), "0.999");
  EXPECT_EQ(FormatNsAsUs(1000), "1.000");
  EXPECT_EQ(FormatNsAsUs(12500), "12.500");
  EXPECT_EQ(FormatNsAsUs(5100000123456), "5100000123.456");
  EXPECT_EQ(FormatNsAsUs(1743521598000000000), "1743521598000000.000");
  EXPECT_EQ(FormatNsAsUs(-1), "-0.001");
  EXPECT_EQ(FormatNsAsUs(-500), "-0.500");
  EXPECT_EQ(FormatNsAsUs(-1500), "-1.500");
  EXPECT_EQ(FormatNsAsUs(std::numeric_limits<int64_t>::max()), "9223372036854775.807");
  EXPECT_EQ(FormatNsAsUs(std::numeric_limits<int64_t>::min()), "-9223372036854775.808");
}

TEST(JsonWriterNumbers, DoublesRoundTripAndStayDoubles) {
  EXPECT_EQ(FormatJsonDouble(1.5), "1.5");
  EXPECT_EQ(FormatJsonDouble(1.0), "1.0");
  EXPECT_EQ(FormatJsonDouble(-0.0), "-0.0");
  EXPECT_EQ(FormatJsonDouble(0.1), "0.1");
  EXPECT_EQ(FormatJsonDouble(1e300), "1e+300");
  EXPECT_EQ(FormatJsonDouble(std::nan("")), "null");
  EXPECT_EQ(FormatJsonDouble(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(FormatJsonDouble(-std::numeric_limits<double>::infinity()), "null");
  for (double value : {0.1, 1.0 / 3, 123456789.125, 5e-324, 1.7976931348623157e308, 2.5e-7}) {
    const nlohmann::json parsed = nlohmann::json::parse(FormatJsonDouble(value), nullptr, false);
    ASSERT_TRUE(parsed.is_number_float()) << FormatJsonDouble(value);
    EXPECT_EQ(parsed.get<double>(), value);
  }
}

TEST(JsonWriterNumbers, DoublesIgnoreTheCLocale) {
  // Only meaningful where a comma-decimal locale is installed.
  const char* comma_locale = std::setlocale(LC_NUMERIC, "de_DE.UTF-8");
  if (comma_locale == nullptr)
    comma_locale = std::setlocale(LC_NUMERIC, "fr_FR.UTF-8");
  if (comma_locale == nullptr)
    GTEST_SKIP() << "no comma-decimal locale installed";
  EXPECT_EQ(FormatJsonDouble(1.5), "1.5");
  std::setlocale(LC_NUMERIC, "C");
}

TEST(JsonWriterStructure, CompactAndLineBroken) {
  StringSink compact_sink;
  JsonWriter compact(&compact_sink);
  compact.BeginObject().Key("a").BeginArray().Int(1).Int(-2).Bool(true).Null().String("x");
  compact.BeginObject().Key("k").Double(1.5).EndObject().EndArray();
  compact.Key("b").BeginObject().EndObject().Key("c").Raw("[1,2]").Key("d").Uint(
      18446744073709551615u);
  compact.Key("t").UsFromNs(-500).EndObject().Finish();
  EXPECT_EQ(compact_sink.text(),
            R"({"a":[1,-2,true,null,"x",{"k":1.5}],"b":{},"c":[1,2],"d":18446744073709551615,)"
            R"("t":-0.500})"
            "\n");

  StringSink pretty_sink;
  JsonWriter pretty(&pretty_sink, /*line_break_depth=*/2);
  pretty.BeginObject().Key("empty").BeginArray().EndArray().Key("list").BeginArray();
  pretty.BeginObject().Key("x").Int(1).Key("y").BeginArray().Int(2).EndArray().EndObject();
  pretty.Int(3).EndArray().EndObject().Finish();
  EXPECT_EQ(pretty_sink.text(),
            "{\n"
            "  \"empty\": [],\n"
            "  \"list\": [\n"
            "    {\"x\":1,\"y\":[2]},\n"
            "    3\n"
            "  ]\n"
            "}\n");
}

}  // namespace
}  // namespace rblnsim::trace
