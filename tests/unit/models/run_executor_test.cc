// RunExecutor without the kernel: the engine FIFOs, the serial dispatcher, dependencies, HBM
// sharing and timeouts, checked against schedules worked out by hand from the closed forms.
#include "models/rebel100/run_executor.h"

#include <gtest/gtest.h>

#include "models/rebel100/command_timing.h"
#include "models/rebel100/sim_time.h"

namespace rblnsim::rebel100 {
namespace {

using compiler::Command;
using compiler::Program;
using compiler::SyncWork;
using compiler::TransferWork;

Command Transfer(const std::string& layer, int index, int64_t bytes, std::vector<int> deps = {}) {
  Command command;
  command.layer = layer;
  command.index = index;
  command.engine = EngineType::kNeuralDma;
  command.work = TransferWork{bytes, false};
  command.deps = std::move(deps);
  return command;
}

Command Sync(const std::string& layer, std::vector<int> deps) {
  Command command;
  command.layer = layer;
  command.engine = EngineType::kDeviceSync;
  command.work = SyncWork{2};
  command.deps = std::move(deps);
  return command;
}

class RunExecutorTest : public ::testing::Test {
 protected:
  RunExecutorTest() {
    config_.chiplets = 1;
    config_.dispatch_ns = 10;
    config_.command_overhead_cycles = 0;
    config_.clock_ghz = 1.0;
    config_.dma_bandwidth_bytes_per_s = 1e9;  // 1 byte/ns: durations are easy to read
    config_.dma_efficiency = 1.0;
    config_.hbm_bandwidth_bytes_per_s = 1e12;  // never the bottleneck unless a test says so
    config_.d2d_latency_ns = 7;
    config_.command_timeout_ns = 1e6;
  }

  // The run of |program| as the compiler would hand it over: timed for config_.
  RunRequest Run(Program& program) {
    TimeCommands(&program, config_);
    RunRequest run;
    run.program = &program;
    run.launch_id = 1;
    return run;
  }

  scenario::DeviceConfig config_;
  DeviceStats stats_;
};

TEST_F(RunExecutorTest, ParallelLanesThenAFifoForTheFifthTransfer) {
  ProfilerUnit profiler(100, DeviceClock(1.0, 0, 0));
  RunExecutor executor(config_, "{layer}_{command}", &profiler, &stats_);
  Program program;
  for (int i = 0; i < 5; ++i)
    program.commands.push_back(Transfer("args", i, 100));
  RunRequest run = Run(program);
  const double done = executor.Execute(&run, 1000);
  // The dispatcher hands one command over every 10 ns: 1010, 1020, 1030, 1040 on the four Neural
  // DMA lanes (100 ns each); the fifth waits for the first lane to free at 1110.
  ASSERT_EQ(profiler.records().size(), 5u);
  std::vector<int64_t> starts, lanes;
  for (const DeviceRecord& r : profiler.records()) {
    starts.push_back(r.start_cycles);
    lanes.push_back(r.engine_instance);
  }
  EXPECT_EQ(starts, (std::vector<int64_t>{1010, 1020, 1030, 1040, 1110}));
  EXPECT_EQ(lanes, (std::vector<int64_t>{0, 1, 2, 3, 0}));
  EXPECT_DOUBLE_EQ(done, 1210);
  EXPECT_DOUBLE_EQ(run.truth.first_start_ns, 1010);
  EXPECT_DOUBLE_EQ(run.truth.last_end_ns, 1210);
  EXPECT_DOUBLE_EQ(executor.BusyNs(0, EngineType::kNeuralDma), 500);
  EXPECT_EQ(stats_.commands_executed, 5);
}

TEST_F(RunExecutorTest, DependentsWaitForTheirLastDependencyAndTheDispatcher) {
  ProfilerUnit profiler(100, DeviceClock(1.0, 0, 0));
  RunExecutor executor(config_, "{layer}_{command}", &profiler, &stats_);
  Program program;
  program.commands.push_back(Transfer("a", 0, 50));
  program.commands.push_back(Transfer("a", 1, 200));
  program.commands.push_back(Sync("join", {0, 1}));
  RunRequest run = Run(program);
  const double done = executor.Execute(&run, 0);
  // a_0 10..60, a_1 20..220; the join is dispatched at 220 + 10 and takes one d2d hop.
  ASSERT_EQ(profiler.records().size(), 3u);
  EXPECT_EQ(profiler.records()[2].start_cycles, 230);
  EXPECT_EQ(profiler.records()[2].end_cycles, 237);
  EXPECT_DOUBLE_EQ(done, 237);
  // The dispatcher is serial across runs too: the next run's first command waits for it.
  Program next;
  next.commands.push_back(Transfer("b", 0, 10));
  RunRequest second = Run(next);
  second.launch_id = 2;
  executor.Execute(&second, 100);
  EXPECT_EQ(profiler.records()[3].start_cycles, 240);
}

TEST_F(RunExecutorTest, SharedHbmSerialisesStreamsAndSlowsTheRun) {
  config_.hbm_bandwidth_bytes_per_s = 1e9;  // as slow as one DMA engine
  ProfilerUnit profiler(100, DeviceClock(1.0, 0, 0));
  RunExecutor executor(config_, "{layer}_{command}", &profiler, &stats_);
  Program program;
  program.commands.push_back(Transfer("a", 0, 100));
  program.commands.push_back(Transfer("a", 1, 100));
  RunRequest run = Run(program);
  // Both lanes run and share the channel: a_0 alone 10..20, then half each until a_0 ends at 200,
  // then a_1's last 10 bytes alone until 210.
  EXPECT_DOUBLE_EQ(executor.Execute(&run, 0), 210);
  EXPECT_EQ(executor.hbm()[0].bytes_moved(), 200);
}

TEST_F(RunExecutorTest, AHungCommandTimesOutAndItsDependentsAreSkipped) {
  config_.command_timeout_ns = 500;
  config_.hang_command = "a_0";
  ProfilerUnit profiler(100, DeviceClock(1.0, 0, 0));
  RunExecutor executor(config_, "{layer}_{command}", &profiler, &stats_);
  Program program;
  program.commands.push_back(Transfer("a", 0, 100));
  program.commands.push_back(Sync("join", {0}));
  RunRequest run = Run(program);
  const double done = executor.Execute(&run, 0);
  EXPECT_TRUE(run.failed);
  EXPECT_NE(run.error.find("command a_0 (launch 1)"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("within 500 ns"), std::string::npos) << run.error;
  EXPECT_EQ(stats_.commands_timed_out, 1);
  EXPECT_EQ(stats_.commands_skipped, 1);
  EXPECT_TRUE(profiler.records().empty());  // a timed-out command leaves no record
  // Timed out at 10 + 500; the skipped join resolves at its dispatch, 10 ns later.
  EXPECT_DOUBLE_EQ(done, 520);
}

// The executor reads each command's timing from the program: one the compiler did not time is
// refused, not run as zero-length commands.
TEST_F(RunExecutorTest, AnUntimedProgramFailsItsRun) {
  ProfilerUnit profiler(100, DeviceClock(1.0, 0, 0));
  RunExecutor executor(config_, "{layer}_{command}", &profiler, &stats_);
  Program program;
  program.key = "hand-made";
  program.commands.push_back(Transfer("a", 0, 100));
  RunRequest run;
  run.program = &program;
  EXPECT_DOUBLE_EQ(executor.Execute(&run, 5), 5);
  EXPECT_TRUE(run.failed);
  EXPECT_NE(run.error.find("program hand-made was not timed"), std::string::npos) << run.error;
  EXPECT_TRUE(profiler.records().empty());
}

TEST_F(RunExecutorTest, EndTimesLandOnTheKernelGrid) {
  config_.dma_bandwidth_bytes_per_s = 3e9;  // 100 bytes take 33.333... ns
  ProfilerUnit profiler(100, DeviceClock(1.0, 0, 0));
  RunExecutor executor(config_, "{layer}_{command}", &profiler, &stats_);
  Program program;
  program.commands.push_back(Transfer("a", 0, 100));
  RunRequest run = Run(program);
  const double done = executor.Execute(&run, 0);
  EXPECT_DOUBLE_EQ(done, 10 + KernelDelayNs(100.0 / 3.0));
  EXPECT_DOUBLE_EQ(done / NsPerTick(), std::round(done / NsPerTick()));
}

}  // namespace
}  // namespace rblnsim::rebel100
