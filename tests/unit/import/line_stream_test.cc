// LineStream (line_stream.h) reads a stretch of one-event-per-line text as one simdjson stream.
// Every event it hands out must be the one EventReader::ReadEvent reads from that event's own
// bytes, and wherever the layout or the text is not what the line guess assumed, it must hand
// out nothing from there on, so that the importer's own reading (and its errors) take over.
#include "profiler/trace/import/line_stream.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace rblnsim::trace::import {
namespace {

constexpr uint64_t kOffset = 1000;  // where the stretch sits in a (pretend) file

std::string Describe(const RawEvent& e) {
  std::string out = std::to_string(e.offset) + " " + e.ph + "|" + e.cat + "|" + e.name + "|" +
                    std::to_string(e.pid.value) + e.pid.text + "|" + std::to_string(e.tid.value) +
                    e.tid.text + "|" + std::to_string(e.ts_ns) + "|" + std::to_string(e.dur_ns) +
                    "|" + (e.id ? std::to_string(*e.id) : "-") + "|" + std::to_string(e.has_ts) +
                    std::to_string(e.has_dur) + std::to_string(e.quoted_numbers);
  for (const ArgView arg : e.args)
    out += " " + std::string(arg.key);
  return out;
}

struct Outcome {
  std::vector<std::string> events;  // handed out, in order
  size_t taken_bytes = 0;           // where the last one handed out ends, from the start
};

// Hands out everything the stream gives from the first byte of |text| on, checking each event
// against ReadEvent on its own bytes; |text_stays| as LineStream::Open's.
Outcome StreamOnce(const std::string& text, bool text_stays) {
  EventReader stream_reader(3);
  EventReader plain_reader(3);
  LineStream lines;
  Outcome out;
  if (!lines.Open(&stream_reader, text, kOffset, text_stays))
    return out;
  std::string padded = text + std::string(simdjson::SIMDJSON_PADDING, '\0');
  for (uint64_t begin = lines.next_begin(); begin != kNoOffset; begin = lines.next_begin()) {
    RawEvent streamed;
    const uint64_t end = lines.Take(&stream_reader, begin, &streamed);
    if (end == kNoOffset)
      break;
    const size_t rel = static_cast<size_t>(begin - kOffset);
    RawEvent plain;
    bool whole = false;
    const TextPiece piece{padded.data() + rel, static_cast<size_t>(end - begin),
                          padded.size() - rel, begin};
    EXPECT_TRUE(plain_reader.ReadEvent(piece, &plain, &whole).ok());
    EXPECT_TRUE(whole);
    EXPECT_EQ(Describe(streamed), Describe(plain));
    EXPECT_EQ(streamed.args, plain.args);
    out.events.push_back(Describe(streamed));
    out.taken_bytes = static_cast<size_t>(end - kOffset);
    // The next element's start, when the stream vouches for the separator, is where a JSON
    // reader finds it after this one: whitespace, one ',' and whitespace.
    const uint64_t next = lines.NextAfter(end);
    if (next != kNoOffset) {
      const std::string between = text.substr(rel + (end - begin), next - end);
      EXPECT_EQ(std::count(between.begin(), between.end(), ','), 1) << between;
      EXPECT_EQ(between.find_first_not_of(" \t\r\n,"), std::string::npos) << between;
      EXPECT_EQ(text[next - kOffset], '{');
    }
    EXPECT_EQ(lines.NextAfter(end + 1), kNoOffset);
  }
  return out;
}

// Both ways to open a stretch: a copy, or the text where it is (a mapped file's), which is then
// only read. They must hand out the same events.
Outcome Stream(const std::string& text) {
  const std::string before = text;
  const Outcome copied = StreamOnce(text, /*text_stays=*/false);
  const Outcome in_place = StreamOnce(text, /*text_stays=*/true);
  EXPECT_EQ(copied.events, in_place.events);
  EXPECT_EQ(copied.taken_bytes, in_place.taken_bytes);
  EXPECT_EQ(text, before);
  return in_place;
}

std::string Line(int i, const std::string& extra = "") {
  return R"({"ph":"X","cat":"cpu_op","name":"aten::mm_)" + std::to_string(i) +
         R"(","pid":4242,"tid":"7","ts":)" + std::to_string(100 + i) +
         R"(.500,"dur":2,"args":{"External id":)" + std::to_string(i) +
         R"(,"Input Dims":[[64,64],[64,64]],"nam\u0065":"\u00e9"})" + extra + "}";
}

TEST(LineStreamTest, HandsOutEveryEventButTheLastAsReadEventReadsIt) {
  std::string text;
  for (int i = 0; i < 50; ++i)
    text += Line(i) + ",\n  ";
  text += Line(50) + "\n]}";
  const Outcome out = Stream(text);
  // The last has no next event to show where it ends: the caller reads it.
  EXPECT_EQ(out.events.size(), 50u);
  EXPECT_EQ(out.taken_bytes, text.find(Line(49)) + Line(49).size());
}

// Plain events are read where they lie; the first that is not (an escape) starts the stream, on
// a copy of the rest with the commas between the events blanked, and the plain events after it
// step the stream on.
TEST(LineStreamTest, PlainAndEscapedEventsMixed) {
  auto plain = [](int i) {
    return R"({"ph":"X","name":"op)" + std::to_string(i) + R"(","ts":)" + std::to_string(i) +
           R"(,"args":{"a":[1, 2],"b":"c"}})";
  };
  std::string text;
  for (int i = 0; i < 12; ++i)
    text += (i % 4 == 2 ? Line(i) : plain(i)) + (i % 3 == 0 ? " ,\n" : ",\n  ");
  text += plain(12) + "\n]}";
  const Outcome out = Stream(text);
  EXPECT_EQ(out.events.size(), 12u);
}

// After each event handed out the stream names where the next one begins, up to and including
// the last, which it leaves to the caller; after a failed Take, nothing.
TEST(LineStreamTest, NamesTheNextEventAfterEachOneHandedOut) {
  const std::string text = Line(0) + ",\n  " + Line(1) + " ,\n" + Line(2) + "\n]";
  EventReader reader(3);
  LineStream lines;
  ASSERT_TRUE(lines.Open(&reader, text, kOffset, /*text_stays=*/true));
  EXPECT_EQ(lines.NextAfter(kOffset), kNoOffset);  // nothing handed out yet
  RawEvent event;
  const uint64_t first_end = lines.Take(&reader, kOffset, &event);
  ASSERT_EQ(first_end, kOffset + Line(0).size());
  const uint64_t second = kOffset + text.find(Line(1));
  EXPECT_EQ(lines.NextAfter(first_end), second);
  const uint64_t second_end = lines.Take(&reader, second, &event);
  ASSERT_EQ(second_end, second + Line(1).size());
  EXPECT_EQ(lines.NextAfter(first_end), kNoOffset);  // no longer the event just handed out
  EXPECT_EQ(lines.NextAfter(second_end), kOffset + text.find(Line(2)));
  EXPECT_EQ(lines.Take(&reader, kOffset + text.find(Line(2)), &event), kNoOffset);
  EXPECT_EQ(lines.NextAfter(second_end), kNoOffset);
}

TEST(LineStreamTest, ALineOfTwoValuesEndsTheStream) {
  const std::string text =
      Line(0) + ",\n" + Line(1) + " " + Line(2) + ",\n" + Line(3) + ",\n" + Line(4) + ",\n";
  const Outcome out = Stream(text);
  EXPECT_EQ(out.events.size(), 1u);
}

TEST(LineStreamTest, AnEventTheReaderRefusesEndsTheStream) {
  const std::vector<std::string> bad = {
      R"({"ph":"X","ts":"soon","name":"a"})",  // a time that is no time
      R"({"ph":"X","name":"a","name":"b"})",   // a duplicate key
      R"({"ph":"X","args":{"k":1,"k":2}})",    // a duplicate arg
      R"({"ph":"X","args":[1,2]})",            // args of the wrong type
      "{\"ph\":\"X\",\"name\":\"\xff\"}",      // invalid UTF-8
      R"({"ph":"X","name":"a",})",             // a trailing comma
      R"({"ph":"X","s":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}],)"};
  for (const std::string& event : bad) {
    const std::string text = Line(0) + ",\n" + Line(1) + ",\n" + event + ",\n" + Line(3) + ",\n" +
                             Line(4) + ",\n" + Line(5) + "\n";
    const Outcome out = Stream(text);
    // Nothing at or after the damage is handed out (invalid UTF-8 stops stage 1 for all).
    EXPECT_LE(out.events.size(), 2u) << event;
    EXPECT_LE(out.taken_bytes, text.find(event)) << event;
  }
}

TEST(LineStreamTest, TextNotLaidOutOneEventPerLineOpensNothing) {
  EXPECT_TRUE(Stream(Line(0) + ", " + Line(1) + ", " + Line(2)).events.empty());  // one line
  EXPECT_TRUE(Stream("{\"ph\":\"X\",\n\"name\":\"a\"},\n" + Line(1) + ",\n" + Line(2) + ",\n")
                  .events.empty());  // an event over two lines
  EXPECT_TRUE(Stream("[" + Line(0) + ",\n" + Line(1) + ",\n").events.empty());  // not an object
  EXPECT_TRUE(Stream(Line(0) + "\n" + Line(1) + "\n").events.empty());          // no separator
}

TEST(LineStreamTest, TakingAnyOtherPositionClosesTheStream) {
  std::string text;
  for (int i = 0; i < 5; ++i)
    text += Line(i) + ",\n";
  EventReader reader(3);
  LineStream lines;
  ASSERT_TRUE(lines.Open(&reader, text, kOffset, /*text_stays=*/false));
  RawEvent event;
  ASSERT_EQ(lines.next_begin(), kOffset);
  EXPECT_EQ(lines.Take(&reader, kOffset + 1, &event), kNoOffset);
  EXPECT_EQ(lines.next_begin(), kNoOffset);
  EXPECT_EQ(lines.Take(&reader, kOffset, &event), kNoOffset);
}

// The importer's second thread reads a stretch as several streams in place, each beginning with
// the event the one before it left: what a stream leaves must still read as it was written.
TEST(LineStreamTest, AStreamInPlaceLeavesTheTextAfterItsEventsAsItWas) {
  std::string text;
  for (int i = 0; i < 6; ++i)
    text += Line(i) + ",\n";
  const std::string original = text;
  text += std::string(simdjson::SIMDJSON_PADDING, '\0');
  const size_t third = original.find(Line(3));
  EventReader reader(3);
  LineStream lines;
  // The first stream holds the first four lines and hands out three.
  ASSERT_TRUE(
      lines.OpenInPlace(&reader, text.data(), third + Line(3).size() + 2, text.size(), kOffset));
  RawEvent event;
  int taken = 0;
  for (uint64_t begin = lines.next_begin(); begin != kNoOffset; begin = lines.next_begin()) {
    ASSERT_NE(lines.Take(&reader, begin, &event), kNoOffset);
    ++taken;
  }
  EXPECT_EQ(taken, 3);
  EXPECT_EQ(text.substr(third),
            original.substr(third) + std::string(simdjson::SIMDJSON_PADDING, '\0'));
  // The next one, from the fourth line on, hands out the fourth and the fifth.
  ASSERT_TRUE(lines.OpenInPlace(&reader, text.data() + third, original.size() - third,
                                text.size() - third, kOffset + third));
  taken = 0;
  for (uint64_t begin = lines.next_begin(); begin != kNoOffset; begin = lines.next_begin()) {
    ASSERT_NE(lines.Take(&reader, begin, &event), kNoOffset);
    ++taken;
  }
  EXPECT_EQ(taken, 2);
}

}  // namespace
}  // namespace rblnsim::trace::import
