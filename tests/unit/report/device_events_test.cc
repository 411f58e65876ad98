#include "profiler/report/device_events.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "profiler/index/trace_index.h"

namespace rblnsim::report {
namespace {

using trace::Category;
using trace::Event;

Event MakeEvent(Category category, std::string name, int64_t ts_ns, int64_t dur_ns) {
  Event event;
  event.category = category;
  event.name = name;
  event.ts_ns = ts_ns;
  event.dur_ns = dur_ns;
  return event;
}

std::vector<std::string> Names(const std::vector<const Event*>& events) {
  std::vector<std::string> names;
  for (const Event* event : events)
    names.push_back(event->name.str());
  return names;
}

// The trace's index; the caller keeps |trace| alive while it is used.
index::TraceIndex Indexed(const trace::Trace& trace) {
  return *index::TraceIndex::Build(trace);
}

TEST(DeviceEvents, PrivateUse1EventsInProfilerOrder) {
  trace::Trace trace;
  trace.events = {
      MakeEvent(Category::kCpuOp, "aten::mm", 0, 100),
      MakeEvent(Category::kKernel, "late", 50, 10),
      MakeEvent(Category::kGpuMemcpy, "short_at_10", 10, 5),
      MakeEvent(Category::kKernel, "long_at_10", 10, 20),  // same start, ends later: first
      MakeEvent(Category::kGpuMemset, "tie_a", 30, 5),
      MakeEvent(Category::kKernel, "tie_b", 30, 5),  // identical times: logging order
      MakeEvent(Category::kGpuUserAnnotation, "annotation", 40, 1),
      MakeEvent(Category::kPrivateUse1Runtime, "rbln_run", 5, 1),
  };
  trace.events.push_back(MakeEvent(Category::kKernel, "instant", 1, 0));
  trace.events.back().phase = trace::Phase::kInstant;
  EXPECT_EQ(Names(DeviceEvents(Indexed(trace))),
            (std::vector<std::string>{"long_at_10", "short_at_10", "tie_a", "tie_b", "annotation",
                                      "late"}));
}

TEST(DeviceEvents, LineLikeTheUserGuide) {
  trace::Trace trace;
  for (int call = 0; call < 3; ++call) {
    for (const char* step : {"args_0_0", "args_0_1", "args_0_2", "mm_0", "mm_1", "mm_2"}) {
      const int64_t ts = static_cast<int64_t>(trace.events.size()) * 100;
      trace.events.push_back(
          MakeEvent(Category::kKernel, "i1_" + std::to_string(call) + "_W0_" + step, ts, 50));
    }
  }
  EXPECT_EQ(FormatDeviceEventsLine(DeviceEvents(Indexed(trace)), 4),
            "18 device events, for example: ['i1_0_W0_args_0_0', 'i1_0_W0_args_0_1', "
            "'i1_0_W0_args_0_2', 'i1_0_W0_mm_0']");
  EXPECT_EQ(FormatDeviceEventsLine({}, 4), "0 device events, for example: []");
  const auto events = DeviceEvents(Indexed(trace));
  EXPECT_EQ(FormatDeviceEventsLine({events.begin(), events.begin() + 2}, 4),
            "2 device events, for example: ['i1_0_W0_args_0_0', 'i1_0_W0_args_0_1']");
  EXPECT_EQ(FormatDeviceEventsLine(events, 0), "18 device events, for example: []");
}

TEST(DeviceEvents, PythonStrRepr) {
  EXPECT_EQ(PythonStrRepr(""), "''");
  EXPECT_EQ(PythonStrRepr("mm_0"), "'mm_0'");
  EXPECT_EQ(PythonStrRepr("it's"), "\"it's\"");
  EXPECT_EQ(PythonStrRepr("say \"hi\""), "'say \"hi\"'");
  EXPECT_EQ(PythonStrRepr("both ' and \""), "'both \\' and \"'");
  EXPECT_EQ(PythonStrRepr("back\\slash"), "'back\\\\slash'");
  EXPECT_EQ(PythonStrRepr("a\nb\rc\td"), "'a\\nb\\rc\\td'");
  EXPECT_EQ(PythonStrRepr(std::string("nul\0x", 5)), "'nul\\x00x'");
  EXPECT_EQ(PythonStrRepr("\x01\x1b\x1f\x7f"), "'\\x01\\x1b\\x1f\\x7f'");
  EXPECT_EQ(PythonStrRepr("µs 한국어 🚀 é"), "'µs 한국어 🚀 é'");
  EXPECT_EQ(PythonStrRepr("\xC2\x85nbsp\xC2\xA0"), "'\\x85nbsp\\xa0'");
  EXPECT_EQ(PythonStrRepr("zero\xE2\x80\x8Bwidth"), "'zero\\u200bwidth'");
  EXPECT_EQ(PythonStrRepr("\xF3\xA0\x80\x81"), "'\\U000e0001'");
  EXPECT_EQ(PythonStrRepr("bad\xFF"), "'bad\xEF\xBF\xBD'");
}

}  // namespace
}  // namespace rblnsim::report
