// The trace index's launch table and the analyses built on it read the current dialect: "rbln
// launch" markers as launches, NPU-row activities as device slices by launch_id, lanes by kind;
// and the device work that outlives the capture window.
#include "profiler/index/trace_index.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "profiler/analysis/contract_checks.h"
#include "profiler/analysis/dialect_rules.h"
#include "profiler/analysis/latency_report.h"
#include "profiler/analysis/launch_latency.h"
#include "profiler/analysis/window_overrun.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "tests/unit/analysis/current_trace.h"
#include "tests/unit/import/kineto_json_builder.h"

namespace rblnsim::analysis {
namespace {

using testing::CurrentMarker;
using testing::CurrentTrace;
using testing::FindEvent;
using testing::ValidCurrentTrace;
using trace::Trace;

// Events named |names|, in order: a table interns the names of a trace's events.
std::vector<trace::Event> NamedEvents(const std::vector<std::string>& names) {
  std::vector<trace::Event> events(names.size());
  for (size_t i = 0; i < names.size(); ++i)
    events[i].name = names[i];
  return events;
}

// Names are interned once each, in first-appearance order, also when the table regrows many
// times over (a trace has a distinct device slice name per launch).
TEST(NameTableTest, InternsEachNameOnceAndFindsEveryOne) {
  std::vector<std::string> names;
  for (int i = 0; i < 100'000; ++i)
    names.push_back("i" + std::to_string(i) + "_0_W0_mm_" + std::to_string(i % 7));
  const size_t unique = names.size();
  names.push_back("");
  names.push_back(names[12'345]);
  const std::vector<trace::Event> events = NamedEvents(names);
  index::NameTable table(&events);
  EXPECT_EQ(table.Find("absent"), index::kNone);
  for (uint32_t i = 0; i < unique; ++i)
    ASSERT_EQ(table.Intern(i), i);
  EXPECT_EQ(table.Intern(unique), unique);       // ""
  EXPECT_EQ(table.Intern(unique + 1), 12'345u);  // a repeat gets the first id
  EXPECT_EQ(table.size(), unique + 1);
  for (size_t i = 0; i < unique; i += 997)
    EXPECT_EQ(table.Find(names[i]), i);
  EXPECT_EQ(table.Find(""), unique);
  EXPECT_EQ(table.Find("i1_0_W0_mm_2"), index::kNone);  // a near miss
  EXPECT_EQ(table.text(42), names[42]);
  EXPECT_EQ(table.text(12'345), names[12'345]);
}

// From kEventsForNameThread events on, the names are interned on a second thread while the
// other columns are filled: the ids must be those of one thread interning in trace order.
TEST(NameTableTest, ALargeTraceInternsOnASecondThreadInTraceOrder) {
  Trace trace;
  const size_t n = index::TraceIndex::kEventsForNameThread + 1000;
  for (size_t i = 0; i < n; ++i) {
    trace::Event& e = trace.events.emplace_back();
    // Host op names repeat; device slice names are new every few events.
    e.name = i % 3 == 0 ? "aten::mm" : (i % 3 == 1 ? "slice_" + std::to_string(i / 3) : "rbln");
    e.ts_ns = static_cast<int64_t>(i);
    e.category = i % 3 == 1 ? trace::Category::kKernel : trace::Category::kCpuOp;
  }
  auto index = index::TraceIndex::Build(trace);
  ASSERT_TRUE(index.ok()) << index.status().message();
  index::NameTable one_thread(&trace.events);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t id = one_thread.Intern(i);
    ASSERT_EQ(index->events().name[i], id) << i;
    ASSERT_EQ(index->Name(i), std::string_view(trace.events[i].name)) << i;
  }
  EXPECT_EQ(index->names().size(), one_thread.size());
  EXPECT_EQ(index->names().Find("slice_77"), one_thread.Find("slice_77"));
  // The forest, built after the names, reads them.
  ASSERT_GT(index->forest().size(), 0u);
  EXPECT_EQ(index->names().text(index->forest().name[0]), "aten::mm");
}

// Events named "n0" ... "n<count - 1>".
std::vector<trace::Event> NumberedEvents(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i)
    names.push_back("n" + std::to_string(i));
  return NamedEvents(names);
}

// Interns the names of the first |count| events, each a new id in order.
void InternFirst(int count, index::NameTable* table) {
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(table->Intern(static_cast<uint32_t>(i)), static_cast<uint32_t>(i));
}

// Reserving slots for more names keeps every id and finds every name already interned.
TEST(NameTableTest, ReservingSlotsKeepsTheNames) {
  const std::vector<trace::Event> events = NumberedEvents(1001);
  index::NameTable table(&events);
  InternFirst(1000, &table);
  table.ReserveSlots(200'000);
  table.ReserveSlots(10);  // never shrinks
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(table.Find("n" + std::to_string(i)), static_cast<uint32_t>(i));
  EXPECT_EQ(table.Intern(1000), 1000u);
  EXPECT_EQ(table.Intern(7), 7u);
}

// A built index keeps its names but not the probe table it interned them with; the table still
// answers, and interns more, without it.
TEST(NameTableTest, ReleasedSlotsKeepIdsAndLookups) {
  const std::vector<trace::Event> events = NumberedEvents(101);
  index::NameTable table(&events);
  InternFirst(100, &table);
  ASSERT_GT(table.slot_bytes(), 0u);
  table.ReleaseSlots();
  EXPECT_EQ(table.slot_bytes(), 0u);
  EXPECT_EQ(table.Find("n42"), 42u);
  EXPECT_EQ(table.Find("absent"), index::kNone);
  EXPECT_EQ(table.Intern(7), 7u);
  EXPECT_EQ(table.Intern(100), 100u);
  EXPECT_EQ(table.Find("n99"), 99u);
  EXPECT_EQ(table.text(100), "n100");

  Trace trace;
  for (int i = 0; i < 1000; ++i) {
    trace::Event& e = trace.events.emplace_back();
    e.name = "slice_" + std::to_string(i);
    e.category = trace::Category::kKernel;
  }
  auto index = index::TraceIndex::Build(trace);
  ASSERT_TRUE(index.ok()) << index.status().message();
  EXPECT_EQ(index->names().slot_bytes(), 0u);
  EXPECT_EQ(index->names().Find("slice_999"), 999u);
}

// Many names looked up at once answer as Find does one at a time, with the probe table and after
// it is released (a scan of the ids then), names absent, repeated or at either end included.
TEST(NameTableTest, FindEachAnswersAsFind) {
  std::vector<trace::Event> events = NumberedEvents(200);
  const std::string long_name(70, 'x');  // past the lengths a scan tells apart by a bit
  events[150].name = long_name;
  index::NameTable table(&events);
  InternFirst(200, &table);
  const std::string absent_long_name(80, 'x');
  const std::string_view wanted[] = {"n199", "absent", "n0",      "n42",           "n42",
                                     "",     "n2000",  long_name, absent_long_name};
  for (int released = 0; released < 2; ++released) {
    SCOPED_TRACE(released);
    if (released == 1)
      table.ReleaseSlots();
    uint32_t ids[std::size(wanted)];
    table.FindEach(wanted, ids);
    for (size_t i = 0; i < std::size(wanted); ++i)
      EXPECT_EQ(ids[i], table.Find(wanted[i])) << wanted[i];
    EXPECT_EQ(ids[0], 199u);
    EXPECT_EQ(ids[1], index::kNone);
    EXPECT_EQ(ids[4], 42u);
    EXPECT_EQ(ids[7], 150u);
    EXPECT_EQ(ids[8], index::kNone);
  }
}

// A large trace's table is sized from samples of its events first. Whether its unique names
// come first or last, the ids are those of interning one name at a time.
TEST(NameTableTest, SlotsSizedFromASampleGiveTheSameIds) {
  for (const bool unique_first : {true, false}) {
    Trace trace;
    const size_t n = 300'000;
    for (size_t i = 0; i < n; ++i) {
      trace::Event& e = trace.events.emplace_back();
      const bool unique = (i < n / 2) == unique_first;
      e.name = unique ? "slice_" + std::to_string(i) : "aten::mm";
      e.ts_ns = static_cast<int64_t>(i);
      e.category = trace::Category::kKernel;
    }
    auto index = index::TraceIndex::Build(trace);
    ASSERT_TRUE(index.ok()) << index.status().message();
    index::NameTable one_at_a_time(&trace.events);
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(index->events().name[i], one_at_a_time.Intern(i)) << i;
    EXPECT_EQ(index->names().size(), one_at_a_time.size());
    EXPECT_EQ(index->names().Find("slice_299999"), one_at_a_time.Find("slice_299999"));
    EXPECT_EQ(index->names().Find("slice_0"), one_at_a_time.Find("slice_0"));
  }
}

TEST(DialectTest, DetectsEachDialect) {
  EXPECT_EQ(DetectDialect(ValidCurrentTrace(1)), Dialect::kCurrent);
  Trace markers_only = ValidCurrentTrace(1);
  markers_only.processes.clear();
  EXPECT_EQ(DetectDialect(markers_only), Dialect::kCurrent);
  Trace rows_only = ValidCurrentTrace(0);
  EXPECT_EQ(DetectDialect(rows_only), Dialect::kCurrent);

  auto c_abi = trace::ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "v");
  ASSERT_TRUE(c_abi.ok());
  EXPECT_EQ(DetectDialect(c_abi->trace), Dialect::kCAbi);
  EXPECT_EQ(DetectDialect(Trace()), Dialect::kCAbi);
}

// The index tells the dialect the trace is written in from its own pass over the events, also
// when it reads the trace in the other one.
TEST(DialectTest, TheIndexDetectsAsDetectDialectDoes) {
  Trace markers_only = ValidCurrentTrace(1);
  markers_only.processes.clear();
  auto c_abi = trace::ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "v");
  ASSERT_TRUE(c_abi.ok());
  for (const Trace* t : {&markers_only, &c_abi->trace}) {
    const Trace rows_only = ValidCurrentTrace(0);
    for (const Trace* trace : {t, &rows_only}) {
      for (const Dialect read_as : {Dialect::kCAbi, Dialect::kCurrent}) {
        auto index = index::TraceIndex::Build(*trace, read_as);
        ASSERT_TRUE(index.ok());
        EXPECT_EQ(index->dialect(), read_as);
        EXPECT_EQ(index->DetectedDialect(), DetectDialect(*trace));
      }
    }
  }
  auto index = index::TraceIndex::Build(markers_only, Dialect::kCAbi);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->DetectedDialect(), Dialect::kCurrent);
  index = index::TraceIndex::Build(c_abi->trace, Dialect::kCurrent);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->DetectedDialect(), Dialect::kCAbi);
}

TEST(DialectTest, LanesAndMarkers) {
  EXPECT_EQ(LaneOfCategory(trace::Category::kKernel), LaneKind::kCompute);
  EXPECT_EQ(LaneOfCategory(trace::Category::kGpuMemcpy), LaneKind::kCopy);
  EXPECT_EQ(LaneOfCategory(trace::Category::kPrivateUse1Runtime), LaneKind::kHost);
  EXPECT_EQ(LaneOfCategory(trace::Category::kPrivateUse1Driver), LaneKind::kCollective);
  EXPECT_EQ(LaneOfCategory(trace::Category::kCpuOp), std::nullopt);
  EXPECT_EQ(LaneName(LaneKind::kCollective), "collective");
  EXPECT_EQ(LaneFromName("copy"), LaneKind::kCopy);
  EXPECT_EQ(LaneFromName("lane 7"), std::nullopt);
  EXPECT_TRUE(InFlowBlock(0xF0000000u));
  EXPECT_TRUE(InFlowBlock(0xF0FFFFFFu));
  EXPECT_FALSE(InFlowBlock(0xF1000000u));
  EXPECT_FALSE(InFlowBlock(0xEFFFFFFFu));
  Trace t = ValidCurrentTrace(1);
  EXPECT_TRUE(IsLaunchMarker(CurrentMarker(t, 0)));
  EXPECT_FALSE(IsLaunchMarker(FindEvent(t, CurrentTrace::HostStep(0))));
}

// The position of the event named |name| in |t|.
size_t EventIndex(const Trace& t, const std::string& name) {
  for (size_t i = 0; i < t.events.size(); ++i) {
    if (t.events[i].name == name)
      return i;
  }
  ADD_FAILURE() << "no event " << name;
  return 0;
}

TEST(LaunchTableTest, ReadsCurrentLaunches) {
  const Trace t = ValidCurrentTrace(3);
  auto built = index::TraceIndex::Build(t);
  ASSERT_TRUE(built.ok());
  const index::TraceIndex& index = *built;
  const index::LaunchTable& table = index.launches();
  EXPECT_EQ(index.dialect(), Dialect::kCurrent);
  ASSERT_EQ(table.markers.size(), 3u);
  ASSERT_EQ(table.markers_by_launch.size(), 3u);
  ASSERT_EQ(table.slices_by_launch.size(), 3u);
  for (const auto& [id, slices] : table.slices_by_launch) {
    EXPECT_EQ(slices.size(), 3u) << id;  // copy, host step and kernel, all on the NPU row
    for (size_t s : slices) {
      EXPECT_TRUE(index.events().Has(s, index::kOffHost));
      EXPECT_EQ(t.events[s].pid, CurrentTrace::kNpuPid);
      EXPECT_EQ(index.LaunchId(s), id);
    }
  }
  for (size_t m : table.markers) {
    const auto op = index.LauncherOf(m);
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(t.events[*op].name.rfind("aten::linear#", 0), 0u);
  }
  EXPECT_EQ(index.LaneOf(EventIndex(t, CurrentTrace::Kernel(0))), LaneKind::kCompute);
  EXPECT_EQ(index.LaneOf(EventIndex(t, CurrentTrace::Copy(0))), LaneKind::kCopy);
  EXPECT_EQ(index.LaneOf(EventIndex(t, CurrentTrace::HostStep(0))), LaneKind::kHost);
  EXPECT_EQ(index.LaneOf(EventIndex(t, CurrentTrace::Op(0))), std::nullopt);
}

TEST(LaunchTableTest, ForcedCAbiReadingSeesNoMarkers) {
  const Trace t = ValidCurrentTrace(2);
  auto index = index::TraceIndex::Build(t, Dialect::kCAbi);
  ASSERT_TRUE(index.ok());
  EXPECT_TRUE(index->launches().markers.empty());
  EXPECT_TRUE(index->launches().npu_lanes.empty());
  EXPECT_EQ(index->launches().slices_by_launch.size(), 2u);
  // The host forest does not depend on the dialect: both markers still have their op.
  EXPECT_EQ(index->forest().markers, 2u);
}

TEST(LaunchTableTest, CAbiTraceIsReadAsBefore) {
  auto imported = trace::ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "v");
  ASSERT_TRUE(imported.ok());
  auto index = index::TraceIndex::Build(imported->trace);
  ASSERT_TRUE(index.ok());
  const index::LaunchTable& table = index->launches();
  EXPECT_EQ(index->dialect(), Dialect::kCAbi);
  ASSERT_EQ(table.markers.size(), 1u);
  EXPECT_EQ(imported->trace.events[table.markers[0]].name, "rbln_run");
  EXPECT_EQ(table.slices_by_launch.at(1).size(), 2u);
  EXPECT_TRUE(table.npu_lanes.empty());
}

// `rblnsim check` builds its index without names (TraceIndex::Parts): everything else must be
// what a full build gives, and so must the contract's report, on a trace large enough for the
// names' own thread and on traces of both dialects with rules broken.
// Returns whether the contract held.
bool ExpectSameIndexWithoutNames(const Trace& t) {
  auto full = index::TraceIndex::Build(t, trace::DetectDialect(t));
  auto bare = index::TraceIndex::Build(t, trace::DetectDialect(t), {.names = false});
  if (!full.ok() || !bare.ok()) {
    ADD_FAILURE() << "the index was not built";
    return false;
  }
  EXPECT_TRUE(full->has_names());
  EXPECT_FALSE(bare->has_names());
  EXPECT_EQ(bare->names().size(), 0u);
  EXPECT_TRUE(bare->events().name.empty());
  EXPECT_TRUE(bare->forest().name.empty());
  EXPECT_EQ(bare->events().size(), t.events.size());
  EXPECT_EQ(bare->events().category, full->events().category);
  EXPECT_EQ(bare->events().row, full->events().row);
  EXPECT_EQ(bare->events().id, full->events().id);
  EXPECT_EQ(bare->events().flags, full->events().flags);
  EXPECT_EQ(bare->events().node, full->events().node);
  EXPECT_EQ(bare->rows(), full->rows());
  EXPECT_EQ(bare->forest().event, full->forest().event);
  EXPECT_EQ(bare->forest().parent, full->forest().parent);
  EXPECT_EQ(bare->forest().end, full->forest().end);
  EXPECT_EQ(bare->forest().kind, full->forest().kind);
  EXPECT_EQ(bare->launches().markers, full->launches().markers);
  auto slices_of = [](const index::TraceIndex& index) {
    std::vector<std::pair<int64_t, std::vector<size_t>>> all;
    for (const auto& [id, slices] : index.launches().slices_by_launch)
      all.emplace_back(id, std::vector<size_t>(slices.begin(), slices.end()));
    return all;
  };
  EXPECT_EQ(slices_of(*bare), slices_of(*full));
  const CheckOptions options;
  const CheckReport report = CheckContract(*full, options);
  EXPECT_EQ(FormatCheckReportJson(CheckContract(*bare, options)), FormatCheckReportJson(report));
  return report.passed;
}

TEST(TraceIndexTest, AnIndexWithoutNamesHasEverythingElse) {
  Trace current = ValidCurrentTrace(4);
  EXPECT_TRUE(ExpectSameIndexWithoutNames(current));
  current.events.erase(current.events.begin() +
                       static_cast<std::ptrdiff_t>(EventIndex(current, CurrentTrace::Kernel(1))));
  CurrentMarker(current, 2).ts_ns += 10 * CurrentTrace::kLaunchPeriodNs;  // out of its op
  EXPECT_FALSE(ExpectSameIndexWithoutNames(current));
  auto c_abi = trace::ImportChromeTraceFromBuffer(testing::ValidLaunchBuilder().Build(), "v");
  ASSERT_TRUE(c_abi.ok());
  EXPECT_TRUE(ExpectSameIndexWithoutNames(c_abi->trace));
  c_abi->trace.events.erase(c_abi->trace.events.begin() +
                            static_cast<std::ptrdiff_t>(EventIndex(c_abi->trace, "rbln_run")));
  EXPECT_FALSE(ExpectSameIndexWithoutNames(c_abi->trace));
  Trace large;
  for (size_t i = 0; i < index::TraceIndex::kEventsForNameThread + 100; ++i) {
    trace::Event& e = large.events.emplace_back();
    e.name = i % 2 == 0 ? "aten::mm" : "slice_" + std::to_string(i);
    e.ts_ns = static_cast<int64_t>(i);
    e.dur_ns = 1;
    e.category = i % 2 == 0 ? trace::Category::kCpuOp : trace::Category::kKernel;
  }
  ExpectSameIndexWithoutNames(large);
}

TEST(LaunchLatencyTest, CurrentMarkersAreLaunches) {
  const Trace t = ValidCurrentTrace(2);
  auto index = index::TraceIndex::Build(t);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->forest().markers, 2u);
  const LatencyReport report = AnalyzeLaunchLatency(*index, LatencyOptions());
  EXPECT_EQ(report.marker_name, "rbln launch");
  ASSERT_EQ(report.launches.size(), 2u);
  for (const LaunchLatency& l : report.launches) {
    // The copy starts 1 µs after the zero-length marker; the host step (privateuse1_runtime) is
    // host work and, as in the c-abi dialect, no device slice.
    EXPECT_EQ(l.device_slices, 2u);
    EXPECT_EQ(l.submission_latency_ns(), 1'000);
    EXPECT_EQ(l.launch_delay_ns(), 1'000);
    EXPECT_EQ(report.op_names[l.op].rfind("aten::linear#", 0), 0u);
  }
  EXPECT_EQ(report.slices_without_marker, 0);
  const std::string text = FormatLatencyReportText(report);
  EXPECT_NE(text.find("submission = first device slice - rbln launch start"), std::string::npos)
      << text;
}

TEST(WindowOverrunTest, CountsDeviceWorkAfterTheWindow) {
  Trace t = ValidCurrentTrace(2);
  // The index reads the trace it was built on, so the window can move under it.
  auto built = index::TraceIndex::Build(t);
  ASSERT_TRUE(built.ok());
  const index::TraceIndex& indexed = *built;
  const int64_t kernel_end = FindEvent(t, CurrentTrace::Kernel(1)).end_ns();
  EXPECT_EQ(FindWindowOverrun(indexed, true).after_window, 0);
  EXPECT_EQ(FormatWindowOverrunText(FindWindowOverrun(indexed, true)), "");

  t.capture_end_ns = kernel_end - 1'500;
  const WindowOverrun overrun = FindWindowOverrun(indexed, HasCaptureWindow(t, false));
  EXPECT_TRUE(overrun.window_known);
  EXPECT_EQ(overrun.device_work, 6);  // 3 activities per launch, host steps included
  EXPECT_EQ(overrun.after_window, 1);
  EXPECT_EQ(overrun.worst_overrun_ns, 1'500);
  EXPECT_EQ(FormatWindowOverrunText(overrun),
            "device work after the capture window: 1 of 6 device slices end after it, the worst "
            "by 1.500us (Kineto drops records outside its window)\n");

  EXPECT_FALSE(HasCaptureWindow(t, /*window_from_events=*/true));
  EXPECT_EQ(FindWindowOverrun(indexed, false).after_window, 0);
}

}  // namespace
}  // namespace rblnsim::analysis
