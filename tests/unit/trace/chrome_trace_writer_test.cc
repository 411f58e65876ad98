#include "profiler/trace/chrome_trace_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace rblnsim::trace {
namespace {

namespace fs = std::filesystem;
using OrderedJson = nlohmann::ordered_json;

constexpr int64_t kBaseNs = 1743521598000000000;
constexpr int64_t kCaptureStartNs = kBaseNs + 5100000000000;

Event MakeEvent(Category category,
                std::string name,
                int64_t pid,
                int64_t tid,
                int64_t ts_rel_ns,
                int64_t dur_ns,
                std::vector<Arg> args) {
  Event event;
  event.category = category;
  event.name = name;
  event.pid = pid;
  event.tid = tid;
  event.ts_ns = kBaseNs + ts_rel_ns;
  event.dur_ns = dur_ns;
  event.args = args;
  return event;
}

// The trace of reference §2.6: one aten::add launching one kernel through rblnLaunchKernel.
Trace ExampleTrace() {
  Trace trace;
  trace.base_time_ns = kBaseNs;
  trace.capture_start_ns = kCaptureStartNs;
  trace.capture_end_ns = kCaptureStartNs + 500000;
  trace.metadata.push_back({"record_shapes", RawJson{"0"}});
  trace.processes = {{0, "RBLN", "RBLN 0", 5000000}, {4321, "python3", "CPU", 4321}};
  trace.threads = {{4321, 4321, "thread 4321 (python3)", 4321}, {0, 7, "stream 7", 7}};
  trace.events.push_back(MakeEvent(
      Category::kCpuOp, "aten::add", 4321, 4321, 5100000123456, 25000,
      {{"External id", int64_t{12}}, {"Record function id", int64_t{0}}, {"Ev Idx", int64_t{11}}}));
  Event runtime =
      MakeEvent(Category::kPrivateUse1Runtime, "rblnLaunchKernel", 4321, 4321, 5100000130100, 10000,
                {{"External id", int64_t{12}}, {"correlation", int64_t{3001}}});
  runtime.flow_id = 3001;
  runtime.flow_role = FlowRole::kStart;
  trace.events.push_back(runtime);
  Event kernel = MakeEvent(Category::kKernel, "add_kernel_f32", 0, 7, 5100000152300, 12500,
                           {{"External id", int64_t{12}},
                            {"device", int64_t{0}},
                            {"stream", int64_t{7}},
                            {"correlation", int64_t{3001}},
                            {"queued", int64_t{0}}});
  kernel.flow_id = 3001;
  kernel.flow_role = FlowRole::kFinish;
  trace.events.push_back(kernel);
  trace.trace_name = "rbln_trace.json";
  return trace;
}

std::string Write(const Trace& trace) {
  StringSink sink;
  const Status status = WriteChromeTrace(trace, sink);
  EXPECT_TRUE(status.ok()) << status.message();
  return sink.text();
}

OrderedJson Parse(const std::string& text) {
  OrderedJson document = OrderedJson::parse(text, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(document.is_discarded()) << text;
  return document;
}

// Absolute ns back from a parsed µs number; a double holds these values to well below 1 ns.
int64_t AbsoluteNs(const OrderedJson& us) {
  return kBaseNs + std::llround(us.get<double>() * 1000.0);
}

TEST(ChromeTraceWriter, GoldenExampleLayout) {
  const std::string expected = R"json({
  "schemaVersion": 1,
  "deviceProperties": [],
  "record_shapes": 0,
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1743521598000000000,
  "traceEvents": [
    {"name":"process_name","ph":"M","ts":5100000000.000,"pid":0,"tid":0,"args":{"name":"RBLN"}},
    {"name":"process_labels","ph":"M","ts":5100000000.000,"pid":0,"tid":0,"args":{"labels":"RBLN 0"}},
    {"name":"process_sort_index","ph":"M","ts":5100000000.000,"pid":0,"tid":0,"args":{"sort_index":5000000}},
    {"name":"process_name","ph":"M","ts":5100000000.000,"pid":4321,"tid":0,"args":{"name":"python3"}},
    {"name":"process_labels","ph":"M","ts":5100000000.000,"pid":4321,"tid":0,"args":{"labels":"CPU"}},
    {"name":"process_sort_index","ph":"M","ts":5100000000.000,"pid":4321,"tid":0,"args":{"sort_index":4321}},
    {"name":"thread_name","ph":"M","ts":5100000000.000,"pid":4321,"tid":4321,"args":{"name":"thread 4321 (python3)"}},
    {"name":"thread_sort_index","ph":"M","ts":5100000000.000,"pid":4321,"tid":4321,"args":{"sort_index":4321}},
    {"name":"thread_name","ph":"M","ts":5100000000.000,"pid":0,"tid":7,"args":{"name":"stream 7"}},
    {"name":"thread_sort_index","ph":"M","ts":5100000000.000,"pid":0,"tid":7,"args":{"sort_index":7}},
    {"ph":"X","cat":"cpu_op","name":"aten::add","pid":4321,"tid":4321,"ts":5100000123.456,"dur":25.000,"args":{"External id":12,"Record function id":0,"Ev Idx":11}},
    {"ph":"X","cat":"privateuse1_runtime","name":"rblnLaunchKernel","pid":4321,"tid":4321,"ts":5100000130.100,"dur":10.000,"args":{"External id":12,"correlation":3001}},
    {"ph":"s","id":3001,"pid":4321,"tid":4321,"ts":5100000130.100,"cat":"ac2g","name":"ac2g"},
    {"ph":"X","cat":"kernel","name":"add_kernel_f32","pid":0,"tid":7,"ts":5100000152.300,"dur":12.500,"args":{"External id":12,"device":0,"stream":7,"correlation":3001,"queued":0}},
    {"ph":"f","id":3001,"pid":0,"tid":7,"ts":5100000152.300,"cat":"ac2g","name":"ac2g","bp":"e"},
    {"ph":"X","cat":"Trace","ts":5100000000.000,"dur":500.000,"pid":"Spans","tid":"PyTorch Profiler","name":"PyTorch Profiler (0)","args":{"Op count":0}},
    {"name":"process_sort_index","ph":"M","ts":5100000000.000,"pid":"Spans","tid":0,"args":{"sort_index":536870912}},
    {"name":"Iteration Start: PyTorch Profiler","ph":"i","s":"g","pid":"Traces","tid":"Trace PyTorch Profiler","ts":5100000000.000},
    {"name":"Record Window End","ph":"i","s":"g","pid":"","tid":"","ts":5100000500.000}
  ],
  "traceName": "rbln_trace.json"
}
)json";
  EXPECT_EQ(Write(ExampleTrace()), expected);
}

// Events handed over in batches, whatever their sizes, give the bytes of the whole trace: the
// head and the tail come from the frame, whose own events the stream does not read.
TEST(ChromeTraceWriter, BatchesGiveTheWholeTracesBytes) {
  Trace trace = ExampleTrace();
  trace.metadata.push_back({"WARNING", RawJson{"\"written after traceEvents\""}});
  for (int i = 0; i < 5; ++i) {
    trace.events.push_back(MakeEvent(Category::kKernel, "k" + std::to_string(i), 0, 7,
                                     5100000160000 + i * 1000, 500, {{"device", int64_t{0}}}));
  }
  const std::string whole = Write(trace);
  Trace frame = trace;
  frame.events.clear();
  for (const size_t batch : {size_t{1}, size_t{2}, size_t{3}, trace.events.size()}) {
    StringSink sink;
    ChromeTraceStream stream(frame, frame.trace_name, &sink);
    const std::span<const Event> events(trace.events);
    for (size_t at = 0; at < events.size(); at += batch)
      stream.Add(events.subspan(at, std::min(batch, events.size() - at)));
    ASSERT_TRUE(stream.Finish().ok());
    EXPECT_EQ(sink.text(), whole) << "batches of " << batch;
  }
  // Nothing added: the rows and Kineto's closing events still make a whole document.
  StringSink empty;
  ChromeTraceStream stream(frame, frame.trace_name, &empty);
  ASSERT_TRUE(stream.Finish().ok());
  EXPECT_EQ(empty.text(), Write(frame));
}

TEST(ChromeTraceWriter, RoundTripsThroughAStrictParser) {
  Trace trace = ExampleTrace();
  const std::vector<std::string> names = {"quote\" back\\slash", "ctl\x01\x1f\n\t", "µs 한국어 🚀",
                                          "bad\xFF"
                                          "byte"};
  for (size_t i = 0; i < names.size(); ++i) {
    trace.events.push_back(MakeEvent(Category::kUserAnnotation, names[i], 4321, 4321,
                                     5100000200000 + static_cast<int64_t>(i),
                                     static_cast<int64_t>(i) * 1001,
                                     {{"int", std::numeric_limits<int64_t>::max()},
                                      {"neg", std::numeric_limits<int64_t>::min()},
                                      {"tenth", 0.1},
                                      {"whole", 2.0},
                                      {"nan", std::nan("")},
                                      {"inf", std::numeric_limits<double>::infinity()},
                                      {"flag", true},
                                      {"text", std::string("a\"b\\c\n")},
                                      {"raw", RawJson{"[1,{\"k\":null}]"}},
                                      {"empty raw", RawJson{""}}}));
  }
  const OrderedJson document = Parse(Write(trace));
  ASSERT_TRUE(document.is_object());

  std::vector<std::string> keys;
  for (const auto& item : document.items())
    keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schemaVersion", "deviceProperties", "record_shapes",
                                            "displayTimeUnit", "baseTimeNanoseconds", "traceEvents",
                                            "traceName"}));
  EXPECT_EQ(document["baseTimeNanoseconds"].get<int64_t>(), kBaseNs);

  std::vector<OrderedJson> slices;
  for (const OrderedJson& event : document["traceEvents"]) {
    if (event["ph"] == "X" && event["cat"] != "Trace")
      slices.push_back(event);
  }
  ASSERT_EQ(slices.size(), trace.events.size());
  for (size_t i = 0; i < slices.size(); ++i) {
    const Event& event = trace.events[i];
    const OrderedJson& slice = slices[i];
    EXPECT_EQ(slice["cat"].get<std::string>(), event.cat());
    EXPECT_EQ(AbsoluteNs(slice["ts"]), event.ts_ns);
    EXPECT_EQ(std::llround(slice["dur"].get<double>() * 1000.0), event.dur_ns);
    EXPECT_EQ(slice["pid"].get<int64_t>(), event.pid);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const OrderedJson& slice = slices[3 + i];
    const std::string expected_name = i == 3 ? "bad\xEF\xBF\xBD"
                                               "byte"
                                             : names[i];
    EXPECT_EQ(slice["name"].get<std::string>(), expected_name);
    const OrderedJson& args = slice["args"];
    EXPECT_EQ(args["int"].get<int64_t>(), std::numeric_limits<int64_t>::max());
    EXPECT_EQ(args["neg"].get<int64_t>(), std::numeric_limits<int64_t>::min());
    EXPECT_TRUE(args["tenth"].is_number_float());
    EXPECT_EQ(args["tenth"].get<double>(), 0.1);
    EXPECT_TRUE(args["whole"].is_number_float());
    EXPECT_TRUE(args["nan"].is_null());
    EXPECT_TRUE(args["inf"].is_null());
    EXPECT_EQ(args["flag"], true);
    EXPECT_EQ(args["text"].get<std::string>(), "a\"b\\c\n");
    EXPECT_EQ(args["raw"].dump(), R"([1,{"k":null}])");
    EXPECT_TRUE(args["empty raw"].is_null());
  }
}

TEST(ChromeTraceWriter, ClampsNegativeTimesAndWritesInstants) {
  Trace trace = ExampleTrace();
  trace.events.clear();
  trace.events.push_back(MakeEvent(Category::kCpuOp, "negative dur", 1, 1, 1000, -5, {}));
  trace.events.push_back(MakeEvent(Category::kCpuOp, "before base", 1, 1, -2000, 10, {}));
  Event instant = MakeEvent(Category::kOther, "[memory]", 1, 1, 3000, 0, {{"Bytes", int64_t{64}}});
  instant.phase = Phase::kInstant;
  instant.cat_text = "cpu_instant_event";
  trace.events.push_back(instant);
  const std::string text = Write(trace);
  EXPECT_NE(text.find(R"("name":"negative dur","pid":1,"tid":1,"ts":1.000,"dur":0.000})"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(R"("name":"before base","pid":1,"tid":1,"ts":0.000,"dur":0.010})"),
            std::string::npos);
  EXPECT_NE(text.find(R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,)"
                      R"("tid":1,"ts":3.000,"args":{"Bytes":64}})"),
            std::string::npos);
  EXPECT_FALSE(Parse(text).is_discarded());
}

TEST(ChromeTraceWriter, MetadataKeysKeepKinetoPlaces) {
  Trace trace = ExampleTrace();
  trace.events.clear();
  trace.device_properties = {RawJson{R"({"id":0,"name":"RBLN-CR"})"}};
  trace.metadata = {{"host_name", RawJson{R"("node-1")"}},
                    {"WARNING", RawJson{R"(["GPU trace is empty!"])"}},
                    {"traceEvents", RawJson{"[]"}},  // would duplicate a key the writer owns
                    {"host_name", RawJson{R"("dup")"}}};
  const OrderedJson document = Parse(Write(trace));
  std::vector<std::string> keys;
  for (const auto& item : document.items())
    keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schemaVersion", "deviceProperties", "host_name",
                                            "displayTimeUnit", "baseTimeNanoseconds", "traceEvents",
                                            "WARNING", "traceName"}));
  EXPECT_EQ(document["host_name"], "node-1");
  EXPECT_EQ(document["deviceProperties"][0]["name"], "RBLN-CR");
}

TEST(ChromeTraceWriter, WritesFilesAtomicallyAndNamesThem) {
  const fs::path dir =
      fs::temp_directory_path() / ("chrome_trace_writer_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "out.json").string();
  Trace trace = ExampleTrace();
  trace.trace_name.clear();
  ASSERT_TRUE(WriteChromeTrace(trace, path).ok());
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  const OrderedJson document = Parse(content.str());
  EXPECT_EQ(document["traceName"], path);
  EXPECT_EQ(document["traceEvents"].size(), 19u);

  const std::string unwritable = (dir / "missing" / "out.json").string();
  const Status status = WriteChromeTrace(trace, unwritable);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(unwritable), std::string::npos);
  EXPECT_NE(status.message().find("No such file or directory"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rblnsim::trace
