// Trace summaries and their diff on synthetic eager runs whose every number is known: each
// change to the run moves exactly the figures it should, and nothing else.
#include "profiler/diff/trace_diff.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "profiler/index/trace_index.h"
#include "tests/unit/analysis_latency/synthetic_trace.h"

namespace rblnsim::diff {
namespace {

using testing::SyntheticTrace;

struct RunShape {
  int64_t outer_mm_ns = 1000;  // the dispatcher frame's length: its self time moves with it
  bool scan = false;           // a NaN/Inf scan before each kernel
  int64_t slice_ns = 2000;
  int64_t pickup_ns = 500;  // marker start -> device start
};

// Three aten::mm calls, each a dispatcher frame over the kernel's aten::mm that launches.
trace::Trace EagerRun(const RunShape& shape) {
  SyntheticTrace t;
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t ts = i * 100'000;
    t.Op("aten::mm", ts, shape.outer_mm_ns + 600);
    if (shape.scan)
      t.Scan(ts + 10, 1024);
    t.Op("aten::mm", ts + 500, 300);
    t.Marker(i + 1, ts + 550, 50);
    t.Slice("i1_" + std::to_string(i) + "_W0_args_0_0", i + 1, ts + 550 + shape.pickup_ns, 400, 2,
            trace::Category::kGpuMemcpy);
    t.Slice("i1_" + std::to_string(i) + "_W0_mm_1", i + 1, ts + 1000 + shape.pickup_ns,
            shape.slice_ns);
  }
  return std::move(t.trace);
}

TraceSummary Summary(const trace::Trace& trace) {
  auto index = index::TraceIndex::Build(trace);
  EXPECT_TRUE(index.ok());
  return Summarize(*index, analysis::LatencyOptions());
}

std::set<std::string> Changed(const TraceDiff& diff) {
  std::set<std::string> keys;
  for (const Metric& m : diff.metrics) {
    if (m.changed())
      keys.insert(m.key);
  }
  return keys;
}

TEST(TraceDiff, ARunAgainstItselfHasNoDifferences) {
  const trace::Trace trace = EagerRun({});
  const TraceDiff diff = DiffSummaries(Summary(trace), Summary(trace));
  EXPECT_FALSE(diff.HasDifferences());
  EXPECT_TRUE(Changed(diff).empty());
  EXPECT_TRUE(diff.stretches.empty());
  EXPECT_EQ(diff.matched, diff.base_sequence);
  EXPECT_EQ(diff.paired_launches, 3);
  EXPECT_EQ(diff.paired_latency_changed, 0);
}

TEST(TraceDiff, ALongerHostOpMovesOnlyItsSelfCpuAndTheHostTotals) {
  RunShape slower;
  slower.outer_mm_ns = 1500;
  const TraceDiff diff = DiffSummaries(Summary(EagerRun({})), Summary(EagerRun(slower)));
  EXPECT_EQ(Changed(diff), (std::set<std::string>{"op[aten::mm].self_cpu", "op[aten::mm].cpu_total",
                                                  "self_cpu", "host_time"}));
  EXPECT_EQ(diff.Find("op[aten::mm].self_cpu")->delta(), 3 * 500);
  EXPECT_TRUE(diff.stretches.empty());
  ASSERT_FALSE(diff.ops.empty());
  EXPECT_EQ(diff.ops[0].name, "aten::mm");
  EXPECT_EQ(diff.ops[0].time_change_ns(), 1500);
}

TEST(TraceDiff, ALaterPickupMovesOnlyTheLatencyFigures) {
  RunShape late;
  late.pickup_ns = 800;
  const TraceDiff diff = DiffSummaries(Summary(EagerRun({})), Summary(EagerRun(late)));
  for (const std::string& key : Changed(diff)) {
    const bool latency = key.find("latency") != std::string::npos ||
                         key.find("launch_delay") != std::string::npos ||
                         key.rfind("idle.", 0) == 0;
    EXPECT_TRUE(latency) << key;
  }
  EXPECT_EQ(diff.Find("latency.p50")->delta(), 300);
  EXPECT_EQ(diff.Find("op[aten::mm].latency.max")->delta(), 300);
  EXPECT_EQ(diff.paired_launches, 3);
  EXPECT_EQ(diff.paired_latency_changed, 3);
  EXPECT_EQ(diff.paired_latency_delta.max_ns, 300);
}

TEST(TraceDiff, LongerKernelsMoveDeviceTimePerClassFamilyAndLaunchingOp) {
  RunShape slow;
  slow.slice_ns = 2100;
  const TraceDiff diff = DiffSummaries(Summary(EagerRun({})), Summary(EagerRun(slow)));
  EXPECT_EQ(diff.Find("class[compute].device_time")->delta(), 300);
  EXPECT_FALSE(diff.Find("class[copy].device_time")->changed());
  EXPECT_EQ(diff.Find("family[mm].device_time")->delta(), 300);
  EXPECT_FALSE(diff.Find("family[args].device_time")->changed());
  EXPECT_EQ(diff.Find("op[aten::mm].device_time")->delta(), 300);
  EXPECT_EQ(diff.Find("device_time")->delta(), 300);
  EXPECT_FALSE(diff.Find("latency.p99")->changed());
  EXPECT_FALSE(diff.Find("op[aten::mm].self_cpu")->changed());
}

TEST(TraceDiff, AScanIsAnUnmatchedStretchAHiddenRowAndAddedOps) {
  RunShape scanned;
  scanned.scan = true;
  const TraceDiff diff = DiffSummaries(Summary(EagerRun({})), Summary(EagerRun(scanned)));
  ASSERT_EQ(diff.stretches.size(), 3u);
  for (const Stretch& s : diff.stretches) {
    EXPECT_EQ(s.run.base_count, 0u);
    EXPECT_EQ(s.after, "aten::mm");
    ASSERT_FALSE(s.new_ops.empty());
    EXPECT_EQ(s.new_ops[0], "aten::to");
  }
  ASSERT_EQ(diff.hidden.size() >= 1, true);
  bool scan_row = false;
  for (const HiddenDiff& h : diff.hidden) {
    if (h.key.kind == HiddenKind::kScan) {
      scan_row = true;
      EXPECT_EQ(h.key.op, "aten::mm");
      EXPECT_EQ(h.base, 0);
      EXPECT_EQ(h.next, 3);
    }
  }
  EXPECT_TRUE(scan_row);
  EXPECT_EQ(diff.Find("scans")->delta(), 3);
  const Metric* isinf = diff.Find("op[aten::isinf].calls");
  ASSERT_NE(isinf, nullptr);
  EXPECT_FALSE(isinf->in_base);
  EXPECT_TRUE(isinf->in_new);
  // The launches still pair through the alignment.
  EXPECT_EQ(diff.paired_launches, 3);
  EXPECT_EQ(diff.paired_latency_changed, 0);
}

TEST(TraceDiff, LayoutFiguresAreNotComparedAcrossDialects) {
  const TraceSummary base = Summary(EagerRun({}));
  TraceSummary other = base;
  other.dialect = trace::Dialect::kCurrent;
  other.launch_delay.p99_ns += 5000;
  other.device_lanes["Neural DMA"] = DeviceTotals{1, 5};
  const TraceDiff diff = DiffSummaries(base, other);
  EXPECT_FALSE(diff.same_dialect());
  EXPECT_FALSE(diff.HasDifferences());
  EXPECT_FALSE(diff.Find("launch_delay.p99")->comparable);
  EXPECT_FALSE(diff.Find("lane[Neural DMA].device_time")->comparable);
  EXPECT_TRUE(diff.Find("latency.p99")->comparable);
  EXPECT_TRUE(diff.Find("class[compute].device_time")->comparable);
}

TEST(TraceSummary, CommandFamilies) {
  EXPECT_EQ(CommandFamily("i1_0_W0_args_0_2"), "args");
  EXPECT_EQ(CommandFamily("i12_340_W3_mm_1"), "mm");
  EXPECT_EQ(CommandFamily("mm"), "mm");
  EXPECT_EQ(CommandFamily("flash_attn_fwd"), "flash_attn_fwd");
  EXPECT_EQ(CommandFamily("_1"), "_1");
  EXPECT_EQ(CommandFamily("softmax_"), "softmax_");
}

TEST(TraceSummary, HostOpsLaunchesAndSequence) {
  const TraceSummary s = Summary(EagerRun({}));
  ASSERT_EQ(s.op_names.size(), 1u);
  EXPECT_EQ(s.op_names[0], "aten::mm");
  EXPECT_EQ(s.ops[0].calls, 3);  // key_averages merges an op directly nested in itself
  EXPECT_EQ(s.ops[0].launches, 3);
  EXPECT_EQ(s.ops[0].device_slices, 6);
  EXPECT_EQ(s.ops[0].device_ns, 3 * (400 + 2000));
  EXPECT_EQ(s.launches, 3);
  EXPECT_EQ(s.submission.p50_ns, 500);
  // outer mm, inner mm, launch: three elements per call.
  EXPECT_EQ(s.sequence.size(), 9u);
  EXPECT_EQ(s.sequence_launch_latency_ns, (std::vector<int64_t>{500, 500, 500}));
  EXPECT_EQ(s.device_classes.at("compute").slices, 3);
  EXPECT_EQ(s.device_classes.at("copy").slices, 3);
}

}  // namespace
}  // namespace rblnsim::diff
