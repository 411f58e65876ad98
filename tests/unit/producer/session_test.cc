// sim::SimulateSession, the one simulated-session pipeline: from a resolved scenario to the trace
// a consumer writes (capture window, deviceProperties, host rows, device side, the bridge's and
// producer's counters as metadata), the ground truth and the counters, through either seam.
// ctest runs each TEST in its own process: SystemC elaborates once per process.
#include "sim/session.h"

#include <gtest/gtest.h>

#include <string>

#include "profiler/index/trace_index.h"
#include "profiler/report/device_events.h"
#include "tests/unit/models/sim_fixtures.h"

namespace rblnsim::testing {
namespace {

// The trace's index; the caller keeps |trace| alive while it is used.
index::TraceIndex Indexed(const trace::Trace& trace) {
  return *index::TraceIndex::Build(trace);
}

constexpr size_t kSeedDeviceEvents = 18;  // 3 launches x (3 args_0 + 3 mm commands)
constexpr size_t kSeedLaunches = 3;

bool HasMetadata(const trace::Trace& trace, const std::string& key) {
  for (const auto& [name, value] : trace.metadata) {
    if (name == key)
      return true;
  }
  return false;
}

void ExpectProfiledSeedSession(trace::Dialect dialect, bool keep_device_records) {
  const scenario::Scenario scenario = SeedScenario();
  auto simulated = sim::SimulateSession({&scenario, dialect, keep_device_records});
  ASSERT_TRUE(simulated.ok()) << simulated.status().message();
  ASSERT_TRUE(simulated->warmup.ok()) << simulated->warmup.message();
  ASSERT_TRUE(simulated->window.ok()) << simulated->window.message();
  EXPECT_TRUE(simulated->active);

  const trace::Trace& trace = simulated->trace;
  EXPECT_LT(trace.capture_start_ns, trace.capture_end_ns);
  EXPECT_EQ(trace.device_properties.size(), 1u);
  EXPECT_EQ(report::DeviceEvents(Indexed(trace)).size(), kSeedDeviceEvents);
  EXPECT_TRUE(HasMetadata(trace, "rbln_bridge"));
  EXPECT_TRUE(HasMetadata(trace, "rbln_producer"));

  ASSERT_TRUE(simulated->stats.has_value());
  EXPECT_TRUE(simulated->stats->has_producer_stats);
  EXPECT_EQ(simulated->stats->producer.records_captured, kSeedDeviceEvents);
  EXPECT_EQ(simulated->stats->producer.launches, kSeedLaunches);

  EXPECT_EQ(simulated->session.truth.launches.size(), kSeedLaunches);
  // The records are in the trace: the session keeps them only when asked to.
  EXPECT_EQ(simulated->session.records.size(), keep_device_records ? kSeedDeviceEvents : 0u);
  // The host timeline is in the trace now, not kept twice.
  EXPECT_TRUE(simulated->session.timeline.events.empty());
  // The events' array was sized for exactly the host and device events (the timeline's runtime
  // markers arrive through the bridge): room reserved is room a run faults in.
  EXPECT_EQ(trace.events.capacity(), trace.events.size());
}

TEST(SimulateSession, CurrentSeamGivesTraceTruthAndStats) {
  ExpectProfiledSeedSession(trace::Dialect::kCurrent, /*keep_device_records=*/false);
}

TEST(SimulateSession, CAbiSeamGivesTheSameDeviceWork) {
  ExpectProfiledSeedSession(trace::Dialect::kCAbi, /*keep_device_records=*/true);
}

// A caller that reads no launch truth gets none recorded; the trace and the counters are the
// same as with it.
TEST(SimulateSession, LaunchTruthOnlyWhenAsked) {
  const scenario::Scenario scenario = SeedScenario();
  sim::SessionConfig config{&scenario, trace::Dialect::kCAbi};
  config.keep_launch_truth = false;
  auto simulated = sim::SimulateSession(config);
  ASSERT_TRUE(simulated.ok()) << simulated.status().message();
  ASSERT_TRUE(simulated->window.ok()) << simulated->window.message();
  EXPECT_TRUE(simulated->session.truth.launches.empty());
  EXPECT_EQ(report::DeviceEvents(Indexed(simulated->trace)).size(), kSeedDeviceEvents);
  ASSERT_TRUE(simulated->stats.has_value());
  EXPECT_EQ(simulated->stats->producer.launches, kSeedLaunches);
}

TEST(SimulateSession, WithoutTheProfilerTheTraceHasHostWorkOnly) {
  scenario::Scenario scenario = SeedScenario();
  scenario.env.rbln_profiler = false;
  auto simulated = sim::SimulateSession({&scenario, trace::Dialect::kCAbi});
  ASSERT_TRUE(simulated.ok()) << simulated.status().message();
  EXPECT_FALSE(simulated->active);
  EXPECT_FALSE(simulated->stats.has_value());
  EXPECT_TRUE(simulated->trace.metadata.empty());
  EXPECT_TRUE(report::DeviceEvents(Indexed(simulated->trace)).empty());
  EXPECT_FALSE(simulated->trace.events.empty());  // the host's ATen calls
  EXPECT_EQ(simulated->session.truth.launches.size(), kSeedLaunches);
}

TEST(SimulateSession, AWarmupThatFailsEndsTheSessionBeforeTheWindow) {
  scenario::Scenario scenario = SeedScenario();
  scenario.device.hang_command = "i1_0_W0_mm_0";  // the warm-up's matmul
  scenario.device.command_timeout_ns = 1e5;
  auto simulated = sim::SimulateSession({&scenario, trace::Dialect::kCurrent});
  ASSERT_TRUE(simulated.ok()) << simulated.status().message();
  ASSERT_FALSE(simulated->warmup.ok());
  EXPECT_NE(simulated->warmup.message().find("i1_0_W0_mm_0"), std::string::npos)
      << simulated->warmup.message();
  EXPECT_TRUE(simulated->trace.events.empty());
  EXPECT_TRUE(simulated->session.truth.launches.empty());
}

TEST(SimulateSession, RunsOncePerProcess) {
  const scenario::Scenario scenario = SeedScenario();
  ASSERT_TRUE(sim::SimulateSession({&scenario, trace::Dialect::kCurrent}).ok());
  auto again = sim::SimulateSession({&scenario, trace::Dialect::kCurrent});
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("already configured"), std::string::npos)
      << again.status().message();
}

}  // namespace
}  // namespace rblnsim::testing
