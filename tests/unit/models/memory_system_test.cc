// The memory system against first-order bounds: a GEMM's device time follows
// max(FLOPs / peak FLOP/s, bytes / HBM bandwidth) across the whole M range, HBM bandwidth and
// engine count move the memory- and compute-bound ends in opposite directions, placement spreads a
// GEMV over every chiplet's HBM, and two memory-bound engines on one chiplet share its HBM.
// Compiled with the compiler model and run on the RunExecutor, without the SystemC kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <variant>
#include <vector>

#include "models/compiler/op_compiler.h"
#include "models/rebel100/command_timing.h"
#include "models/rebel100/matmul_timing.h"
#include "models/rebel100/run_executor.h"

namespace rblnsim::rebel100 {
namespace {

using scenario::DeviceConfig;
using scenario::DType;

constexpr int64_t kMs[] = {1, 4, 16, 64, 256, 1024, 4096, 8192};

compiler::OpLaunch Gemm(int64_t m, int64_t k, int64_t n) {
  compiler::OpLaunch launch;
  launch.layer = "mm";
  launch.op_class = compiler::OpClass::kMatmul;
  launch.inputs = {{{m, k}, DType::kFp16, 0, true}, {{k, n}, DType::kFp16, 1, true}};
  launch.output_shape = {m, n};
  return launch;
}

struct Busy {
  double ns = 0;                // first command start to last command end
  int chiplets = 0;             // chiplets the op's own commands ran on
  Bound bound = Bound::kFixed;  // of compute and HBM, the one that held the engines longer
};

Busy RunOnce(const compiler::Program& program, const DeviceConfig& device) {
  ProfilerUnit profiler(1 << 16, DeviceClock(device.clock_ghz, 0, 0));
  DeviceStats stats;
  RunExecutor executor(device, "{layer}_{command}", &profiler, &stats);
  RunRequest run;
  run.program = &program;
  run.launch_id = 1;
  executor.Execute(&run, 0.0);
  EXPECT_TRUE(stats.errors.empty());
  Busy busy;
  busy.ns = run.truth.last_end_ns - run.truth.first_start_ns;
  const auto& by = run.truth.bound_ns;
  busy.bound = by[static_cast<size_t>(Bound::kHbm)] > by[static_cast<size_t>(Bound::kCompute)]
                   ? Bound::kHbm
                   : Bound::kCompute;
  for (const compiler::Command& c : program.commands)
    busy.chiplets = std::max(busy.chiplets, c.chiplet + 1);
  return busy;
}

Busy GemmBusy(int64_t m, int64_t k, int64_t n, const DeviceConfig& device) {
  auto program = compiler::CompileOp(Gemm(m, k, n), device);
  EXPECT_TRUE(program.ok()) << program.status().message();
  return RunOnce(*program, device);
}

// max(FLOPs / peak, bytes / HBM): the operands read once and the result written once.
double FirstOrderNs(int64_t m, int64_t k, int64_t n, const DeviceConfig& device) {
  const double flops = 2.0 * m * k * n;
  const double bytes =
      2.0 * (static_cast<double>(m) * k + static_cast<double>(k) * n + static_cast<double>(m) * n);
  const double compute_ns = flops / PeakFlopsPerSecond(device, DType::kFp16) * 1e9;
  const double memory_ns = bytes / (device.hbm_bandwidth_bytes_per_s * device.chiplets) * 1e9;
  return std::max(compute_ns, memory_ns);
}

void ExpectRoofline(int64_t k, int64_t n) {
  const DeviceConfig device;
  double previous = 0;
  for (int64_t m : kMs) {
    const Busy busy = GemmBusy(m, k, n, device);
    const double ratio = busy.ns / FirstOrderNs(m, k, n, device);
    EXPECT_GE(ratio, 0.7) << m << "x" << k << " @ " << k << "x" << n;
    EXPECT_LE(ratio, 1.6) << m << "x" << k << " @ " << k << "x" << n << ": " << busy.ns << " ns";
    EXPECT_GE(busy.ns, previous) << "not monotone at M=" << m;
    previous = busy.ns;
  }
}

TEST(MemorySystem, GemmFollowsTheRooflineAcrossM) {
  ExpectRoofline(8192, 8192);
}

TEST(MemorySystem, SecondShapeFollowsTheRooflineAcrossM) {
  ExpectRoofline(8192, 28672);  // a 70B-class MLP up-projection
}

// The bound switches from HBM to compute at the ridge point: peak FLOP/s over HBM bytes/s is
// about 219 FLOP/byte, and an M x 8192 @ 8192 x 8192 GEMM does about M FLOP per byte.
TEST(MemorySystem, BoundSwitchesAtTheRidgePoint) {
  const DeviceConfig device;
  const double ridge = PeakFlopsPerSecond(device, DType::kFp16) /
                       (device.hbm_bandwidth_bytes_per_s * device.chiplets);
  ASSERT_GT(ridge, 64);
  ASSERT_LT(ridge, 1024);
  for (int64_t m : kMs) {
    const Bound bound = GemmBusy(m, 8192, 8192, device).bound;
    if (m <= 64) {
      EXPECT_EQ(bound, Bound::kHbm) << m;
    } else if (m >= 1024) {
      EXPECT_EQ(bound, Bound::kCompute) << m;
    }
  }
}

TEST(MemorySystem, HbmBandwidthMovesTheMemoryBoundEndOnly) {
  const DeviceConfig base;
  DeviceConfig fast_hbm = base;
  fast_hbm.hbm_bandwidth_bytes_per_s *= 2;
  DeviceConfig more_engines = base;
  more_engines.engines_per_chiplet *= 2;
  const double gemv = GemmBusy(1, 8192, 8192, base).ns;
  const double gemm = GemmBusy(8192, 8192, 8192, base).ns;
  // The launch's fixed cost (argument staging and per-command overhead, about 11 us, calibrated
  // to the tutorial's small mm) does not shrink with bandwidth, so the GEMV gains less than the 2x
  // of its memory time.
  EXPECT_GE(gemv / GemmBusy(1, 8192, 8192, fast_hbm).ns, 1.6);
  EXPECT_LE(gemm / GemmBusy(8192, 8192, 8192, fast_hbm).ns, 1.1);
  EXPECT_LE(gemv / GemmBusy(1, 8192, 8192, more_engines).ns, 1.1);
  EXPECT_GE(gemm / GemmBusy(8192, 8192, 8192, more_engines).ns, 1.6);
}

TEST(MemorySystem, PlacementSpreadsAGemvButKeepsASmallMatmulOnOneChiplet) {
  const DeviceConfig device;
  EXPECT_EQ(GemmBusy(1, 8192, 8192, device).chiplets, device.chiplets);
  EXPECT_EQ(GemmBusy(8192, 8192, 8192, device).chiplets, device.chiplets);
  EXPECT_EQ(GemmBusy(512, 512, 512, device).chiplets, 1);  // the tutorial's x @ x
  // A floor on FLOPs keeps even a GEMV on one chiplet, and it is then bound by one stack.
  DeviceConfig floor = device;
  floor.chiplet_split_min_flops = int64_t{1} << 40;
  const Busy one = GemmBusy(1, 8192, 8192, floor);
  EXPECT_EQ(one.chiplets, 1);
  EXPECT_GE(one.ns / GemmBusy(1, 8192, 8192, device).ns, 2.5);
}

// Split along m (more rows than columns), every chiplet computes its rows against all of the
// weights, which live in the first chiplet's HBM: the other shares read them over the die-to-die
// link, so the first stack serves the weight streams of all four and a slower link slows the op.
TEST(MemorySystem, SharesSplitAlongMReadTheWeightsAcrossTheLink) {
  const DeviceConfig device;
  auto program = compiler::CompileOp(Gemm(8192, 8192, 1024), device);
  ASSERT_TRUE(program.ok());
  int remote = 0;
  for (const compiler::Command& c : program->commands) {
    if (const auto* mm = std::get_if<compiler::MatmulWork>(&c.work))
      remote += mm->weights_chiplet == 0 && c.chiplet != 0;
  }
  EXPECT_EQ(remote, device.chiplets - 1);
  ProfilerUnit profiler(1 << 16, DeviceClock(device.clock_ghz, 0, 0));
  DeviceStats stats;
  RunExecutor executor(device, "{layer}_{command}", &profiler, &stats);
  RunRequest run;
  run.program = &*program;
  executor.Execute(&run, 0.0);
  EXPECT_GT(executor.hbm()[0].bytes_moved(), 2 * executor.hbm()[1].bytes_moved());
  const double fast_link = run.truth.last_end_ns - run.truth.first_start_ns;
  DeviceConfig slow = device;
  slow.d2d_bandwidth_bytes_per_s /= 50;
  auto again = compiler::CompileOp(Gemm(8192, 8192, 1024), slow);
  ASSERT_TRUE(again.ok());
  EXPECT_GT(RunOnce(*again, slow).ns, 1.2 * fast_link);
}

// Two memory-bound engines on one chiplet at once: a GEMV on the Neural Engine Clusters and a
// large elementwise pass on the General Compute Engine. Each alone is bound by the chiplet's HBM;
// run together, both take longer, and the bytes they move in the time they overlap fit the one
// stack.
TEST(MemorySystem, ConcurrentMemoryBoundEnginesShareTheChipletHbm) {
  DeviceConfig device;
  device.chiplets = 1;
  auto gemv = compiler::CompileOp(Gemm(1, 4096, 8192), device);
  ASSERT_TRUE(gemv.ok());
  compiler::Program pass;
  const int64_t elements = int64_t{1024} * 8192;
  pass.commands.push_back({"add",
                           0,
                           EngineType::kGeneralCompute,
                           0,
                           compiler::VectorWork{elements, 1.0, 3 * elements * 2},
                           {}});
  TimeCommands(&pass, device);
  const double gemv_alone = RunOnce(*gemv, device).ns;
  const double pass_alone = RunOnce(pass, device).ns;
  EXPECT_EQ(RunOnce(pass, device).bound, Bound::kHbm);

  // The pass starts with the GEMV's weight load, so the two stream side by side.
  compiler::Program both = *gemv;
  compiler::Command with = pass.commands[0];
  for (int i = 0; i < static_cast<int>(both.commands.size()); ++i) {
    if (both.commands[i].layer == "mm" && both.commands[i].index == 0)
      with.deps = {i};
  }
  ASSERT_FALSE(with.deps.empty());
  both.commands.push_back(with);
  TimeCommands(&both, device);
  ProfilerUnit profiler(1 << 16, DeviceClock(device.clock_ghz, 0, 0));
  DeviceStats stats;
  RunExecutor executor(device, "{layer}_{command}", &profiler, &stats);
  RunRequest run;
  run.program = &both;
  executor.Execute(&run, 0.0);
  double mm_ns = 0, add_ns = 0;
  for (const DeviceRecord& r : profiler.records()) {
    const double ns = static_cast<double>(r.end_cycles - r.start_cycles) / device.clock_ghz;
    if (both.commands[r.command_index].layer == "add")
      add_ns = ns;
    else if (r.engine == EngineType::kNeuralEngine)
      mm_ns = ns;
  }
  // The GEMV's compute command alone, from the same program.
  double mm_alone_ns = 0;
  {
    ProfilerUnit p(1 << 16, DeviceClock(device.clock_ghz, 0, 0));
    RunExecutor e(device, "{layer}_{command}", &p, &stats);
    RunRequest r;
    r.program = &*gemv;
    e.Execute(&r, 0.0);
    for (const DeviceRecord& rec : p.records()) {
      if (rec.engine == EngineType::kNeuralEngine)
        mm_alone_ns = static_cast<double>(rec.end_cycles - rec.start_cycles) / device.clock_ghz;
    }
  }
  EXPECT_GE(mm_ns / mm_alone_ns, 1.4) << mm_ns << " ns beside the pass, " << mm_alone_ns;
  EXPECT_GE(add_ns / pass_alone, 1.2) << add_ns << " ns beside the GEMV, " << pass_alone;
  // Sharing does not create bandwidth: together they take at least as long as the bytes of both
  // at the stack's rate, and no longer than one after the other.
  const double together = run.truth.last_end_ns - run.truth.first_start_ns;
  EXPECT_LE(together, gemv_alone + pass_alone);
  EXPECT_GE(together,
            static_cast<double>(run.truth.hbm_bytes) / (device.hbm_bandwidth_bytes_per_s * 1e-9));
}

}  // namespace
}  // namespace rblnsim::rebel100
