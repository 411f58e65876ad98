// Per-launch submission latency, percentiles, per-op grouping and slow-launch outliers on
// synthetic traces whose every number is known.
#include "profiler/analysis/launch_latency.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "profiler/analysis/fallback_detect.h"
#include "profiler/index/trace_index.h"
#include "tests/unit/analysis_latency/synthetic_trace.h"

namespace rblnsim::analysis {
namespace {

using testing::SyntheticTrace;

LatencyReport Analyze(const trace::Trace& trace, LatencyOptions options = {}) {
  auto index = index::TraceIndex::Build(trace);
  EXPECT_TRUE(index.ok());
  return AnalyzeLaunchLatency(*index, options);
}

TEST(Percentiles, NearestRank) {
  std::vector<int64_t> values;
  for (int64_t v = 100; v >= 1; --v)
    values.push_back(v);
  const Percentiles p = ComputePercentiles(&values);
  EXPECT_EQ(p.count, 100);
  EXPECT_EQ(p.p50_ns, 50);
  EXPECT_EQ(p.p90_ns, 90);
  EXPECT_EQ(p.p99_ns, 99);
  EXPECT_EQ(p.max_ns, 100);

  // rank = ceil(p/100 * n): 2 of 3 for p50, 3 of 3 for p90 and p99.
  std::vector<int64_t> three = {30, 10, 20};
  const Percentiles q = ComputePercentiles(&three);
  EXPECT_EQ(q.p50_ns, 20);
  EXPECT_EQ(q.p90_ns, 30);
  EXPECT_EQ(q.p99_ns, 30);

  std::vector<int64_t> none;
  EXPECT_EQ(ComputePercentiles(&none).count, 0);
}

TEST(LaunchLatency, OneLaunchDecomposed) {
  SyntheticTrace t;
  t.Op("aten::matmul", 0, 1000);
  t.Op("aten::mm", 10, 980);
  t.Op("aten::mm", 500, 400);  // the kernel op encloses the marker
  t.Marker(7, 600, 90);
  // Device slices out of order in the event list; the first start and last end win.
  t.Slice("i1_0_W0_mm_1", 7, 760, 40);
  t.Slice("i1_0_W0_args_0_0", 7, 700, 20, 2, trace::Category::kGpuMemcpy);
  const LatencyReport r = Analyze(t.trace);
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchLatency& l = r.launches[0];
  EXPECT_EQ(l.launch_id, 7);
  EXPECT_EQ(r.op_names[l.op], "aten::mm");
  EXPECT_EQ(l.op_start_ns, 500);  // the innermost enclosing op
  EXPECT_EQ(l.marker_start_ns, 600);
  EXPECT_EQ(l.marker_end_ns, 690);
  EXPECT_EQ(l.first_device_start_ns, 700);
  EXPECT_EQ(l.last_device_end_ns, 800);
  EXPECT_EQ(l.device_slices, 2u);
  EXPECT_EQ(l.submission_latency_ns(), 100);
  EXPECT_EQ(l.launch_delay_ns(), 10);
  EXPECT_EQ(r.submission.max_ns, 100);
  EXPECT_EQ(r.launch_delay.p50_ns, 10);
}

// Slices in launch order are joined where they lie; out of launch order (overlapping launches)
// they are sorted first. Both give every launch its own first start, last end and count, and
// count the slices no marker claims.
TEST(LaunchLatency, SlicesJoinTheirLaunchInAnyOrder) {
  for (const bool in_launch_order : {true, false}) {
    SyntheticTrace t;
    t.Marker(1, 0, 10);
    t.Marker(2, 20, 10);
    t.Marker(4, 40, 10);
    t.Slice("s", 3, 50, 5);  // no marker has launch 3
    if (in_launch_order) {
      t.Slice("a", 1, 300, 50);
      t.Slice("b", 1, 100, 50);
      t.Slice("c", 2, 500, 50);
      t.Slice("d", 2, 200, 20);
    } else {
      t.Slice("c", 2, 500, 50);
      t.Slice("a", 1, 300, 50);
      t.Slice("d", 2, 200, 20);
      t.Slice("b", 1, 100, 50);
    }
    const LatencyReport r = Analyze(t.trace);
    ASSERT_EQ(r.launches.size(), 3u) << in_launch_order;
    EXPECT_EQ(r.launches[0].launch_id, 1);
    EXPECT_EQ(r.launches[0].first_device_start_ns, 100) << in_launch_order;
    EXPECT_EQ(r.launches[0].last_device_end_ns, 350) << in_launch_order;
    EXPECT_EQ(r.launches[0].device_slices, 2u) << in_launch_order;
    EXPECT_EQ(r.launches[1].first_device_start_ns, 200) << in_launch_order;
    EXPECT_EQ(r.launches[1].last_device_end_ns, 550) << in_launch_order;
    EXPECT_EQ(r.launches[1].device_slices, 2u) << in_launch_order;
    EXPECT_EQ(r.launches[2].device_slices, 0u) << in_launch_order;
    EXPECT_EQ(r.launches_without_device, 1) << in_launch_order;
    EXPECT_EQ(r.slices_without_marker, 1) << in_launch_order;
  }
}

TEST(LaunchLatency, SyncLaunchDelayIsClippedAtZero) {
  SyntheticTrace t;
  t.Op("aten::add", 0, 1000);
  t.Marker(1, 100, 800);  // the runtime blocks until the run is done
  t.Slice("i1_0_W0_add_0", 1, 300, 100);
  const LatencyReport r = Analyze(t.trace);
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.launches[0].submission_latency_ns(), 200);
  EXPECT_EQ(r.launches[0].launch_delay_ns(), 0);
}

TEST(LaunchLatency, GraphRegionIsTheLauncher) {
  SyntheticTrace t;
  t.Annotation("Torch-Compiled Region", 0, 500);
  t.Marker(3, 100, 50);
  t.Slice("i2_0_W0_linear_0", 3, 200, 10);
  const LatencyReport r = Analyze(t.trace);
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.op_names[r.launches[0].op], "Torch-Compiled Region");
}

TEST(LaunchLatency, CountsWhatCannotBeMeasured) {
  SyntheticTrace t;
  t.Marker(1, 0, 10);               // inside no op, no device work
  t.Marker(std::nullopt, 100, 10);  // no launch_id
  t.Marker(2, 200, 10);
  t.Marker(2, 300, 10);  // a second marker for launch 2: the first is kept
  t.Slice("i1_0_W0_mm_0", 2, 250, 10);
  t.Slice("i1_0_W0_mm_0", 9, 400, 10);  // launch 9 has no marker
  const LatencyReport r = Analyze(t.trace);
  ASSERT_EQ(r.launches.size(), 2u);
  EXPECT_EQ(r.launches_without_device, 1);
  EXPECT_EQ(r.markers_without_launch_id, 1);
  EXPECT_EQ(r.duplicate_markers, 1);
  EXPECT_EQ(r.slices_without_marker, 1);
  EXPECT_EQ(r.launches[0].op, LatencyReport::kNoLauncher);
  EXPECT_EQ(r.launches[1].marker_start_ns, 200);
  EXPECT_EQ(r.submission.count, 1);
  EXPECT_EQ(r.submission.max_ns, 50);
}

TEST(LaunchLatency, PerOpPercentilesAndOutliers) {
  SyntheticTrace t;
  int64_t ts = 0;
  // Ten mm launches at 1000 ns and one at 5000 ns; three adds at 200 ns.
  for (int i = 0; i < 11; ++i, ts += 10'000) {
    t.Op("aten::mm", ts, 9000);
    t.Marker(i + 1, ts + 100, 50);
    t.Slice("mm", i + 1, ts + 100 + (i == 10 ? 5000 : 1000), 10);
  }
  for (int i = 0; i < 3; ++i, ts += 10'000) {
    t.Op("aten::add", ts, 9000);
    t.Marker(100 + i, ts + 100, 50);
    t.Slice("add", 100 + i, ts + 300, 10);
  }
  LatencyReport r = Analyze(t.trace);
  ASSERT_EQ(r.per_op.size(), 2u);
  EXPECT_EQ(r.per_op[0].op, "aten::mm");  // by count
  EXPECT_EQ(r.per_op[0].submission.count, 11);
  EXPECT_EQ(r.per_op[0].submission.p50_ns, 1000);
  EXPECT_EQ(r.per_op[0].submission.p90_ns, 1000);
  EXPECT_EQ(r.per_op[0].submission.max_ns, 5000);
  EXPECT_EQ(r.per_op[1].op, "aten::add");
  EXPECT_EQ(r.per_op[1].submission.max_ns, 200);
  // Default threshold: the overall p99 (the 5000 ns launch itself), strictly above: none.
  EXPECT_TRUE(r.outlier_threshold_is_p99);
  EXPECT_EQ(r.outlier_threshold_ns, 5000);
  EXPECT_EQ(r.outlier_count, 0);

  LatencyOptions options;
  options.outlier_threshold_ns = 500;
  options.max_outliers = 3;
  r = Analyze(t.trace, options);
  EXPECT_EQ(r.outlier_count, 11);
  ASSERT_EQ(r.outliers.size(), 3u);
  EXPECT_EQ(r.launches[r.outliers[0]].launch_id, 11);  // slowest first
}

// Launches of several ops, interleaved, with a marker inside no op: each op's percentiles are
// those of its own launches, and the overall ones those of all.
TEST(LaunchLatency, PerOpPercentilesAreEachOpsOwn) {
  SyntheticTrace t;
  const char* ops[] = {"aten::mm", "aten::add", "aten::mul"};
  std::vector<std::vector<int64_t>> submission(4);
  std::vector<int64_t> all;
  for (int i = 0; i < 90; ++i) {
    const int64_t ts = int64_t{i} * 100'000;
    const int op = i % 4;  // 3: no launching op
    if (op < 3)
      t.Op(ops[op], ts, 50'000);
    t.Marker(i + 1, ts + 100, 100);
    const int64_t latency = 500 + (i * 37) % 900;
    t.Slice("k", i + 1, ts + 100 + latency, 200);
    submission[op].push_back(latency);
    all.push_back(latency);
  }
  t.trace.capture_end_ns = int64_t{90} * 100'000;
  const LatencyReport r = Analyze(t.trace);
  ASSERT_EQ(r.per_op.size(), 4u);
  for (const OpLatency& op : r.per_op) {
    int which = 3;
    for (int k = 0; k < 3; ++k)
      which = op.op == ops[k] ? k : which;
    std::vector<int64_t> values = submission[which];
    const Percentiles want = ComputePercentiles(&values);
    EXPECT_EQ(op.submission.count, want.count) << op.op;
    EXPECT_EQ(op.submission.p50_ns, want.p50_ns) << op.op;
    EXPECT_EQ(op.submission.p90_ns, want.p90_ns) << op.op;
    EXPECT_EQ(op.submission.max_ns, want.max_ns) << op.op;
  }
  const Percentiles overall = ComputePercentiles(&all);
  EXPECT_EQ(r.submission.count, overall.count);
  EXPECT_EQ(r.submission.p50_ns, overall.p50_ns);
  EXPECT_EQ(r.submission.p99_ns, overall.p99_ns);
  EXPECT_EQ(r.submission.max_ns, overall.max_ns);
}

TEST(LaunchLatency, LongCapturesStayExact) {
  // A long capture through the columnar path: 100k launches, 200k device slices, 100k ops. Its
  // speed is measured by the benchmarks, not here (sanitizer builds run this test too).
  constexpr int kLaunches = 100'000;
  SyntheticTrace t;
  t.trace.events.reserve(4 * kLaunches);
  for (int i = 0; i < kLaunches; ++i) {
    const int64_t ts = int64_t{i} * 2000;
    t.Op("aten::mm", ts, 1500);
    t.Marker(i, ts + 100, 100);
    t.Slice("i1_0_W0_mm_0", i, ts + 900 + (i % 7), 200);
    t.Slice("i1_0_W0_mm_1", i, ts + 1200, 300, 2);
  }
  t.trace.capture_end_ns = int64_t{kLaunches} * 2000;
  auto index = index::TraceIndex::Build(t.trace);
  ASSERT_TRUE(index.ok());
  const LatencyReport r = AnalyzeLaunchLatency(*index, LatencyOptions());
  const OverheadReport overhead = DetectOverhead(*index);
  EXPECT_TRUE(overhead.fallbacks.empty());
  ASSERT_EQ(r.launches.size(), static_cast<size_t>(kLaunches));
  EXPECT_EQ(r.submission.p50_ns, 803);
  EXPECT_EQ(r.submission.max_ns, 806);
  EXPECT_EQ(r.queue_max, 1);
}

}  // namespace
}  // namespace rblnsim::analysis
