// ConvertActivities: the current dialect's rows, lanes, categories, launch_id args, flow ids and
// block limit, markers, clock offset, window clipping, counters and determinism.
#include "profiler/bridge/activity_converter.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "profiler/trace/dialect.h"

namespace rblnsim::bridge {
namespace {

using rbln::runtime::Activities;
using rbln::runtime::Activity;
using rbln::runtime::Launch;
using trace::Category;
using trace::FlowRole;

// Steady and system deliberately far apart and not round, so any mix-up of the two shows.
constexpr int64_t kSteadyNs = 7'123'457;
constexpr int64_t kSystemNs = 1'700'000'000'123'456'789;
constexpr int64_t kOffsetNs = kSystemNs - kSteadyNs;
constexpr int64_t kConvertWindowNs = 1'000'000;
constexpr int32_t kHostPid = 4242;
constexpr int32_t kHostTid = 4243;

ConvertWindow Window() {
  ConvertWindow window;
  window.offset_ns = kOffsetNs;
  window.capture_start_ns = kSystemNs;
  window.capture_end_ns = kSystemNs + kConvertWindowNs;
  return window;
}

// An activity |start|..|end| ns after the steady anchor.
Activity Make(Activity::Kind kind,
              uint32_t device,
              std::string name,
              int64_t start,
              int64_t end,
              uint64_t launch) {
  Activity activity;
  activity.kind = kind;
  activity.device = device;
  activity.name = std::move(name);
  activity.start_ns = kSteadyNs + start;
  activity.end_ns = kSteadyNs + end;
  activity.launch = launch;
  return activity;
}

Launch MakeLaunch(uint64_t id, int64_t at) {
  return Launch{id, kSteadyNs + at, kHostPid, kHostTid};
}

// Two launches (ids 11 and 12) on NPU 0, one activity of every kind, NPU 1 with a copy only.
Activities Sample() {
  Activities in;
  in.launches = {MakeLaunch(11, 100), MakeLaunch(12, 300)};
  in.activities = {
      Make(Activity::Kind::kCopy, 0, "i1_0_W0_args_0_0", 110, 150, 11),
      Make(Activity::Kind::kDevice, 0, "i1_0_W0_mm_0", 150, 250, 11),
      Make(Activity::Kind::kHost, 0, "rt_prepare", 305, 310, 12),
      Make(Activity::Kind::kCollective, 0, "sync_0", 310, 320, 12),
      Make(Activity::Kind::kCopy, 1, "h2d", 400, 450, 0),
  };
  return in;
}

const trace::Event* FindEvent(const BridgeResult& result, std::string_view name) {
  for (const trace::Event& event : result.events)
    if (event.name == name)
      return &event;
  return nullptr;
}

std::vector<const trace::Event*> Markers(const BridgeResult& result) {
  std::vector<const trace::Event*> markers;
  for (const trace::Event& event : result.events)
    if (trace::IsLaunchMarker(event, trace::Dialect::kCurrent))
      markers.push_back(&event);
  return markers;
}

TEST(ActivityConverterTest, OneNpuRowPerDeviceAndOneLanePerKindThatOccurs) {
  const BridgeResult result = ConvertActivities(Sample(), Window());
  ASSERT_EQ(result.processes.size(), 2u);
  EXPECT_EQ(result.processes[0].pid, 0);
  EXPECT_EQ(result.processes[0].name, "NPU 0");
  EXPECT_EQ(result.processes[0].sort_index, 5'000'000);
  EXPECT_EQ(result.processes[1].pid, 1);
  EXPECT_EQ(result.processes[1].name, "NPU 1");
  EXPECT_EQ(result.processes[1].sort_index, 5'000'001);

  ASSERT_EQ(result.threads.size(), 5u);
  const std::vector<std::pair<int64_t, int64_t>> keys = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}};
  const std::vector<std::string> names = {"compute", "copy", "host", "collective", "copy"};
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(result.threads[i].pid, keys[i].first) << i;
    EXPECT_EQ(result.threads[i].tid, keys[i].second) << i;
    EXPECT_EQ(result.threads[i].name, names[i]) << i;
    EXPECT_EQ(result.threads[i].sort_index, keys[i].second) << i;
  }
}

// Room for the caller's own events (ConvertWindow::spare_events) is kept in the events' array.
TEST(ActivityConverterTest, TheEventsKeepTheSpareRoomAskedFor) {
  ConvertWindow window = Window();
  window.spare_events = 500;
  const BridgeResult result = ConvertActivities(Sample(), window);
  ASSERT_FALSE(result.events.empty());
  EXPECT_GE(result.events.capacity(), result.events.size() + 500);
}

TEST(ActivityConverterTest, LanesTakingTurnsEachGetOneRow) {
  Activities in;
  in.launches = {MakeLaunch(11, 100)};
  int64_t at = 110;
  for (const auto& [kind, device] : {std::pair{Activity::Kind::kDevice, 0u},
                                     {Activity::Kind::kCopy, 0u},
                                     {Activity::Kind::kDevice, 0u},
                                     {Activity::Kind::kCopy, 2u},
                                     {Activity::Kind::kDevice, 0u},
                                     {Activity::Kind::kCopy, 0u}}) {
    in.activities.push_back(Make(kind, device, "a", at, at + 5, 11));
    at += 10;
  }
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  ASSERT_EQ(result.processes.size(), 2u);
  EXPECT_EQ(result.processes[0].pid, 0);
  EXPECT_EQ(result.processes[1].pid, 2);
  ASSERT_EQ(result.threads.size(), 3u);
  using Lane = std::pair<int64_t, int64_t>;
  auto lane = [&](size_t i) { return Lane(result.threads[i].pid, result.threads[i].tid); };
  EXPECT_EQ(lane(0), Lane(0, 0));
  EXPECT_EQ(lane(1), Lane(0, 1));
  EXPECT_EQ(lane(2), Lane(2, 1));
}

TEST(ActivityConverterTest, TheLaunchingHostProcessIsNeverADeviceRow) {
  const BridgeResult result = ConvertActivities(Sample(), Window());
  for (const trace::ProcessRow& row : result.processes)
    EXPECT_NE(row.pid, kHostPid);
  for (const trace::ThreadRow& row : result.threads)
    EXPECT_NE(row.pid, kHostPid);
  // The marker is on the host thread all the same.
  ASSERT_FALSE(Markers(result).empty());
  EXPECT_EQ(Markers(result)[0]->pid, kHostPid);
  EXPECT_EQ(Markers(result)[0]->tid, kHostTid);
}

TEST(ActivityConverterTest, KindsMapToCategoriesAndLaneTids) {
  const BridgeResult result = ConvertActivities(Sample(), Window());
  struct Expected {
    const char* name;
    Category category;
    int64_t tid;
  };
  for (const Expected& e : {Expected{"i1_0_W0_args_0_0", Category::kGpuMemcpy, 1},
                            Expected{"i1_0_W0_mm_0", Category::kKernel, 0},
                            Expected{"rt_prepare", Category::kPrivateUse1Runtime, 2},
                            Expected{"sync_0", Category::kPrivateUse1Driver, 3}}) {
    const trace::Event* event = FindEvent(result, e.name);
    ASSERT_NE(event, nullptr) << e.name;
    EXPECT_EQ(event->category, e.category) << e.name;
    EXPECT_EQ(event->tid, e.tid) << e.name;
    EXPECT_EQ(event->pid, 0) << e.name;
    EXPECT_EQ(event->phase, trace::Phase::kComplete);
    // Each lane's name is the one the dialect expects for the category.
    EXPECT_EQ(trace::LaneForCategory(event->category), event->tid) << e.name;
  }
}

TEST(ActivityConverterTest, OnlyLaunchIdIsAttachedAndOnlyForLaunchedWork) {
  const BridgeResult result = ConvertActivities(Sample(), Window());
  const trace::Event* mm = FindEvent(result, "i1_0_W0_mm_0");
  ASSERT_NE(mm, nullptr);
  ASSERT_EQ(mm->args.size(), 1u);
  EXPECT_EQ(mm->args[0].key, "launch_id");
  EXPECT_EQ(mm->args[0].value, trace::ArgValue(int64_t{11}));
  // In the result's pool, as every launch_id of a window: one small block each, no heap block.
  ASSERT_NE(result.arg_pool, nullptr);
  EXPECT_TRUE(mm->args.pooled());
  ASSERT_FALSE(Markers(result).empty());
  EXPECT_TRUE(Markers(result)[0]->args.pooled());
  const trace::Event* h2d = FindEvent(result, "h2d");
  ASSERT_NE(h2d, nullptr);
  EXPECT_TRUE(h2d->args.empty());
  EXPECT_EQ(h2d->flow_role, FlowRole::kNone);
  EXPECT_EQ(result.stats.activities_without_launch, 1u);
}

TEST(ActivityConverterTest, HugeLaunchIdStaysAnUnsignedNumber) {
  Activities in;
  const uint64_t id = 0xFFFF'FFFF'FFFF'FFFEull;
  in.launches = {MakeLaunch(id, 10)};
  in.activities = {Make(Activity::Kind::kDevice, 0, "k", 20, 30, id)};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].args[0].value, trace::ArgValue(trace::RawJson{std::to_string(id)}));
  EXPECT_EQ(result.events[1].args[0].value, trace::ArgValue(trace::RawJson{std::to_string(id)}));
}

TEST(ActivityConverterTest, ClockOffsetIsAppliedExactlyToActivitiesAndMarkers) {
  const BridgeResult result = ConvertActivities(Sample(), Window());
  const trace::Event* mm = FindEvent(result, "i1_0_W0_mm_0");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->ts_ns, kSystemNs + 150);
  EXPECT_EQ(mm->dur_ns, 100);
  const std::vector<const trace::Event*> markers = Markers(result);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0]->ts_ns, kSystemNs + 100);
  EXPECT_EQ(markers[0]->dur_ns, 0);
  EXPECT_EQ(markers[1]->ts_ns, kSystemNs + 300);
}

TEST(ActivityConverterTest, FlowIdsComeFromTheLaunchIndexInsideTheBlock) {
  Activities in = Sample();
  // A launch that runs nothing sits at index 0: it still takes flow id base + 0.
  in.launches.insert(in.launches.begin(), MakeLaunch(99, 50));
  const BridgeResult result = ConvertActivities(std::move(in), Window());

  const std::vector<const trace::Event*> markers = Markers(result);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0]->flow_id, trace::kFlowIdBlockBegin + 1);
  EXPECT_EQ(markers[0]->flow_role, FlowRole::kStart);
  EXPECT_EQ(markers[0]->IntArg("launch_id"), 11);
  EXPECT_EQ(markers[1]->flow_id, trace::kFlowIdBlockBegin + 2);
  EXPECT_EQ(markers[1]->IntArg("launch_id"), 12);
  for (const trace::Event& event : result.events) {
    if (event.flow_role == FlowRole::kNone)
      continue;
    EXPECT_TRUE(trace::InFlowIdBlock(event.flow_id)) << event.name;
    if (event.flow_role == FlowRole::kFinish) {
      const int64_t launch = *event.IntArg("launch_id");
      EXPECT_EQ(event.flow_id, trace::kFlowIdBlockBegin + (launch == 11 ? 1 : 2)) << event.name;
    }
  }
  // Every activity of a launch carries a finish, whatever its kind (not only device kinds).
  EXPECT_EQ(FindEvent(result, "rt_prepare")->flow_role, FlowRole::kFinish);
  EXPECT_EQ(FindEvent(result, "sync_0")->flow_role, FlowRole::kFinish);
  EXPECT_EQ(result.stats.flows_started, 2u);
  EXPECT_EQ(result.stats.flows_finished, 4u);
  EXPECT_EQ(result.stats.launches, 2u);
  EXPECT_EQ(result.stats.launches_received, 3u);
  EXPECT_EQ(result.stats.launches_without_activities, 1u);
}

TEST(ActivityConverterTest, MarkersOnlyForLaunchesThatRanSomethingAndAfterTheActivities) {
  Activities in = Sample();
  in.launches.push_back(MakeLaunch(13, 500));  // runs nothing
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  ASSERT_EQ(result.events.size(), 7u);
  // Activities keep their order; the markers follow in launch order.
  EXPECT_EQ(result.events[0].name, "i1_0_W0_args_0_0");
  EXPECT_EQ(result.events[4].name, "h2d");
  EXPECT_EQ(result.events[5].name, "rbln launch");
  EXPECT_EQ(result.events[5].category, Category::kPrivateUse1Runtime);
  EXPECT_EQ(result.events[5].IntArg("launch_id"), 11);
  EXPECT_EQ(result.events[6].IntArg("launch_id"), 12);
  EXPECT_EQ(result.stats.launches_without_activities, 1u);
  EXPECT_EQ(result.stats.slices_kept, 5u);
}

TEST(ActivityConverterTest, LaunchesPastTheFlowBlockGetNoMarkerAndAreCounted) {
  Activities in;
  in.launches = {MakeLaunch(1, 10), MakeLaunch(2, 20), MakeLaunch(3, 30)};
  in.activities = {Make(Activity::Kind::kDevice, 0, "a", 40, 50, 1),
                   Make(Activity::Kind::kDevice, 0, "b", 50, 60, 2),
                   Make(Activity::Kind::kDevice, 0, "c", 60, 70, 3),
                   Make(Activity::Kind::kCopy, 0, "c_copy", 70, 80, 3)};
  // Two flow slots stand in for the 0x01000000 of the real block.
  const BridgeResult result = ConvertActivities(std::move(in), Window(), 2);
  const std::vector<const trace::Event*> markers = Markers(result);
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0]->IntArg("launch_id"), 1);
  EXPECT_EQ(markers[1]->IntArg("launch_id"), 2);
  const trace::Event* c = FindEvent(result, "c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->flow_role, FlowRole::kNone);
  EXPECT_EQ(c->IntArg("launch_id"), 3);  // still grouped with its launch
  EXPECT_EQ(result.stats.launches_past_flow_block, 1u);
  EXPECT_EQ(result.stats.activities_past_flow_block, 2u);
  EXPECT_EQ(result.stats.activities_unknown_launch, 0u);
  EXPECT_EQ(result.stats.flows_started, 2u);
  EXPECT_EQ(result.stats.flows_finished, 2u);
}

TEST(ActivityConverterTest, TheBlockLimitCannotBeRaisedPastTheBlock) {
  Activities in;
  in.launches = {MakeLaunch(1, 10)};
  in.activities = {Make(Activity::Kind::kDevice, 0, "a", 40, 50, 1)};
  const BridgeResult result =
      ConvertActivities(std::move(in), Window(), trace::kFlowIdBlockSize * 4);
  ASSERT_EQ(Markers(result).size(), 1u);
  EXPECT_EQ(Markers(result)[0]->flow_id, trace::kFlowIdBlockBegin);
}

TEST(ActivityConverterTest, UnknownZeroAndDuplicateLaunchIdsAreCounted) {
  Activities in;
  in.launches = {MakeLaunch(0, 5), MakeLaunch(7, 10), MakeLaunch(7, 20)};
  in.activities = {Make(Activity::Kind::kDevice, 0, "of_7", 30, 40, 7),
                   Make(Activity::Kind::kDevice, 0, "of_8", 40, 50, 8)};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  EXPECT_EQ(result.stats.launch_zero_id, 1u);
  EXPECT_EQ(result.stats.duplicate_launch_ids, 1u);
  EXPECT_EQ(result.stats.activities_unknown_launch, 1u);
  const std::vector<const trace::Event*> markers = Markers(result);
  ASSERT_EQ(markers.size(), 1u);
  // The first record of id 7 (index 1) owns the launch: its time, its flow id.
  EXPECT_EQ(markers[0]->ts_ns, kSystemNs + 10);
  EXPECT_EQ(markers[0]->flow_id, trace::kFlowIdBlockBegin + 1);
  const trace::Event* orphan = FindEvent(result, "of_8");
  ASSERT_NE(orphan, nullptr);
  EXPECT_EQ(orphan->flow_role, FlowRole::kNone);
  EXPECT_EQ(orphan->IntArg("launch_id"), 8);
}

TEST(ActivityConverterTest, UnknownKindIsDroppedAndCounted) {
  Activities in;
  in.activities = {Make(static_cast<Activity::Kind>(7), 0, "strange", 10, 20, 0),
                   Make(Activity::Kind::kDevice, 0, "k", 10, 20, 0)};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].name, "k");
  EXPECT_EQ(result.stats.dropped_unknown_kind, 1u);
  EXPECT_EQ(result.stats.slices_received, 2u);
  EXPECT_EQ(result.stats.slices_kept, 1u);
  ASSERT_EQ(result.threads.size(), 1u);  // no lane for the unknown kind
}

TEST(ActivityConverterTest, WindowDropsOnlyWorkEntirelyOutsideAndItsLaunchLosesTheMarker) {
  Activities in;
  in.launches = {MakeLaunch(1, -500), MakeLaunch(2, 10), MakeLaunch(3, 20)};
  in.activities = {
      Make(Activity::Kind::kDevice, 0, "before", -400, -1, 1),    // entirely before
      Make(Activity::Kind::kDevice, 0, "straddles", -10, 10, 2),  // kept whole
      Make(Activity::Kind::kDevice, 0, "at_end", kConvertWindowNs, kConvertWindowNs + 5,
           3),  // kept
      Make(Activity::Kind::kDevice, 2, "after", kConvertWindowNs + 1, kConvertWindowNs + 9,
           3),  // dropped
  };
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  EXPECT_EQ(result.stats.dropped_out_of_window, 2u);
  EXPECT_EQ(FindEvent(result, "before"), nullptr);
  EXPECT_EQ(FindEvent(result, "after"), nullptr);
  const trace::Event* straddles = FindEvent(result, "straddles");
  ASSERT_NE(straddles, nullptr);
  EXPECT_EQ(straddles->ts_ns, kSystemNs - 10);
  EXPECT_EQ(straddles->dur_ns, 20);
  // Launch 1 ran nothing that the window holds: no marker for it.
  EXPECT_EQ(result.stats.launches_without_activities, 1u);
  EXPECT_EQ(Markers(result).size(), 2u);
  // NPU 2 had only the dropped activity: no row for it.
  ASSERT_EQ(result.processes.size(), 1u);
  EXPECT_EQ(result.processes[0].pid, 0);
}

TEST(ActivityConverterTest, MarkerOutsideTheWindowTakesItsArrowAlong) {
  Activities in;
  in.launches = {MakeLaunch(1, -50)};  // launched before the window opened
  in.activities = {Make(Activity::Kind::kDevice, 0, "late", 10, 20, 1)};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  EXPECT_TRUE(Markers(result).empty());
  EXPECT_EQ(result.stats.markers_out_of_window, 1u);
  const trace::Event* late = FindEvent(result, "late");
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->flow_role, FlowRole::kNone);
  EXPECT_EQ(late->flow_id, 0u);
  EXPECT_EQ(late->IntArg("launch_id"), 1);
  EXPECT_EQ(result.stats.flows_started, 0u);
  EXPECT_EQ(result.stats.flows_finished, 0u);
}

// Only the finishes of the launch whose marker is lost go; its neighbours keep their arrows.
TEST(ActivityConverterTest, OnlyTheUnmarkedLaunchLosesItsArrows) {
  Activities in;
  in.launches = {MakeLaunch(1, 5), MakeLaunch(2, -50), MakeLaunch(3, 30)};
  in.activities = {Make(Activity::Kind::kDevice, 0, "a1", 10, 20, 1),
                   Make(Activity::Kind::kDevice, 0, "b2", 20, 25, 2),
                   Make(Activity::Kind::kCopy, 0, "c2", 25, 28, 2),
                   Make(Activity::Kind::kDevice, 0, "d3", 40, 50, 3)};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  EXPECT_EQ(result.stats.markers_out_of_window, 1u);
  EXPECT_EQ(Markers(result).size(), 2u);
  for (const char* name : {"b2", "c2"}) {
    ASSERT_NE(FindEvent(result, name), nullptr);
    EXPECT_EQ(FindEvent(result, name)->flow_role, FlowRole::kNone) << name;
  }
  for (const char* name : {"a1", "d3"}) {
    ASSERT_NE(FindEvent(result, name), nullptr);
    EXPECT_EQ(FindEvent(result, name)->flow_role, FlowRole::kFinish) << name;
  }
  EXPECT_EQ(result.stats.flows_finished, 2u);
}

TEST(ActivityConverterTest, NegativeDurationIsKeptAsZeroAndCounted) {
  Activities in;
  in.activities = {Make(Activity::Kind::kDevice, 0, "backwards", 50, 40, 0)};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].dur_ns, 0);
  EXPECT_EQ(result.events[0].ts_ns, kSystemNs + 50);
  EXPECT_EQ(result.stats.negative_duration, 1u);
}

TEST(ActivityConverterTest, GarbageTimesSaturateAndAreDroppedNotWrapped) {
  Activities in;
  Activity activity = Make(Activity::Kind::kDevice, 0, "huge", 0, 0, 0);
  activity.start_ns = std::numeric_limits<int64_t>::max() - 5;
  activity.end_ns = std::numeric_limits<int64_t>::max();
  in.activities = {activity};
  const BridgeResult result = ConvertActivities(std::move(in), Window());
  EXPECT_TRUE(result.events.empty());
  EXPECT_EQ(result.stats.dropped_out_of_window, 1u);
}

TEST(ActivityConverterTest, SameInputGivesTheSameResult) {
  auto flatten = [](const BridgeResult& r) {
    std::string text;
    for (const trace::ProcessRow& p : r.processes)
      text += "P" + std::to_string(p.pid) + p.name + ";";
    for (const trace::ThreadRow& t : r.threads)
      text += "T" + std::to_string(t.pid) + "/" + std::to_string(t.tid) + t.name + ";";
    for (const trace::Event& e : r.events) {
      text += "E" + e.name.str() + std::to_string(e.pid) + "/" + std::to_string(e.tid) + "@" +
              std::to_string(e.ts_ns) + "+" + std::to_string(e.dur_ns) + "f" +
              std::to_string(e.flow_id) + std::to_string(static_cast<int>(e.flow_role)) + ";";
    }
    for (const auto& [name, value] : r.stats.Counters())
      text += name + "=" + std::to_string(value) + ";";
    return text;
  };
  // Many devices and launches, so hash-order or set-order leaks would show.
  Activities in;
  for (uint64_t i = 0; i < 64; ++i) {
    in.launches.push_back(MakeLaunch(1000 - i, static_cast<int64_t>(i)));
    in.activities.push_back(Make(static_cast<Activity::Kind>(i % 4), static_cast<uint32_t>(i % 5),
                                 "a" + std::to_string(i), 100 + i, 200 + i, 1000 - i));
  }
  const std::string first = flatten(ConvertActivities(in, Window()));
  const std::string second = flatten(ConvertActivities(in, Window()));
  EXPECT_EQ(first, second);
  EXPECT_NE(first.find("rbln launch"), std::string::npos);
}

}  // namespace
}  // namespace rblnsim::bridge
