// A command that never completes (device.faults.hang_command). The command timeout must fire, the
// run must end with a diagnostic naming the command, and nothing may hang: the CLI exits 1 with
// the trace still written and checkable, and a C-ABI consumer still gets the export and the
// count of timed-out commands. Simulated time does the waiting (the timeout is 1 s of simulated
// time), so every case must also end quickly in wall-clock time.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "sim/runtime/simulated_runtime.h"
#include "tests/unit/models/sim_fixtures.h"
#include "tests/unit/reliability/reliability_util.h"

namespace rblnsim::testing {
namespace {

// The third profiled call's first matmul command (launch 4; the warm-up is launch 1).
constexpr char kHungCommand[] = "i1_2_W0_mm_0";
constexpr double kWallLimitSeconds = 60;
constexpr double kExpectedWallSeconds = 20;

std::vector<std::string> SeedRun(const std::string& hang, const std::string& trace) {
  return {"run",         SourcePath("scenarios/profile_matmul.yaml"),
          "--set",       "device.faults.hang_command=" + hang,
          "--no-expect",  // the exit status must come from the failed run alone
          "--trace",     trace};
}

TEST(Hang, CliEndsWithExitOneAndADiagnosticNamingTheCommand) {
  const TempDir dir;
  const std::string trace = dir.path() + "/hang.json";
  const ProcessResult run =
      RunRblnsim(SeedRun(kHungCommand, trace), {"RBLN_PROFILER=1"}, kWallLimitSeconds);
  ASSERT_FALSE(run.timed_out) << "rblnsim run hung";
  EXPECT_LT(run.wall_seconds, kExpectedWallSeconds);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("rblnsim: the simulated run failed: command i1_2_W0_mm_0 (launch 4) "),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("did not complete within 1000000000 ns"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("RBLN runtime: 1 command(s) timed out"), std::string::npos) << run.out;

  // The trace is written anyway, carries the count, and passes the contract check.
  auto producer = TraceCounters(trace, "rbln_producer");
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  EXPECT_EQ((*producer)["commands_timed_out"], 1u);
  // 18 commands, minus the hung one and its two dependents (skipped after the timeout).
  EXPECT_EQ((*producer)["records_captured"], 15u);
  const ProcessResult check = RunRblnsim({"check", trace});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST(Hang, EveryProfiledRunHangingStillEndsAndWritesTheTrace) {
  // "<layer>_<index>" names that command in every run; without a warm-up all three profiled
  // launches time out, one simulated second each.
  const TempDir dir;
  const std::string trace = dir.path() + "/all_hang.json";
  std::vector<std::string> args = SeedRun("mm_0", trace);
  args.insert(args.end(), {"--set", "workload.warmup=[]"});
  const ProcessResult run = RunRblnsim(args, {"RBLN_PROFILER=1"}, kWallLimitSeconds);
  ASSERT_FALSE(run.timed_out) << "rblnsim run hung";
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("rblnsim: the simulated run failed: command i1_0_W0_mm_0 (launch 1) "),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("RBLN runtime: 3 command(s) timed out"), std::string::npos) << run.out;
  auto producer = TraceCounters(trace, "rbln_producer");
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  EXPECT_EQ((*producer)["commands_timed_out"], 3u);
  EXPECT_EQ((*producer)["records_captured"], 9u);  // the three args_0 copies of each launch
  const ProcessResult check = RunRblnsim({"check", trace});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

// A hang before the profiled window: there is nothing to trace, so the run stops at once with
// the diagnostic and exit 1, and leaves no trace file behind.
TEST(Hang, WarmupHangEndsWithExitOneAndNoTrace) {
  const TempDir dir;
  const std::string trace = dir.path() + "/warmup_hang.json";
  const ProcessResult run =
      RunRblnsim(SeedRun("mm_0", trace), {"RBLN_PROFILER=1"}, kWallLimitSeconds);
  ASSERT_FALSE(run.timed_out) << "rblnsim run hung";
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(run.err.starts_with("rblnsim: warm-up failed: command i1_0_W0_mm_0 (launch 1) "))
      << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_FALSE(std::ifstream(trace).good());
}

// A consumer that knows only the C-ABI: the window runs inside end_session. The failure is on
// stderr, and the export and stats still arrive (rather than RBLN_KINETO_ERR_RUNTIME and nothing).
TEST(Hang, CAbiConsumerGetsTheCaptureTheCountAndTheDiagnostic) {
  scenario::Scenario s = SeedScenario();
  s.device.hang_command = kHungCommand;
  ASSERT_TRUE(sim::SimulatedRuntime::Get().Configure(s, sim::ClockMode::kSimulated).ok());

  const auto start = std::chrono::steady_clock::now();
  AbiSession session;
  const std::string err = CaptureStderr([&] { session = RunAbiSession(); });
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  EXPECT_LT(wall.count(), kExpectedWallSeconds);

  ASSERT_EQ(session.begin_code, RBLN_KINETO_OK);
  EXPECT_EQ(session.end_code, RBLN_KINETO_OK);
  EXPECT_EQ(session.exported, 1);
  EXPECT_EQ(session.sink_calls, 1);
  EXPECT_EQ(DeviceSlices(session.slices).size(), 15u);
  for (const ExportedSlice& slice : session.slices)
    EXPECT_NE(slice.name, kHungCommand);
  ASSERT_EQ(session.stats_code, RBLN_KINETO_OK);
  EXPECT_EQ(session.stats.commands_timed_out, 1u);
  EXPECT_EQ(session.stats.records_captured, 15u);
  EXPECT_NE(err.find("rblnsim: the simulated run failed: command i1_2_W0_mm_0 (launch 4)"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("RBLN Profiler Generation Status Report: 15 device records captured, 0 "
                     "dropped (record buffer full), 3 launches, 1 commands timed out"),
            std::string::npos)
      << err;
}

// The device model alone: the timeout fires at exactly command_timeout of simulated time.
TEST(Hang, TimeoutFiresAfterTheConfiguredSimulatedTime) {
  const auto durations = InChild([] {
    scenario::Scenario s = SeedScenario();
    s.device.hang_command = kHungCommand;
    s.device.command_timeout_ns = 5e6;
    const sim::SimulatedSession simulated = SimulateInProcess(s);
    const sim::SessionData& session = simulated.session;
    return std::vector<double>{session.end_ns - session.begin_ns,
                               static_cast<double>(session.commands_timed_out),
                               simulated.window.ok() ? 0.0 : 1.0};
  });
  ASSERT_EQ(durations.size(), 3u);
  EXPECT_EQ(durations[1], 1);
  EXPECT_EQ(durations[2], 1);
  // The session lasted at least the timeout and not much more than the seed's ~1 ms plus it.
  EXPECT_GE(durations[0], 5e6);
  EXPECT_LT(durations[0], 5e6 + 5e6);
}

}  // namespace
}  // namespace rblnsim::testing
