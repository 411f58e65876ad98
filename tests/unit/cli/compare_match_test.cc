// compare's matching rules on hand-built digests: launches pair in order per launching op,
// slices pair by command key when both launches hold the same keys and by position otherwise,
// a time differs only beyond both tolerance limits, and the fit error calibrate minimises is the
// weighted mean the header documents.
#include "tools/rblnsim/lib/compare/compare_match.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rblnsim::cli {
namespace {

constexpr char kNec[] = "Neural Engine Clusters";
constexpr char kDma[] = "Neural DMA";

DigestSlice Slice(const std::string& key,
                  int64_t start_ns,
                  int64_t dur_ns,
                  EngineKind kind = EngineKind::kMatmul) {
  DigestSlice slice;
  slice.name = "i1_0_W0_" + key;
  slice.key = key;
  slice.engine_class = kind == EngineKind::kDma ? kDma : kNec;
  slice.kind = kind;
  slice.start_ns = start_ns;
  slice.dur_ns = dur_ns;
  return slice;
}

DigestLaunch Launch(const std::string& op,
                    int64_t marker_start_ns,
                    std::vector<DigestSlice> slices) {
  DigestLaunch launch;
  launch.op = op;
  launch.marker_start_ns = marker_start_ns;
  launch.marker_dur_ns = 10;
  for (const DigestSlice& s : slices)
    launch.device_ns += s.dur_ns;
  launch.slices = std::move(slices);
  return launch;
}

const Difference* FindDifference(const Comparison& c,
                                 const std::string& kind,
                                 const std::string& what) {
  for (const Difference& d : c.differences) {
    if (d.kind == kind && d.what == what)
      return &d;
  }
  return nullptr;
}

TEST(CompareMatch, LaunchesPairInOrderPerLaunchingOp) {
  TraceDigest sim;
  sim.launches = {Launch("aten::mm", 0, {Slice("mm_1", 100, 50)}),
                  Launch("aten::add", 1000, {Slice("add_1", 1100, 20)}),
                  Launch("aten::mm", 2000, {Slice("mm_1", 2100, 60)})};
  TraceDigest hw;
  hw.launches = {Launch("aten::add", 0, {Slice("add_1", 150, 25)}),
                 Launch("aten::mm", 1000, {Slice("mm_1", 1100, 55)}),
                 Launch("aten::mm", 2000, {Slice("mm_1", 2100, 65)})};
  const Comparison c = CompareDigests(sim, hw, CompareTolerance{});

  ASSERT_EQ(c.launch_pairs.size(), 3u);
  // In simulated launch order: the k-th mm of one run with the k-th mm of the other.
  EXPECT_EQ(c.launch_pairs[0].sim, 0u);
  EXPECT_EQ(c.launch_pairs[0].hw, 1u);
  EXPECT_EQ(c.launch_pairs[1].sim, 1u);
  EXPECT_EQ(c.launch_pairs[1].hw, 0u);
  EXPECT_EQ(c.launch_pairs[2].sim, 2u);
  EXPECT_EQ(c.launch_pairs[2].hw, 2u);
  EXPECT_EQ(c.unmatched_sim_launches, 0);
  EXPECT_EQ(c.unmatched_hw_launches, 0);

  // Ops by descending hardware device time: mm (55 + 65) before add (25).
  ASSERT_EQ(c.ops.size(), 2u);
  EXPECT_EQ(c.ops[0].op, "aten::mm");
  EXPECT_EQ(c.ops[0].matched, 2);
  EXPECT_DOUBLE_EQ(c.ops[0].sim_device_ns, 55.0);  // mean of 50 and 60
  EXPECT_DOUBLE_EQ(c.ops[0].hw_device_ns, 60.0);
  EXPECT_EQ(c.ops[1].op, "aten::add");
  // add's latency: 100 ns simulated (1100 - 1000), 150 ns captured.
  EXPECT_EQ(c.ops[1].sim_latency.p50_ns, 100);
  EXPECT_EQ(c.ops[1].hw_latency.p50_ns, 150);
}

TEST(CompareMatch, ExtraLaunchesAreUnmatchedAndReported) {
  TraceDigest sim;
  TraceDigest hw;
  for (int i = 0; i < 3; ++i)
    sim.launches.push_back(Launch("aten::mm", i * 1000, {Slice("mm_1", i * 1000 + 100, 50)}));
  for (int i = 0; i < 2; ++i)
    hw.launches.push_back(Launch("aten::mm", i * 1000, {Slice("mm_1", i * 1000 + 100, 50)}));
  const Comparison c = CompareDigests(sim, hw, CompareTolerance{});
  EXPECT_EQ(c.launch_pairs.size(), 2u);
  EXPECT_EQ(c.unmatched_sim_launches, 1);
  EXPECT_EQ(c.unmatched_hw_launches, 0);
  const Difference* d = FindDifference(c, "launches", "aten::mm");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->sim, 3);
  EXPECT_EQ(d->hw, 2);
  // Equal device times are no difference.
  EXPECT_EQ(FindDifference(c, "device_time_op", "aten::mm"), nullptr);
}

TEST(CompareMatch, SlicesPairByKeyWhenBothLaunchesHoldTheSameKeys) {
  TraceDigest sim;
  sim.launches = {
      Launch("aten::mm", 0, {Slice("args_0", 100, 10, EngineKind::kDma), Slice("mm_1", 120, 40)})};
  TraceDigest hw;
  // The same keys in the other start order: matched by key, not by position.
  hw.launches = {
      Launch("aten::mm", 0, {Slice("mm_1", 100, 44), Slice("args_0", 150, 12, EngineKind::kDma)})};
  const Comparison c = CompareDigests(sim, hw, CompareTolerance{});
  ASSERT_EQ(c.commands.size(), 2u);
  EXPECT_EQ(c.commands[0].key, "args_0");
  EXPECT_EQ(c.commands[0].sim_ns, 10);
  EXPECT_EQ(c.commands[0].hw_ns, 12);
  EXPECT_EQ(c.commands[1].key, "mm_1");
  EXPECT_EQ(c.commands[1].sim_ns, 40);
  EXPECT_EQ(c.commands[1].hw_ns, 44);
  EXPECT_EQ(c.unmatched_sim_slices, 0);
  EXPECT_EQ(c.unmatched_hw_slices, 0);
  // One class row per engine class, means over its matched commands, by engine kind.
  ASSERT_EQ(c.classes.size(), 2u);
  EXPECT_EQ(c.classes[0].kind, EngineKind::kMatmul);
  EXPECT_DOUBLE_EQ(c.classes[0].hw_ns, 44.0);
  EXPECT_EQ(c.classes[1].kind, EngineKind::kDma);
  EXPECT_DOUBLE_EQ(c.classes[1].sim_ns, 10.0);
}

TEST(CompareMatch, RenamedCommandsPairByPositionAndTheRestIsUnmatched) {
  TraceDigest sim;
  sim.launches = {Launch("aten::mm", 0, {Slice("mm_1", 100, 40), Slice("mm_2", 140, 30)})};
  TraceDigest hw;
  hw.launches = {
      Launch("aten::mm", 0,
             {Slice("gemm_a", 100, 41), Slice("gemm_b", 141, 31), Slice("gemm_c", 172, 5)})};
  const Comparison c = CompareDigests(sim, hw, CompareTolerance{});
  ASSERT_EQ(c.commands.size(), 2u);
  EXPECT_EQ(c.commands[0].key, "mm_1");  // the simulated slice's key
  EXPECT_EQ(c.commands[0].hw_ns, 41);
  EXPECT_EQ(c.commands[1].key, "mm_2");
  EXPECT_EQ(c.commands[1].hw_ns, 31);
  EXPECT_EQ(c.unmatched_sim_slices, 0);
  EXPECT_EQ(c.unmatched_hw_slices, 1);
}

TEST(CompareMatch, ATimeDiffersOnlyBeyondBothLimits) {
  const auto compare = [](int64_t sim_ns, int64_t hw_ns) {
    TraceDigest sim;
    sim.launches = {Launch("aten::mm", 0, {Slice("mm_1", 100, sim_ns)})};
    TraceDigest hw;
    hw.launches = {Launch("aten::mm", 0, {Slice("mm_1", 100, hw_ns)})};
    return CompareDigests(sim, hw, CompareTolerance{2.0, 5.0});
  };
  // 4 ns on 100: beyond 2 % but within 5 ns.
  EXPECT_EQ(FindDifference(compare(104, 100), "device_time_op", "aten::mm"), nullptr);
  // 10 ns on 1000: beyond 5 ns but within 2 %.
  EXPECT_EQ(FindDifference(compare(1010, 1000), "device_time_op", "aten::mm"), nullptr);
  // 30 ns on 1000: beyond both.
  const Comparison c = compare(1030, 1000);
  const Difference* d = FindDifference(c, "device_time_op", "aten::mm");
  ASSERT_NE(d, nullptr);
  EXPECT_DOUBLE_EQ(d->sim, 1030);
  EXPECT_DOUBLE_EQ(d->hw, 1000);
  EXPECT_NE(FindDifference(c, "device_time_class", kNec), nullptr);
}

TEST(CompareMatch, CountsDifferOnlyWhereTheyDiffer) {
  TraceDigest sim;
  sim.device_keys = {{"mm_1", 3}, {"args_0", 3}};
  sim.fallbacks = {{"aten::sort", 2}};
  sim.device_events = 6;
  TraceDigest hw;
  hw.device_keys = {{"mm_1", 3}, {"args_0", 2}, {"copy_1", 1}};
  hw.fallbacks = {{"aten::sort", 2}};
  hw.recompiles = {{"aten::mm", 1}};
  hw.device_events = 6;
  const Comparison c = CompareDigests(sim, hw, CompareTolerance{});
  ASSERT_EQ(c.event_names.size(), 2u);
  EXPECT_EQ(c.event_names[0].name, "args_0");
  EXPECT_EQ(c.event_names[0].sim, 3);
  EXPECT_EQ(c.event_names[0].hw, 2);
  EXPECT_EQ(c.event_names[1].name, "copy_1");
  EXPECT_EQ(c.event_names[1].sim, 0);
  EXPECT_TRUE(c.fallbacks.empty());
  ASSERT_EQ(c.recompiles.size(), 1u);
  EXPECT_NE(FindDifference(c, "recompiles", "aten::mm"), nullptr);
  EXPECT_EQ(FindDifference(c, "device_events", "device events"), nullptr);
}

TEST(CompareMatch, HostOpsAreTheUnionWithMeanSelfTimes) {
  TraceDigest sim;
  sim.host_ops["aten::mm"] = {3, 300.0, {}, {}};
  sim.host_ops["aten::abs"] = {2, 40.0, {}, {}};
  TraceDigest hw;
  hw.host_ops["aten::mm"] = {3, 600.0, {}, {}};
  hw.host_ops["aten::to"] = {1, 5.0, {}, {}};
  const Comparison c = CompareDigests(sim, hw, CompareTolerance{});
  ASSERT_EQ(c.host_ops.size(), 3u);  // abs, mm, to: by name
  EXPECT_EQ(c.host_ops[0].name, "aten::abs");
  EXPECT_EQ(c.host_ops[0].hw_count, 0);
  EXPECT_EQ(c.host_ops[1].name, "aten::mm");
  EXPECT_DOUBLE_EQ(c.host_ops[1].sim_self_ns, 100.0);
  EXPECT_DOUBLE_EQ(c.host_ops[1].hw_self_ns, 200.0);
  EXPECT_NE(FindDifference(c, "host_self_time", "aten::mm"), nullptr);
  EXPECT_NE(FindDifference(c, "host_calls", "aten::abs"), nullptr);
  // A name seen on one side only has no self-time difference, only a call-count one.
  EXPECT_EQ(FindDifference(c, "host_self_time", "aten::to"), nullptr);
  EXPECT_NE(FindDifference(c, "host_calls", "aten::to"), nullptr);
}

TEST(CompareMatch, ErrorPctHandlesZeroes) {
  EXPECT_DOUBLE_EQ(ErrorPct(110, 100), 10.0);
  EXPECT_DOUBLE_EQ(ErrorPct(90, 100), -10.0);
  EXPECT_DOUBLE_EQ(ErrorPct(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(ErrorPct(5, 0), 100.0);
  EXPECT_DOUBLE_EQ(ErrorPct(-5, 0), -100.0);
}

// A launch the card recorded without device slices is a lost record, not 0 µs of device time:
// it is counted and left out of the op's mean on both sides.
TEST(CompareMatch, ALaunchWithoutDeviceSlicesIsCountedNotAveragedIn) {
  DigestSlice slice;
  slice.key = "mm_1";
  slice.kind = EngineKind::kMatmul;
  slice.dur_ns = 40;
  DigestLaunch launch;
  launch.op = "aten::mm";
  launch.slices = {slice};
  launch.device_ns = 40;
  TraceDigest sim;
  sim.launches = {launch, launch};
  TraceDigest hw = sim;
  hw.launches[1].slices.clear();
  hw.launches[1].device_ns = 0;
  const Comparison c = CompareDigests(sim, hw, CompareTolerance());
  ASSERT_EQ(c.ops.size(), 1u);
  EXPECT_EQ(c.ops[0].matched, 2);
  EXPECT_EQ(c.ops[0].hw_without_device, 1);
  EXPECT_EQ(c.ops[0].sim_without_device, 0);
  EXPECT_EQ(c.ops[0].sim_device_ns, 40.0);
  EXPECT_EQ(c.ops[0].hw_device_ns, 40.0);  // not (40 + 0) / 2
}

// With one 512x512 mm launch missing from the card, the later launches still pair with their own
// shapes (a small mm with a small mm), and the missing one is the only one unmatched.
TEST(CompareMatch, ADroppedLaunchDoesNotShiftTheLaterPairs) {
  const auto launch = [](const std::string& dims, int64_t device_ns) {
    DigestSlice slice;
    slice.key = "mm_0";
    slice.kind = EngineKind::kMatmul;
    slice.dur_ns = device_ns;
    DigestLaunch l;
    l.op = "aten::mm";
    l.input_dims = dims;
    l.slices = {slice};
    l.device_ns = device_ns;
    return l;
  };
  const std::string big = "[[512,512],[512,512]]", small = "[[8,512],[512,512]]";
  TraceDigest sim;
  sim.launches = {launch(big, 1000), launch(small, 100), launch(big, 1000), launch(small, 100)};
  TraceDigest hw;
  hw.launches = {launch(small, 110), launch(big, 1100), launch(small, 110)};  // the first big lost
  const Comparison c = CompareDigests(sim, hw, CompareTolerance());
  ASSERT_EQ(c.ops.size(), 1u);
  EXPECT_EQ(c.ops[0].matched, 3);
  EXPECT_EQ(c.unmatched_sim_launches, 1);
  for (const LaunchPair& pair : c.launch_pairs) {
    EXPECT_EQ(sim.launches[pair.sim].input_dims, hw.launches[pair.hw].input_dims);
  }
  EXPECT_NEAR(c.ops[0].hw_device_ns / c.ops[0].sim_device_ns, 1.1, 1e-9);  // +10% everywhere
  // Without shapes the k-th pairs with the k-th, as before.
  for (DigestLaunch& l : hw.launches)
    l.input_dims.clear();
  EXPECT_EQ(CompareDigests(sim, hw, CompareTolerance()).launch_pairs[0].hw, 0u);
}

TEST(CompareMatch, FitErrorWeighsOpsByLaunchesAndClassesByCommands) {
  Comparison c;
  c.ops = {{"aten::mm", 3, 3, 3, 0, 0, 110.0, 100.0, {}, {}},  // +10 %, 3 launches
           {"aten::add", 1, 1, 1, 0, 0, 70.0, 100.0, {}, {}},  // -30 %, 1 launch
           {"aten::cat", 1, 0, 0, 0, 0, 50.0, 0.0, {}, {}}};   // unmatched: left out
  c.classes = {{kNec, EngineKind::kMatmul, 4, 105.0, 100.0},   // 5 %
               {kDma, EngineKind::kDma, 1, 80.0, 100.0}};      // 20 %
  c.sim_latency.count = 4;
  c.sim_latency.p50_ns = 1200;
  c.hw_latency.count = 4;
  c.hw_latency.p50_ns = 1000;
  c.host_ops = {{"aten::mm", 2, 2, 150.0, 100.0},  // totals 300 vs 200
                {"aten::to", 0, 1, 0.0, 50.0}};    // 0 vs 50
  const FitError e = ComputeFitError(c);
  EXPECT_DOUBLE_EQ(e.op_device_max_pct, 30.0);
  EXPECT_DOUBLE_EQ(e.op_device_mean_pct, (10.0 * 3 + 30.0 * 1) / 4);
  EXPECT_DOUBLE_EQ(e.class_device_mean_pct, (5.0 * 4 + 20.0 * 1) / 5);
  EXPECT_DOUBLE_EQ(e.latency_p50_pct, 20.0);
  EXPECT_DOUBLE_EQ(e.host_self_pct, 100.0 * (100.0 + 50.0) / 250.0);
  EXPECT_DOUBLE_EQ(e.Objective(), e.op_device_mean_pct + e.class_device_mean_pct +
                                      e.latency_p50_pct + 0.5 * e.host_self_pct);
}

}  // namespace
}  // namespace rblnsim::cli
