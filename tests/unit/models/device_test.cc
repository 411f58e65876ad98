// The Rebel100 device model end to end inside one process per test: the seed's device events,
// the record buffer, dependencies, the queue under a burst, timeouts, and reactions to parameters.
#include "models/rebel100/device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "models/compiler/program.h"
#include "models/host/host_runtime.h"
#include "scenario/loader.h"
#include "tests/unit/models/sim_fixtures.h"

namespace rblnsim::testing {
namespace {

TEST(Device, SeedGivesEighteenCommandsNearTheTutorialTotal) {
  const scenario::Scenario s = SeedScenario();
  auto simulation = sim::Simulation::Create(s, true);
  ASSERT_TRUE(simulation.ok());
  ASSERT_TRUE((*simulation)->RunWarmup().ok());
  (*simulation)->BeginSession();
  ASSERT_TRUE((*simulation)->RunWindow().ok());
  sim::SessionData session = (*simulation)->EndSession();
  ASSERT_EQ(session.records.size(), 18u);
  EXPECT_EQ(session.records_dropped, 0);
  const double total_us = RecordsTotalNs(session, s.device.clock_ghz) / 1000.0;
  EXPECT_NEAR(total_us, 36.959, 36.959 * 0.10);

  std::vector<rebel100::DeviceRecord> sorted(session.records.begin(), session.records.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.start_cycles < b.start_cycles; });
  EXPECT_EQ((*simulation)->CommandName(sorted[0]), "i1_0_W0_args_0_0");
  EXPECT_EQ((*simulation)->CommandName(sorted[1]), "i1_0_W0_args_0_1");
  EXPECT_EQ((*simulation)->CommandName(sorted[2]), "i1_0_W0_args_0_2");
  EXPECT_EQ((*simulation)->CommandName(sorted[3]), "i1_0_W0_mm_0");
  EXPECT_EQ((*simulation)->CommandName(sorted[17]), "i1_2_W0_mm_2");
  EXPECT_EQ(session.truth.launches.size(), 3u);
}

// A process that profiles session after session keeps no finished launch: each session's runs
// are released once its ground truth is taken, except a run a tensor still waits on.
TEST(Device, FinishedRunsAreReleasedAtEachSessionEnd) {
  scenario::Scenario s = SeedScenario();
  auto simulation = sim::Simulation::Create(s, true);
  ASSERT_TRUE(simulation.ok()) << simulation.status().message();
  ASSERT_TRUE((*simulation)->RunWarmup().ok());
  for (int session = 0; session < 3; ++session) {
    (*simulation)->BeginSession();
    ASSERT_TRUE((*simulation)->RunWindow().ok());
    const sim::SessionData data = (*simulation)->EndSession();
    EXPECT_EQ(data.truth.launches.size(), 3u);
    EXPECT_EQ((*simulation)->runs_held(), 0u) << "session " << session;
  }
  EXPECT_GE((*simulation)->launches(), 9);

  // An output nobody has read yet keeps its producer until it is synchronised; the runs before
  // it go. The steps are typed as the loader types a workload's.
  scenario::Workload later;
  later.tensors = s.workload.tensors;
  later.profile = {OpStep("mm", {"x", "x"}, "a"),
                   OpStep("mm", {"x", "x"}, "b"),
                   OpStep("mm", {"x", "x"}, "unread"),
                   CpuStep("a"),
                   CpuStep("b"),
                   CpuStep("unread")};
  ASSERT_TRUE(scenario::TypeWorkload(&later).ok());
  const std::vector<scenario::Step> launch(later.profile.begin(), later.profile.begin() + 3);
  const std::vector<scenario::Step> read(later.profile.begin() + 3, later.profile.end());
  (*simulation)->BeginSession();
  ASSERT_TRUE((*simulation)->RunSteps(launch, true).ok());
  const sim::SessionData open = (*simulation)->EndSession();
  EXPECT_EQ(open.truth.launches.size(), 3u);
  EXPECT_GE((*simulation)->runs_held(), 1u);
  EXPECT_LE((*simulation)->runs_held(), 3u);
  (*simulation)->BeginSession();
  ASSERT_TRUE((*simulation)->RunSteps(read, true).ok());
  (*simulation)->EndSession();
  EXPECT_EQ((*simulation)->runs_held(), 0u);
}

// A long session does not hold a run per launch to its end: finished runs are released as it
// goes, each after its launch's ground truth is filled from it, and every truth is whole.
TEST(Device, ALongSessionReleasesRunsAsItGoesAndKeepsEveryTruth) {
  constexpr int64_t kLaunches = 3 * host::HostRuntime::kReleaseEveryRuns + 100;
  scenario::Scenario s = SeedScenario();
  s.workload.tensors = {Tensor("x", {64, 64})};
  s.workload.warmup = {OpStep("mm", {"x", "x"}, "y")};
  s.workload.profile = {Repeat(kLaunches, {OpStep("mm", {"x", "x"}, "y")})};
  s.device.record_buffer_capacity = int64_t{1} << 24;
  auto simulation = sim::Simulation::Create(s, true);
  ASSERT_TRUE(simulation.ok()) << simulation.status().message();
  ASSERT_TRUE((*simulation)->RunWarmup().ok());
  (*simulation)->BeginSession();
  ASSERT_TRUE((*simulation)->RunWindow().ok());
  // Released every kReleaseEveryRuns launches: at most that many since the last release, and
  // those the device had not finished then.
  EXPECT_LE((*simulation)->runs_held(),
            host::HostRuntime::kReleaseEveryRuns + static_cast<size_t>(s.device.queue_depth) + 1);
  const sim::SessionData data = (*simulation)->EndSession();
  ASSERT_EQ(data.truth.launches.size(), static_cast<size_t>(kLaunches));
  EXPECT_LE((*simulation)->runs_held(), 1u);  // the unread "y" may keep its producer
  const std::string_view program = data.truth.launches[0].program;
  EXPECT_FALSE(program.empty());
  for (size_t i = 0; i < data.truth.launches.size(); ++i) {
    const sim::LaunchTruth& launch = data.truth.launches[i];
    SCOPED_TRACE("launch " + std::to_string(i));
    ASSERT_EQ(launch.program, program);
    ASSERT_GT(launch.flops, 0);
    ASSERT_GT(launch.hbm_bytes, 0);
    ASSERT_FALSE(launch.failed);
    ASSERT_GE(launch.first_device_start_ns, launch.marker_start_ns);
    ASSERT_GE(launch.last_device_end_ns, launch.first_device_start_ns);
    ASSERT_GT(launch.completed_ns, launch.last_device_end_ns);
    ASSERT_GE(launch.host_overhead_ns, 0);
    ASSERT_GE(launch.ring_wait_ns, 0);
    ASSERT_GE(launch.queue_wait_ns, 0);
    ASSERT_GT(launch.transport_ns, 0);
  }
}

// The host model reads the loader's types and infers none itself: a scenario built in code is
// typed when the simulation is created, a step handed in untyped later is refused.
TEST(Device, TheHostModelRunsOnlyTypedSteps) {
  auto simulation = sim::Simulation::Create(SeedScenario(), true);
  ASSERT_TRUE(simulation.ok()) << simulation.status().message();
  EXPECT_TRUE(scenario::WorkloadTyped((*simulation)->scenario().workload));
  ASSERT_TRUE((*simulation)->RunWarmup().ok());
  const Status untyped = (*simulation)->RunSteps({OpStep("mm", {"x", "x"}, "q")}, false);
  EXPECT_EQ(untyped.code(), StatusCode::kInternal);
  EXPECT_NE(untyped.message().find("not typed by the loader"), std::string::npos);
}

// torch records softmax as aten::softmax around aten::_softmax, and the launch is _softmax's.
TEST(Device, SoftmaxLaunchesFromTheKernelInsideItsCompositeFrame) {
  scenario::Scenario s;
  s.env.rbln_profiler = true;
  s.workload.tensors = {Tensor("x", {8, 64})};
  s.workload.warmup = {OpStep("softmax", {"x"}, "y"), CpuStep("y")};
  s.workload.profile = {OpStep("softmax", {"x"}, "y"), CpuStep("y")};
  const sim::SessionData session = RunSession(s);
  const sim::HostTimeline& timeline = session.timeline;
  const auto find = [&](std::string_view name) -> const sim::HostEvent* {
    for (const sim::HostEvent& event : timeline.events) {
      if (timeline.names[event.name_id] == name)
        return &event;
    }
    return nullptr;
  };
  const sim::HostEvent* outer = find("aten::softmax");
  const sim::HostEvent* kernel = find("aten::_softmax");
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(kernel, nullptr);
  EXPECT_LE(outer->start_ns, kernel->start_ns);
  EXPECT_GE(outer->end_ns, kernel->end_ns);
  EXPECT_NE(outer->shapes_id, 0);  // both frames record the input
  EXPECT_EQ(outer->shapes_id, kernel->shapes_id);
  const sim::HostEvent* marker = nullptr;
  for (const sim::HostEvent& event : timeline.events) {
    if (event.kind == sim::HostEventKind::kRuntimeMarker)
      marker = &event;
  }
  ASSERT_NE(marker, nullptr);
  EXPECT_GE(marker->start_ns, kernel->start_ns);
  EXPECT_LE(marker->end_ns, kernel->end_ns);
  ASSERT_EQ(session.truth.launches.size(), 1u);
  EXPECT_EQ(session.truth.launches[0].op, "aten::_softmax");
}

// The host keeps one launch and its program key from launch to launch and writes the key again
// only when the inputs changed: each launch must still run the program of its own inputs, the
// shape and the dtype both part of the key, when ops on different tensors take turns.
TEST(Device, EachLaunchRunsTheProgramOfItsOwnInputs) {
  scenario::Scenario s;
  s.env.rbln_profiler = true;
  scenario::TensorSpec b = Tensor("b", {64, 64});
  b.dtype = scenario::DType::kBf16;
  s.workload.tensors = {Tensor("x", {64, 64}), Tensor("z", {128, 128}), b};
  s.workload.warmup = {OpStep("mm", {"x", "x"}, "y"), CpuStep("y")};
  s.workload.profile = {OpStep("mm", {"x", "x"}, "y"), OpStep("mm", {"z", "z"}, "w"),
                        OpStep("mm", {"x", "x"}, "y"), OpStep("mm", {"b", "b"}, "c"),
                        OpStep("mm", {"z", "z"}, "w"), CpuStep("w")};
  const sim::SessionData session = RunSession(s);
  ASSERT_EQ(session.truth.launches.size(), 5u);
  std::vector<std::string> programs;
  for (const sim::LaunchTruth& launch : session.truth.launches)
    programs.emplace_back(launch.program);
  EXPECT_NE(programs[0].find("fp16:64x64"), std::string::npos) << programs[0];
  EXPECT_NE(programs[1].find("fp16:128x128"), std::string::npos) << programs[1];
  EXPECT_NE(programs[3].find("bf16:64x64"), std::string::npos) << programs[3];
  EXPECT_EQ(programs[2], programs[0]);
  EXPECT_EQ(programs[4], programs[1]);
  EXPECT_EQ(std::set<std::string>(programs.begin(), programs.end()).size(), 3u);
  // The window compiles the two signatures the warm-up did not.
  EXPECT_EQ(session.truth.recompiles.size(), 2u);
}

TEST(Device, RecordBufferOverflowCountsEveryDrop) {
  scenario::Scenario s = SeedScenario();
  s.device.record_buffer_capacity = 10;
  const sim::SessionData session = RunSession(s);
  EXPECT_EQ(session.records.size(), 10u);
  EXPECT_EQ(session.records_dropped, 8);
}

TEST(Device, DependenciesAreNeverViolated) {
  scenario::Scenario s;
  s.env.rbln_profiler = true;
  s.env.torch_rbln_deploy = true;
  s.workload.tensors = {Tensor("a", {4096, 4096}), Tensor("q", {8, 256, 64})};
  s.workload.profile = {OpStep("mm", {"a", "a"}, "b"), OpStep("sdpa", {"q", "q", "q"}, "o"),
                        OpStep("softmax", {"b"}, "c"), CpuStep("c")};
  const sim::SessionData session = RunSession(s);
  ASSERT_GT(session.records.size(), 12u);
  std::map<std::pair<int64_t, int>, const rebel100::DeviceRecord*> by_command;
  for (const auto& r : session.records)
    by_command[{r.launch_id, r.command_index}] = &r;
  int checked = 0;
  for (const auto& r : session.records) {
    for (int dep : r.program->commands[r.command_index].deps) {
      auto found = by_command.find({r.launch_id, dep});
      ASSERT_NE(found, by_command.end()) << "launch " << r.launch_id << " command " << dep << " of "
                                         << r.program->key << " has no record";
      const auto* before = found->second;
      EXPECT_LE(before->end_cycles, r.start_cycles);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
  // A 4096^3 matmul is split over the four chiplets.
  std::set<int> chiplets;
  for (const auto& r : session.records)
    chiplets.insert(r.chiplet);
  EXPECT_EQ(chiplets.size(), 4u);
}

// A burst of small launches from a host that submits faster than the device drains them.
scenario::Scenario Burst(int depth) {
  scenario::Scenario s;
  s.env.rbln_profiler = true;
  s.env.torch_rbln_deploy = true;
  s.device.queue_depth = depth;
  // Small kernels (short commands) launched every ~2 us: the device keeps up with the launch
  // rate, but not with a descriptor round trip per launch, which is what a one-entry ring costs.
  s.device.command_overhead_cycles = 200;
  s.host.op_costs["aten::add"] = {1000};
  s.host.op_costs["rbln::kernel"] = {500};
  s.host.runtime_submit_ns = 500;
  s.workload.tensors = {Tensor("x", {64, 64})};
  s.workload.warmup = {OpStep("add", {"x", "x"}, "y")};
  s.workload.profile = {Repeat(48, {OpStep("add", {"x", "x"}, "y")})};
  return s;
}

// The duration of each outermost aten::add frame (the dispatcher's, which charges the op's own
// cost; the kernel frame inside it charges rbln::kernel), in call order.
std::vector<double> AddFrameDurationsNs(const scenario::Scenario& s) {
  const auto session = RunSession(s);
  std::vector<double> out;
  double open_until_ns = -1;
  for (const sim::HostEvent& e : session.timeline.events) {
    if (session.timeline.names[e.name_id] != "aten::add" || e.start_ns < open_until_ns)
      continue;
    out.push_back(e.end_ns - e.start_ns);
    open_until_ns = e.end_ns;
  }
  return out;
}

// host.op_costs_per_element scales an op's own cost with its largest input: two adds of 4096 and
// 16384 elements grow by exactly slope x elements, and nothing else moves.
TEST(Device, APerElementHostCostScalesTheOpFrameWithItsInput) {
  const auto scenario = [](double per_element_ns) {
    scenario::Scenario s = Burst(32);
    s.workload.tensors = {Tensor("x", {64, 64}), Tensor("w", {64, 256})};
    s.workload.profile = {OpStep("add", {"x", "x"}, "y"), OpStep("add", {"w", "w"}, "z")};
    if (per_element_ns > 0)
      s.host.op_costs_per_element_ns["aten::add"] = per_element_ns;
    return s;
  };
  const auto flat = InChild([&] { return AddFrameDurationsNs(scenario(0)); });
  const auto sloped = InChild([&] { return AddFrameDurationsNs(scenario(2.0)); });
  ASSERT_EQ(flat.size(), 2u);
  ASSERT_EQ(sloped.size(), 2u);
  EXPECT_NEAR(sloped[0] - flat[0], 2.0 * 64 * 64, 1e-6);
  EXPECT_NEAR(sloped[1] - flat[1], 2.0 * 64 * 256, 1e-6);
}

double MeanLatencyNs(const sim::SessionData& session) {
  double sum = 0;
  for (const auto& l : session.truth.launches)
    sum += l.first_device_start_ns - l.marker_start_ns;
  return sum / static_cast<double>(session.truth.launches.size());
}

TEST(Device, ShallowQueueRaisesSubmissionLatencyUnderABurst) {
  const auto shallow = InChild([] {
    const auto session = RunSession(Burst(1));
    double ring_wait = 0;
    for (const auto& l : session.truth.launches)
      ring_wait += l.ring_wait_ns;
    return std::vector<double>{MeanLatencyNs(session), ring_wait};
  });
  const auto deep = InChild([] {
    const auto session = RunSession(Burst(32));
    double ring_wait = 0;
    for (const auto& l : session.truth.launches)
      ring_wait += l.ring_wait_ns;
    return std::vector<double>{MeanLatencyNs(session), ring_wait};
  });
  ASSERT_EQ(shallow.size(), 2u);
  ASSERT_EQ(deep.size(), 2u);
  EXPECT_GT(shallow[0], deep[0] * 1.2);
  EXPECT_GT(shallow[1], 0.0);  // the host blocked on the full ring
  EXPECT_LT(deep[1], shallow[1]);
}

TEST(Device, TimeoutFiresAndNamesTheCommand) {
  scenario::Scenario s = SeedScenario();
  // The second profiled call's compute never completes; the first and third are unaffected.
  s.device.hang_command = "i1_1_W0_mm_1";
  s.device.command_timeout_ns = 50'000;
  Status window;
  const sim::SessionData session = RunSession(s, &window);
  EXPECT_FALSE(window.ok());
  EXPECT_NE(window.message().find("i1_1_W0_mm_1"), std::string::npos) << window.message();
  EXPECT_EQ(session.commands_timed_out, 1);
  // The hung command and its dependent (mm_2) leave no record; the other two calls complete.
  EXPECT_EQ(session.records.size(), 18u - 2u);
  ASSERT_EQ(session.truth.launches.size(), 3u);
  EXPECT_TRUE(session.truth.launches[1].failed);
  EXPECT_FALSE(session.truth.launches[2].failed);
}

TEST(Device, DeviceTimeReactsToParameters) {
  const auto base = InChild([] {
    const auto s = SeedScenario();
    return std::vector<double>{RecordsTotalNs(RunSession(s), s.device.clock_ghz)};
  });
  const auto fast_clock = InChild([] {
    auto s = SeedScenario();
    s.device.clock_ghz = 2.0;
    return std::vector<double>{RecordsTotalNs(RunSession(s), s.device.clock_ghz)};
  });
  const auto more_overhead = InChild([] {
    auto s = SeedScenario();
    s.device.command_overhead_cycles *= 2;
    return std::vector<double>{RecordsTotalNs(RunSession(s), s.device.clock_ghz)};
  });
  ASSERT_EQ(base.size(), 1u);
  ASSERT_EQ(fast_clock.size(), 1u);
  ASSERT_EQ(more_overhead.size(), 1u);
  EXPECT_LT(fast_clock[0], base[0] * 0.75);
  // Six commands per call, three calls: the extra overhead shows up 18 times.
  EXPECT_NEAR(more_overhead[0] - base[0], 18 * 1210.0, 18 * 2.0);
}

}  // namespace
}  // namespace rblnsim::testing
