// Queue length over time, the HTA-style idle breakdown and device busy per time bucket.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "profiler/analysis/launch_latency.h"
#include "profiler/index/trace_index.h"
#include "tests/unit/analysis_latency/synthetic_trace.h"

namespace rblnsim::analysis {
namespace {

using testing::SyntheticTrace;

LatencyReport AnalyzeTimeline(const trace::Trace& trace, int64_t back_to_back_ns = 1000) {
  auto index = index::TraceIndex::Build(trace);
  EXPECT_TRUE(index.ok());
  LatencyOptions options;
  options.back_to_back_ns = back_to_back_ns;
  return AnalyzeLaunchLatency(*index, options);
}

TEST(QueueLength, StepsUpAtMarkersAndDownAtFirstDeviceSlice) {
  SyntheticTrace t;
  // Three launches submitted at 0, 10, 20; picked up at 100, 200, 300.
  for (int i = 0; i < 3; ++i) {
    t.Marker(i + 1, 10 * i, 5);
    t.Slice("k", i + 1, 100 * (i + 1), 50);
  }
  const LatencyReport r = AnalyzeTimeline(t.trace);
  ASSERT_EQ(r.queue.size(), 6u);
  const std::vector<std::pair<int64_t, int32_t>> want = {{0, 1},   {10, 2},  {20, 3},
                                                         {100, 2}, {200, 1}, {300, 0}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.queue[i].ts_ns, want[i].first) << i;
    EXPECT_EQ(r.queue[i].length, want[i].second) << i;
  }
  EXPECT_EQ(r.queue_max, 3);
  EXPECT_EQ(r.queue_max_at_ns, 20);
  // Time-weighted over [0, 300]: 1*10 + 2*10 + 3*80 + 2*100 + 1*100 = 570.
  EXPECT_DOUBLE_EQ(r.queue_mean, 570.0 / 300.0);
}

TEST(QueueLength, PickupAndSubmitAtTheSameInstantIsNotTwoInFlight) {
  SyntheticTrace t;
  t.Marker(1, 0, 5);
  t.Slice("k", 1, 100, 50);
  t.Marker(2, 100, 5);  // submitted the instant launch 1 starts
  t.Slice("k", 2, 200, 50);
  const LatencyReport r = AnalyzeTimeline(t.trace);
  EXPECT_EQ(r.queue_max, 1);
}

// The series merged from sorted starts and pickups, with or without keeping it, against the
// series as every step sorted by (ts, +1/-1) gives it; launches in any order, equal timestamps.
TEST(QueueLength, MergedStepsMatchSortedStepsWithOrWithoutTheSeries) {
  LatencyReport kept;
  uint64_t state = 12345;
  auto next = [&](int64_t range) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(range));
  };
  for (int i = 0; i < 500; ++i) {
    LaunchLatency l;
    l.launch_id = i + 1;
    l.marker_start_ns = 10 * next(200);  // many equal timestamps
    l.first_device_start_ns = l.marker_start_ns + 10 * next(20);
    l.device_slices = i % 17 == 0 ? 0 : 1;  // now and then never picked up
    kept.launches.push_back(l);
  }
  LatencyReport summary_only = kept;
  FillQueueSeries(&kept, /*keep_series=*/true);
  FillQueueSeries(&summary_only, /*keep_series=*/false);

  std::vector<std::pair<int64_t, int32_t>> steps;
  for (const LaunchLatency& l : kept.launches) {
    if (l.has_device()) {
      steps.emplace_back(l.marker_start_ns, +1);
      steps.emplace_back(l.first_device_start_ns, -1);
    }
  }
  std::sort(steps.begin(), steps.end());
  std::vector<QueuePoint> want;
  int32_t length = 0;
  int32_t max = 0;
  int64_t max_at = 0;
  for (const auto& [ts, delta] : steps) {
    length += delta;
    if (!want.empty() && want.back().ts_ns == ts)
      want.back().length = length;
    else
      want.push_back({ts, length});
    if (length > max) {
      max = length;
      max_at = ts;
    }
  }
  double area = 0;
  for (size_t i = 0; i + 1 < want.size(); ++i)
    area += static_cast<double>(want[i].length) *
            static_cast<double>(want[i + 1].ts_ns - want[i].ts_ns);
  ASSERT_EQ(kept.queue.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(kept.queue[i].ts_ns, want[i].ts_ns) << i;
    EXPECT_EQ(kept.queue[i].length, want[i].length) << i;
  }
  for (const LatencyReport* r : {&kept, &summary_only}) {
    EXPECT_EQ(r->queue_points, static_cast<int64_t>(want.size()));
    EXPECT_EQ(r->queue_max, max);
    EXPECT_EQ(r->queue_max_at_ns, max_at);
    EXPECT_DOUBLE_EQ(r->queue_mean,
                     area / static_cast<double>(want.back().ts_ns - want.front().ts_ns));
  }
  EXPECT_TRUE(summary_only.queue.empty());
}

TEST(IdleBreakdown, HostWaitDeviceWaitAndOther) {
  SyntheticTrace t;
  // Launch 1 runs [100, 200). Launch 2's marker starts at 300, after the device went idle: the
  // 200 ns gap before it is host wait. Launch 3 was submitted early; its slice follows launch 2's
  // after 500 ns (< 1 us: device wait) and its second slice after 5 us (other).
  t.Marker(1, 0, 10);
  t.Slice("a", 1, 100, 100);
  t.Marker(2, 300, 10);
  t.Slice("b", 2, 400, 100);
  t.Marker(3, 350, 10);
  t.Slice("c", 3, 1000, 100);
  t.Slice("d", 3, 6100, 100);
  const LatencyReport r = AnalyzeTimeline(t.trace);
  EXPECT_EQ(r.idle.gaps, 3);
  EXPECT_EQ(r.idle.host_wait_ns, 200);
  EXPECT_EQ(r.idle.device_wait_ns, 500);
  EXPECT_EQ(r.idle.other_ns, 5000);
  EXPECT_EQ(r.idle.span_ns, 6100);
  EXPECT_EQ(r.idle.busy_ns, 400);
  // A smaller back-to-back threshold moves the 500 ns gap to "other".
  EXPECT_EQ(AnalyzeTimeline(t.trace, 100).idle.other_ns, 5500);
}

TEST(IdleBreakdown, OverlappingSlicesAreOneBusyInterval) {
  SyntheticTrace t;
  t.Marker(1, 0, 10);
  t.Slice("a", 1, 100, 100, 1);
  t.Slice("b", 1, 150, 100, 2);  // another engine, overlapping
  t.Slice("c", 1, 250, 50, 3);   // starts exactly where b ends: no gap
  const LatencyReport r = AnalyzeTimeline(t.trace);
  EXPECT_EQ(r.idle.gaps, 0);
  EXPECT_EQ(r.idle.busy_ns, 200);
}

// Two slices on one device with the same span, of launches marked at different times: the gap
// before them is judged by the launch marked first, whatever order the trace lists them in.
TEST(IdleBreakdown, SlicesWithEqualSpansAreMetInMarkerOrder) {
  for (const bool early_first : {true, false}) {
    SyntheticTrace t;
    t.Marker(1, 0, 10);
    t.Slice("a", 1, 100, 100);
    t.Marker(2, 50, 10);    // before the device went idle at 200
    t.Marker(3, 5000, 10);  // after it
    if (early_first) {
      t.Slice("b", 2, 8000, 100, 1);
      t.Slice("c", 3, 8000, 100, 2);
    } else {
      t.Slice("c", 3, 8000, 100, 2);
      t.Slice("b", 2, 8000, 100, 1);
    }
    const LatencyReport r = AnalyzeTimeline(t.trace);
    EXPECT_EQ(r.idle.gaps, 1) << early_first;
    EXPECT_EQ(r.idle.host_wait_ns, 0) << early_first;
    EXPECT_EQ(r.idle.other_ns, 7800) << early_first;
  }
}

// Devices are read one at a time (a few of them) or all at once (many): either way the breakdown
// is the sum of each device's own, whatever order the trace interleaves their slices in.
TEST(IdleBreakdown, EveryDeviceCountsOnItsOwn) {
  for (const int devices : {3, 20}) {
    auto trace_of = [&](int only_device) {
      SyntheticTrace t;
      for (int launch = 1; launch <= 40; ++launch) {
        t.Marker(launch, launch * 1000, 10);
        const int device = launch % devices;
        if (only_device >= 0 && device != only_device)
          continue;
        // Late, back-to-back and long gaps on every device.
        t.Slice("k", launch, launch * 1000 + (launch % 3) * 400, 300).pid = 100 + device;
      }
      return t.trace;
    };
    const trace::Trace all = trace_of(-1);
    auto index = index::TraceIndex::Build(all);
    ASSERT_TRUE(index.ok());
    const LatencyReport report = AnalyzeLaunchLatency(*index, LatencyOptions());
    IdleBreakdown sum;
    for (int device = 0; device < devices; ++device) {
      const trace::Trace one = trace_of(device);
      auto one_index = index::TraceIndex::Build(one);
      ASSERT_TRUE(one_index.ok());
      const IdleBreakdown idle = ComputeIdleBreakdown(*one_index, report.launches, 1000);
      sum.gaps += idle.gaps;
      sum.host_wait_ns += idle.host_wait_ns;
      sum.device_wait_ns += idle.device_wait_ns;
      sum.other_ns += idle.other_ns;
      sum.span_ns += idle.span_ns;
      sum.busy_ns += idle.busy_ns;
    }
    const IdleBreakdown whole = ComputeIdleBreakdown(*index, report.launches, 1000);
    EXPECT_GT(whole.gaps, 0) << devices;
    EXPECT_EQ(whole.gaps, sum.gaps) << devices;
    EXPECT_EQ(whole.host_wait_ns, sum.host_wait_ns) << devices;
    EXPECT_EQ(whole.device_wait_ns, sum.device_wait_ns) << devices;
    EXPECT_EQ(whole.other_ns, sum.other_ns) << devices;
    EXPECT_EQ(whole.span_ns, sum.span_ns) << devices;
    EXPECT_EQ(whole.busy_ns, sum.busy_ns) << devices;
  }
}

// From a few thousand launches on, the idle breakdown is computed on a second thread while the
// rest of the report is: it must equal the breakdown computed on its own.
TEST(IdleBreakdown, ALargeReportHasTheBreakdownComputedAlone) {
  SyntheticTrace t;
  for (int i = 1; i <= 6000; ++i) {
    const int64_t at = int64_t{i} * 1'000;
    t.Marker(i, at, 10);
    // Gaps of every kind: some launches start late, some back to back, some after a long pause.
    t.Slice("k", i, at + (i % 3 == 0 ? 600 : 100), i % 5 == 0 ? 900 : 300);
  }
  const LatencyReport r = AnalyzeTimeline(t.trace);
  ASSERT_EQ(r.launches.size(), 6000u);
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const IdleBreakdown alone = ComputeIdleBreakdown(*index, r.launches, 1000);
  EXPECT_GT(alone.gaps, 0);
  EXPECT_EQ(r.idle.gaps, alone.gaps);
  EXPECT_EQ(r.idle.host_wait_ns, alone.host_wait_ns);
  EXPECT_EQ(r.idle.device_wait_ns, alone.device_wait_ns);
  EXPECT_EQ(r.idle.other_ns, alone.other_ns);
  EXPECT_EQ(r.idle.span_ns, alone.span_ns);
  EXPECT_EQ(r.idle.busy_ns, alone.busy_ns);
}

// The latency report hands the breakdown its launches in id order; a report's own list is in
// marker order. Either way the pairs come out by launch id.
TEST(IdleBreakdown, MarkerStartsComeByLaunchId) {
  std::vector<LaunchLatency> launches(3);
  launches[0].launch_id = 9;
  launches[0].marker_start_ns = 5;
  launches[1].launch_id = 2;
  launches[1].marker_start_ns = 50;
  launches[2].launch_id = 4;
  launches[2].marker_start_ns = 1;
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(MarkerStartsById(launches), (Pairs{{2, 50}, {4, 1}, {9, 5}}));
  std::sort(launches.begin(), launches.end(), [](const LaunchLatency& a, const LaunchLatency& b) {
    return a.launch_id < b.launch_id;
  });
  EXPECT_EQ(MarkerStartsById(launches), (Pairs{{2, 50}, {4, 1}, {9, 5}}));
}

TEST(DeviceBusy, FractionOfEachBucket) {
  SyntheticTrace t;
  t.Slice("a", 1, 0, 50);     // half of bucket 0
  t.Slice("b", 1, 25, 50);    // overlaps a: union [0, 75)
  t.Slice("c", 1, 300, 100);  // all of bucket 3
  const BusySeries busy = DeviceBusyOverTime(t.trace, 0, 400, 4);
  ASSERT_EQ(busy.busy_fraction.size(), 4u);
  EXPECT_DOUBLE_EQ(busy.busy_fraction[0], 0.75);
  EXPECT_DOUBLE_EQ(busy.busy_fraction[1], 0.0);
  EXPECT_DOUBLE_EQ(busy.busy_fraction[2], 0.0);
  EXPECT_DOUBLE_EQ(busy.busy_fraction[3], 1.0);
  EXPECT_DOUBLE_EQ(busy.x_ms[3], 300 / 1e6);
  EXPECT_TRUE(DeviceBusyOverTime(t.trace, 0, 0, 4).x_ms.empty());
}

TEST(DeviceSlices, HostAndRuntimeEventsAreNotDeviceWork) {
  SyntheticTrace t;
  EXPECT_FALSE(IsDeviceSlice(t.Op("aten::mm", 0, 10)));
  EXPECT_FALSE(IsDeviceSlice(t.Marker(1, 0, 10)));
  EXPECT_TRUE(IsDeviceSlice(t.Slice("k", 1, 0, 10)));
  EXPECT_TRUE(IsDeviceSlice(t.Slice("k", std::nullopt, 0, 10)));  // kernel without launch_id
  // A sync command on the device row counts when it belongs to a launch.
  EXPECT_TRUE(IsDeviceSlice(t.Slice("sync", 1, 0, 10, 5, trace::Category::kPrivateUse1Driver)));
  EXPECT_FALSE(
      IsDeviceSlice(t.Slice("sync", std::nullopt, 0, 10, 5, trace::Category::kPrivateUse1Driver)));
}

}  // namespace
}  // namespace rblnsim::analysis
