// The escaping fast paths against a byte-at-a-time reference: strings escaped in pieces (long
// strings, sequences across a piece's end), the writer's in-place keys and values, literals,
// and text larger than the writer's buffer.
#include "profiler/trace/json_escape.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "profiler/trace/json_writer.h"

namespace rblnsim::trace {
namespace {

// What quoting must give, one unit at a time: no word tricks, no pieces.
std::string ReferenceQuote(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      size_t bad_len = 0;
      const size_t len = Utf8SequenceLength(text.substr(i), &bad_len);
      out += len != 0 ? std::string(text.substr(i, len)) : std::string("\xEF\xBF\xBD");
      i += len != 0 ? len : bad_len;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\f') {
      out += "\\f";
    } else if (c < 0x20) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out + "\"";
}

// Text drawn from plain ASCII, escapes, well-formed sequences of every length, lone and
// truncated sequences, and runs of continuation bytes.
std::string RandomText(std::mt19937* rng, size_t units) {
  static const std::vector<std::string> kUnits = {"a",
                                                  "Z",
                                                  "0",
                                                  " ",
                                                  "_",
                                                  "\"",
                                                  "\\",
                                                  "\n",
                                                  std::string(1, '\0'),
                                                  "\x1f",
                                                  "\x7f",
                                                  "\xC2\xB5",
                                                  "\xE2\x82\xAC",
                                                  "\xF0\x9F\x9A\x80",
                                                  "\xFF",
                                                  "\x80",
                                                  "\xE2\x82",
                                                  "\xF0\x9F",
                                                  "\x80\x80\x80\x80\x80",
                                                  "\xC0\xAF",
                                                  "\xED\xA0\x80",
                                                  "plain_text_run_",
                                                  "aten::mm"};
  std::uniform_int_distribution<size_t> pick(0, kUnits.size() - 1);
  std::string text;
  for (size_t i = 0; i < units; ++i)
    text += kUnits[pick(*rng)];
  return text;
}

std::string WriterString(std::string_view text) {
  StringSink sink;
  JsonWriter json(&sink);
  json.String(text).Finish();
  std::string out = sink.text();
  out.pop_back();  // Finish's newline
  return out;
}

std::string WriterKey(std::string_view key) {
  StringSink sink;
  JsonWriter json(&sink);
  json.BeginObject().Key(key).Int(1).EndObject().Finish();
  return sink.text();
}

TEST(JsonEscape, RandomTextMatchesTheReferenceThroughEveryPath) {
  std::mt19937 rng(20261207);
  for (int round = 0; round < 400; ++round) {
    // Short texts test the word and tail paths, long ones the pieces.
    const size_t units = round % 4 == 0 ? 2000 + static_cast<size_t>(round) * 7 : round % 40;
    const std::string text = RandomText(&rng, units);
    const std::string expected = ReferenceQuote(text);
    ASSERT_EQ(JsonQuote(text), expected) << "round " << round;
    ASSERT_EQ(WriterString(text), expected) << "round " << round;
    ASSERT_EQ(WriterKey(text), "{" + expected + ":1}\n") << "round " << round;
  }
}

// A sequence, an ill-formed unit or a run of continuation bytes at every offset around the end
// of the first piece must come out as it would from one pass over the whole.
TEST(JsonEscape, UnitsAcrossThePieceBoundary) {
  const std::string units[] = {"\xF0\x9F\x9A\x80", "\xE2\x82\xAC", "\xC2\xB5",
                               "\xF0\x9F\x9A",     "\xE2\x82",     "\x80\x80\x80\x80\x80\x80",
                               "\xFF\x80\x80",     "\n\""};
  for (const std::string& unit : units) {
    for (size_t at = kJsonPieceBytes - 8; at <= kJsonPieceBytes + 2; ++at) {
      const std::string text = std::string(at, 'x') + unit + std::string(50, 'y');
      const std::string expected = ReferenceQuote(text);
      EXPECT_EQ(JsonQuote(text), expected) << "at " << at;
      EXPECT_EQ(WriterString(text), expected) << "at " << at;
    }
  }
  EXPECT_EQ(JsonPieceEnd(std::string(10, 'a'), 0), 10u);
  const std::string continuation(3 * kJsonPieceBytes, '\x80');
  EXPECT_EQ(JsonPieceEnd(continuation, 0), kJsonPieceBytes);  // no unit spans a lone byte
}

TEST(JsonEscape, LiteralsAndRuntimeTextWriteTheSame) {
  StringSink literal_sink;
  JsonWriter literal(&literal_sink);
  literal.BeginObject().Key("ph").String("X").Key("args").BeginObject();
  literal.Key("a b").String("").EndObject().EndObject().Finish();
  StringSink runtime_sink;
  JsonWriter runtime(&runtime_sink);
  const std::string ph = "ph", x = "X", args = "args", ab = "a b", empty;
  runtime.BeginObject().Key(ph).String(x).Key(args).BeginObject();
  runtime.Key(ab).String(empty).EndObject().EndObject().Finish();
  EXPECT_EQ(literal_sink.text(), "{\"ph\":\"X\",\"args\":{\"a b\":\"\"}}\n");
  EXPECT_EQ(runtime_sink.text(), literal_sink.text());
}

// Text beyond the buffer's slack goes to the sink directly, in order with what was buffered;
// long output reaches the sink in chunks of about kChunkBytes.
TEST(JsonEscape, LargeValuesAndChunks) {
  class CountingSink final : public OutputSink {
   public:
    void Append(std::string_view bytes) override {
      text += bytes;
      ++appends;
    }
    std::string text;
    int appends = 0;
  };
  CountingSink sink;
  {
    JsonWriter json(&sink);
    const std::string big_raw = "[" + std::string(100000, '1') + "]";
    const std::string big_string(70000, 'q');
    json.BeginArray().Int(7).Raw(big_raw).String(big_string);
    for (int i = 0; i < 20000; ++i)
      json.Int(i);
    json.EndArray().Finish();
    std::string expected = "[7," + big_raw + ",\"" + big_string + "\"";
    for (int i = 0; i < 20000; ++i)
      expected += "," + std::to_string(i);
    EXPECT_EQ(sink.text, expected + "]\n");
  }
  EXPECT_GT(sink.appends, 3);
  EXPECT_LT(sink.appends, 10);
}

}  // namespace
}  // namespace rblnsim::trace
