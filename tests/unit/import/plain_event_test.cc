// The plain scan (plain_event.h) against simdjson's On-Demand walk (EventReader with the scan
// off): every event the scan reads, the walk reads the same, and what the scan declines is left
// to the walk.
#include "profiler/trace/import/plain_event.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "profiler/trace/import/event_reader.h"

namespace rblnsim::trace::import {
namespace {

constexpr uint64_t kOffset = 1000;
constexpr size_t kPadding = 64;  // simdjson's

// |text| with simdjson's padding after it.
struct Padded {
  explicit Padded(std::string_view text) : bytes(text), size(text.size()) {
    bytes.append(kPadding, '\0');
  }
  TextPiece Piece() const { return {bytes.data(), size, bytes.size(), kOffset}; }
  std::string bytes;
  size_t size;
};

void ExpectSameEvent(const RawEvent& a, const RawEvent& b, std::string_view text) {
  SCOPED_TRACE(std::string(text));
  EXPECT_EQ(a.offset, b.offset);
  EXPECT_EQ(a.has_ph, b.has_ph);
  EXPECT_EQ(a.has_cat, b.has_cat);
  EXPECT_EQ(a.has_ts, b.has_ts);
  EXPECT_EQ(a.has_dur, b.has_dur);
  EXPECT_EQ(a.quoted_numbers, b.quoted_numbers);
  EXPECT_EQ(a.ph, b.ph);
  EXPECT_EQ(a.cat, b.cat);
  EXPECT_EQ(a.name, b.name);
  for (const auto& [x, y] : {std::pair{&a.pid, &b.pid}, std::pair{&a.tid, &b.tid}}) {
    EXPECT_EQ(x->present, y->present);
    EXPECT_EQ(x->is_int, y->is_int);
    EXPECT_EQ(x->value, y->value);
    EXPECT_EQ(x->text, y->text);
  }
  EXPECT_EQ(a.ts_ns, b.ts_ns);
  EXPECT_EQ(a.dur_ns, b.dur_ns);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.args, b.args);
}

class PlainEventTest : public ::testing::Test {
 protected:
  // Whether the scan read |text|; when it did, the walk must read the same event, whole.
  bool ScanMatchesWalk(std::string_view text, int ns_exponent = 3) {
    const Padded padded(text);
    ArgPool pool;
    PlainEventReader own(&keep_);
    PlainEventReader& plain = shared_ ? *shared_ : own;
    RawEvent scanned;
    const bool read = plain.Read(padded.bytes.data(), padded.bytes.data() + padded.size, kOffset,
                                 ns_exponent, &pool, &scanned);
    if (!read)
      return false;
    EventReader walk(ns_exponent);
    walk.set_plain_scan(false);
    if (!keep_.empty())
      walk.KeepOnlyArgs(keep_);
    RawEvent walked;
    bool whole = false;
    const Status status = walk.ReadEvent(padded.Piece(), &walked, &whole);
    EXPECT_TRUE(status.ok()) << text << ": " << status.message();
    EXPECT_TRUE(whole) << text;
    ExpectSameEvent(scanned, walked, text);
    return true;
  }

  std::vector<std::string> keep_;
  // When set, every event is read by this one reader, as an import reads a trace's events.
  std::optional<PlainEventReader> shared_;
};

TEST_F(PlainEventTest, ReadsWhatWritersWrite) {
  const std::vector<std::string> events = {
      // rblnsim's writer.
      R"({"ph":"X","cat":"kernel","name":"i1_0_W0_args_0_2","pid":100,"tid":49,"ts":36288251246.836,"dur":1.338,"args":{"launch_id":2,"categories":"General Compute Engine, chiplet 0","device":100,"stream":49,"correlation":2}})",
      R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":4321,"tid":4321,"ts":36288250829.248,"dur":815.000,"args":{"External id":1,"Record function id":0,"Input Dims":[[256, 256], [256, 256]],"Input type":["c10::Half", "c10::Half"],"Ev Idx":0}})",
      R"({"ph":"f","id":2,"pid":100,"tid":17,"ts":36288251243.898,"cat":"ac2g","name":"ac2g","bp":"e"})",
      R"({"name":"Iteration Start: PyTorch Profiler","ph":"i","s":"g","pid":"Traces","tid":"Trace PyTorch Profiler","ts":36288250829.248})",
      R"({"name":"Record Window End","ph":"i","s":"g","pid":"","tid":"","ts":36581650843.496})",
      // Kineto's spacing, and blank lines around.
      " \n{\n  \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 7, \"tid\": "
      "9,\n"
      "  \"ts\": 5100000123.456, \"dur\": 25,\n  \"args\": {\n    \"External id\": 12,\t"
      "\"Sequence number\": -3, \"Fwd thread id\": 0, \"Concrete Inputs\": [\"\", \"1\"]\n  "
      "}\n}\n\n",
      // Quoted numbers, nulls, literals, nested containers, empties.
      R"({"ph":"X","pid":"123","tid":"-4","ts":"1.5","dur":"2","args":null})",
      R"({"ph":"X","args":{"a":true,"b":false,"c":null,"d":{},"e":[],"f":{"g":[1,{"h":null}],"i":"j"}}})",
      R"({"ph":"X","args":{}})",
      R"({})",
      R"({"ph":"i","ts":1e3,"dur":-0.5e-1,"s":{"x":[true,false,null]}})",
      // Flow ids: quoted, negative, "-0", not a number.
      R"({"ph":"s","id":"7","cat":"ac2g"})",
      R"({"ph":"s","id":"x7","cat":"ac2g"})",
      R"({"ph":"s","id":-5,"cat":"ac2g"})",
      R"({"ph":"s","id":-0,"cat":"ac2g"})",
      // Integers at the edge of the scan's reach, and a pid that is text after digits.
      R"({"pid":999999999999999999,"tid":-999999999999999999,"args":{"n":123456789012345678}})",
      R"({"pid":"12abc","tid":"0x10"})",
      // DEL and the other printable bytes in strings.
      "{\"name\":\"a\x7f b~!#$%&'()*+,-./:;<=>?@[]^_`{|}\"}",
  };
  for (const std::string& event : events)
    EXPECT_TRUE(ScanMatchesWalk(event)) << "declined: " << event;
  // Times already in ns.
  EXPECT_TRUE(ScanMatchesWalk(R"({"ph":"X","ts":123456789,"dur":12.5})", 0));
}

TEST_F(PlainEventTest, KeepsOnlyTheArgsAsked) {
  keep_ = {"launch_id", "Input Dims"};
  EXPECT_TRUE(ScanMatchesWalk(
      R"({"ph":"X","args":{"launch_id":2,"device":100,"Input Dims":[[2, 3]],"x":{"y":[1]}}})"));
  // Keys as long as a kept one but not it, and kept keys past the length filter's last bit.
  const std::string long_key(70, 'k');
  const std::string longer_key(80, 'k');
  keep_ = {"launch_id", long_key};
  EXPECT_TRUE(ScanMatchesWalk(R"({"ph":"X","args":{"launch_ix":1,"launch_id":2,")" + long_key +
                              R"(":3,")" + longer_key + R"(":4,"":5}})"));
}

// Each is declined, and left to the walk: it holds something the scan does not decode (an
// escape, UTF-8, a fraction or a long integer in an arg), or something the walk must name (a
// duplicate, a wrong type, invalid JSON, text after the event).
TEST_F(PlainEventTest, DeclinesWhatTheWalkMustRead) {
  const std::vector<std::string> events = {
      R"({"name":"a\"b"})",
      R"({"name":"a\u0041"})",
      "{\"name\":\"caf\xc3\xa9\"}",
      "{\"name\":\"tab\there\"}",
      R"({"args":{"x":1.5}})",
      R"({"args":{"x":1e2}})",
      R"({"args":{"x":1234567890123456789}})",
      R"({"args":{"x":[0.5]}})",
      R"({"pid":1.0})",
      R"({"pid":01})",
      R"({"pid":1234567890123456789})",
      R"({"id":1.5})",
      R"({"id":true})",
      R"({"ph":"X","ph":"X"})",
      R"({"s":"g","s":"g"})",
      R"({"args":{"a":1,"a":2}})",
      R"({"ph":5})",
      R"({"ts":"x"})",
      R"({"ts":true})",
      R"({"args":"x"})",
      R"({"args":[1]})",
      R"({"ph":"X",})",
      R"({"ph":"X" "cat":"y"})",
      R"({"ph":"X")",
      R"({"ph":"X"}x)",
      R"({"ph":"X"},)",
      R"({"args":{"x":[1,]}})",
      R"({"args":{"x":[1 2]}})",
      R"({"args":{"x":{1:2}}})",
      R"({"args":{"x":nul}})",
      R"({"args":{"x":truex}})",
      R"({"args":{"x":[[[[[[[[[1]]]]]]]]]}})",
      R"({"ts":12a})",
      R"([1])",
      "",
  };
  for (const std::string& event : events)
    EXPECT_FALSE(ScanMatchesWalk(event)) << "read: " << event;
}

// Member names are read as one word when they are a known name, its quote and ':' at once; any
// other spelling goes the long way. Both ways must read the same event and see the same
// duplicates, and a name that only begins like a known one is not it.
TEST_F(PlainEventTest, MemberNamesEitherWay) {
  const std::vector<std::string> read = {
      R"({"ts":1,"ph":"X","name":"a","pid":1,"tid":2,"dur":3,"cat":"c","id":4,"args":{}})",
      R"({"ts" :1,"ph"  : "X","name"	:"a","pid":1,"tid" :2,"dur":3,"cat" :"c","id" :4,"args" :{}})",
      R"({"tsx":1,"phh":"X","nam":"a","names":"b","t":2,"":3,"pi":4,"ph":"X","ts":5})",
      R"({"ts":1})",  // the word read would pass the end of a short event
      R"({"id":7})",
      R"({"ph":"X","cat":"c","name":"n","ts":1,"dur":2,"args":{"ph":1,"ts":2}})",
  };
  for (const std::string& event : read)
    EXPECT_TRUE(ScanMatchesWalk(event)) << "declined: " << event;
  const std::vector<std::string> declined = {
      R"({"ph":"X","ph" :"Y"})",
      R"({"ts" :1,"ts":2})",
      R"({"args":{},"args" :{}})",
      R"({"tsx":1,"tsx":2})",
      R"({"p\h":"X"})",
      R"({"ph":"X","ph":"Y","cat":"c"})",
      // A known name and a NUL pack to the same word as the name alone: the byte is no letter
      // of it, and a control character in a name is the walk's to refuse.
      std::string("{\"ph\":\"X\",\"ts\0\":1,\"dur\":2,\"args\":{}}", 36),
      std::string("{\"id\0\":1,\"name\":\"0123456789\"}", 29),
      std::string("{\"ph\0\0\":\"X\",\"name\":\"0123456789\"}", 32),
  };
  for (const std::string& event : declined)
    EXPECT_FALSE(ScanMatchesWalk(event)) << "read: " << event;
}

// Times in Kineto's form are read in one pass at the cursor; every other number goes the
// general way. Both must give what the walk gives, and the same refusals.
TEST_F(PlainEventTest, TimesEitherWay) {
  const std::vector<std::string> read = {"0",
                                         "-0.500",
                                         "1.338",
                                         "815.000",
                                         "36288251246.836",
                                         "123456789012345.678",
                                         "999999999999999",
                                         "1234567890123456.000",
                                         "1.5",
                                         "1.50",
                                         "1.5000",
                                         "1e3",
                                         "1.250e2",
                                         "-12",
                                         "-0"};
  for (const std::string& t : read) {
    const std::string event = R"({"ph":"X","ts":)" + t + R"(,"dur":)" + t + "}";
    EXPECT_TRUE(ScanMatchesWalk(event)) << "declined: " << event;
    EXPECT_TRUE(ScanMatchesWalk(R"({"ts":)" + t + "}")) << "declined: " << t;
  }
  for (const char* t : {"1.", "-", "1.2.3", "1-2", ".5", "1..5", "12a"}) {
    EXPECT_FALSE(ScanMatchesWalk(R"({"ph":"X","ts":)" + std::string(t) + "}")) << "read: " << t;
  }
}

// Integers are read eight digits at a time when sixteen bytes follow, digit by digit near the
// end of an event: each length either way, with what may follow a number's digits.
TEST_F(PlainEventTest, IntegersEitherWay) {
  std::string digits;
  for (int n = 1; n <= 19; ++n) {
    digits += static_cast<char>('0' + n % 10);
    for (const char* sign : {"", "-"}) {
      const std::string v = std::string(sign) + digits;
      const std::string far = R"({"pid":)" + v + R"(,"args":{"a":)" + v +
                              R"(,"padding":"0123456789abcdef"},"tid":)" + v + "}";
      const std::string near = R"({"tid":)" + v + "}";
      // More than 18 digits is the walk's to read.
      EXPECT_EQ(ScanMatchesWalk(far), n <= 18) << far;
      EXPECT_EQ(ScanMatchesWalk(near), n <= 18) << near;
    }
  }
  for (const char* v : {"0", "-0", "1234567890123456"}) {
    EXPECT_TRUE(
        ScanMatchesWalk(R"({"args":{"a":)" + std::string(v) + R"(,"b":"0123456789abcdef0123"}})"))
        << v;
  }
  for (const char* v : {"01", "-01", "00000000000000001", "12345678.5", "123456789e2", "1-"}) {
    EXPECT_FALSE(
        ScanMatchesWalk(R"({"args":{"a":)" + std::string(v) + R"(,"b":"0123456789abcdef0123"}})"))
        << v;
  }
}

// Nesting up to kMaxPlainDepth is the scan's, one level more the walk's.
// One reader over a sequence of events, as an import reads them: the arg keys it recognises
// from the events before (PlainEventReader::KnownKey) must read as the walk reads them, whatever
// the order, spacing, collisions and duplicates of the next event's keys.
TEST_F(PlainEventTest, ArgKeysOfTheEventsBefore) {
  shared_.emplace(&keep_);
  const std::string device =
      R"({"ph":"X","args":{"launch_id":1,"categories":"a, b","device":2,"stream":3}})";
  EXPECT_TRUE(ScanMatchesWalk(device));
  EXPECT_TRUE(ScanMatchesWalk(device));
  EXPECT_TRUE(ScanMatchesWalk(R"({"ph":"X","args":{"launch_id":1,"correlation":2}})"));
  EXPECT_TRUE(ScanMatchesWalk(device));
  // Spacing around a known key, and keys that begin or end like a known one.
  EXPECT_TRUE(ScanMatchesWalk(
      R"({"args":{ "launch_id" :1,"categories":"x","device" : 2,"devices":4,"stream":[3]}})"));
  EXPECT_TRUE(ScanMatchesWalk(R"({"args":{"launch_i":1,"launch_idx":1,"launch_id":{"a":1}}})"));
  EXPECT_TRUE(ScanMatchesWalk(device));
  // A known key given twice, where the key after it was expected and where it was.
  EXPECT_FALSE(ScanMatchesWalk(R"({"args":{"launch_id":1,"launch_id":2}})"));
  EXPECT_FALSE(ScanMatchesWalk(
      R"({"args":{"launch_id":1,"categories":"a, b","device":2,"stream":3,"stream":3}})"));
  EXPECT_FALSE(ScanMatchesWalk(R"({"args":{"launch_id":1,"categories":"a","categories":"a"}})"));
  EXPECT_TRUE(ScanMatchesWalk(device));
  // More keys than entries: some share one, and each still reads as itself.
  std::string many = R"({"args":{)";
  std::string reversed = R"({"args":{)";
  for (int i = 0; i < 60; ++i) {
    many +=
        (i > 0 ? "," : "") + std::string("\"key") + std::to_string(i) + "\":" + std::to_string(i);
    reversed += (i > 0 ? "," : "") + std::string("\"key") + std::to_string(59 - i) + "\":\"" +
                std::to_string(i) + "\"";
  }
  EXPECT_TRUE(ScanMatchesWalk(many + "}}"));
  EXPECT_TRUE(ScanMatchesWalk(many + "}}"));
  EXPECT_TRUE(ScanMatchesWalk(reversed + "}}"));
  EXPECT_TRUE(ScanMatchesWalk(many + "}}"));
  EXPECT_FALSE(ScanMatchesWalk(many + R"(,"key0":1}})"));
  EXPECT_FALSE(ScanMatchesWalk(many + R"(,"key59":1}})"));
  // Keys learnt while every arg was kept, then only some kept, then all again.
  keep_ = {"device", "key7"};
  shared_->KeepArgsChanged();
  EXPECT_TRUE(ScanMatchesWalk(device));
  EXPECT_TRUE(ScanMatchesWalk(many + "}}"));
  keep_.clear();
  shared_->KeepArgsChanged();
  EXPECT_TRUE(ScanMatchesWalk(device));
}

// An arg's array or object with the bytes of the one before under its key is read from that
// one (PlainEventReader::Container): whatever follows, and whatever differs, it must read as
// the walk reads it.
TEST_F(PlainEventTest, ContainersOfTheEventsBefore) {
  shared_.emplace(&keep_);
  const std::string dims = R"({"ph":"X","name":"aten::mm","args":{"Input Dims":[[1, 2], [3]],)"
                           R"("Input type":["c10::Half", "]"],"o":{"a":[1,{"b":null}]}}})";
  EXPECT_TRUE(ScanMatchesWalk(dims));
  EXPECT_TRUE(ScanMatchesWalk(dims));
  EXPECT_TRUE(ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [4]]}})"));
  EXPECT_TRUE(ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [3]] }})"));
  EXPECT_TRUE(ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [3]]}})"));
  // The known container, then more than a container may hold, or not closed where it was.
  EXPECT_FALSE(ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [3]]]}})"));
  EXPECT_FALSE(ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [3]}})"));
  EXPECT_FALSE(ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [3]}}})"));
  EXPECT_FALSE(
      ScanMatchesWalk(R"({"name":"aten::mm","args":{"Input Dims":[[1, 2], [3]],"Input Dims":1}})"));
  EXPECT_TRUE(ScanMatchesWalk(dims));
  // A container's compact text is the builder's, kept or not.
  keep_ = {"o"};
  shared_->KeepArgsChanged();
  EXPECT_TRUE(ScanMatchesWalk(dims));
  keep_.clear();
  shared_->KeepArgsChanged();
  EXPECT_TRUE(ScanMatchesWalk(dims));
  // Containers too long to remember, twice, and one just short enough.
  for (const size_t items : {200, 60}) {
    std::string long_args = R"({"name":"aten::mm","args":{"Input Dims":[)";
    for (size_t i = 0; i < items; ++i)
      long_args += (i > 0 ? ", " : "") + std::to_string(i % 10);
    long_args += "]}}";
    EXPECT_TRUE(ScanMatchesWalk(long_args));
    EXPECT_TRUE(ScanMatchesWalk(long_args));
  }
}

// A predicted key is compared with the text word by word: a key of any length that differs
// from the predicted one in any byte is not taken for it.
TEST_F(PlainEventTest, ArgKeysThatDifferFromTheKnownOneInOneByte) {
  shared_.emplace(&keep_);
  for (size_t length = 0; length <= 40; ++length) {
    const std::string key(length, 'k');
    const std::string known = R"({"args":{"x":1,")" + key + R"(":2}})";
    ASSERT_TRUE(ScanMatchesWalk(known));
    for (size_t at = 0; at < length; ++at) {
      std::string other = key;
      other[at] = 'j';
      ASSERT_TRUE(ScanMatchesWalk(R"({"args":{"x":1,")" + other + R"(":2,")" + key + R"(":3}})"))
          << length << " " << at;
      ASSERT_TRUE(ScanMatchesWalk(known));
    }
    // Longer or shorter by one, and the key with a space before its ':'.
    EXPECT_TRUE(ScanMatchesWalk(R"({"args":{"x":1,")" + key + R"(k":2,")" + key + R"(":3}})"));
    if (length > 0) {
      EXPECT_TRUE(
          ScanMatchesWalk(R"({"args":{"x":1,")" + key.substr(1) + R"(":2,")" + key + R"(":3}})"));
    }
    EXPECT_TRUE(ScanMatchesWalk(R"({"args":{"x":1,")" + key + R"(" :2}})"));
  }
  // The empty key's three bytes, "": against a key whose first byte is the only difference.
  ASSERT_TRUE(ScanMatchesWalk(R"({"args":{"x":1,"":2}})"));
  EXPECT_TRUE(ScanMatchesWalk(R"({"args":{"x":1,"k:":2,"":3}})"));
}

TEST_F(PlainEventTest, NestingLimit) {
  std::string deepest = R"({"args":{"x":)";
  deepest += std::string(kMaxPlainDepth, '[') + "1" + std::string(kMaxPlainDepth, ']') + "}}";
  EXPECT_TRUE(ScanMatchesWalk(deepest));
  std::string deeper = R"({"args":{"x":)";
  deeper +=
      std::string(kMaxPlainDepth + 1, '[') + "1" + std::string(kMaxPlainDepth + 1, ']') + "}}";
  EXPECT_FALSE(ScanMatchesWalk(deeper));
}

}  // namespace
}  // namespace rblnsim::trace::import
