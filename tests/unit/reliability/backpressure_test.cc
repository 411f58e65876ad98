// A full ring under a burst (tests/e2e/data/burst.yaml: 64 matmuls launched back to back, a host
// ten times faster than the device). With a ring of one or two entries the host must block on
// every submission (backpressure) and still lose nothing: the session has exactly the program's
// 64 launches, each with all six of its device records, completed in stream order, and the trace
// has one marker, one flow and six flow finishes per launch.
#include <gtest/gtest.h>

#include <map>

#include "models/compiler/program.h"
#include "scenario/loader.h"
#include "tests/unit/models/sim_fixtures.h"
#include "tests/unit/reliability/reliability_util.h"

namespace rblnsim::testing {
namespace {

constexpr char kScenario[] = "tests/e2e/data/burst.yaml";
constexpr int kLaunches = 64;
constexpr int kCommandsPerLaunch = 6;

enum Field {
  kLaunchCount,
  kRecords,
  kDropped,
  kTimedOut,
  kMaxRingOccupancy,
  kLaunchesThatWaited,
  kLaunchesWithAllRecords,
  kFailedLaunches,
  kCompletedInOrder,
  kFieldCount
};

// In a child: the burst at |depth|, summarised as the Field values.
std::vector<double> Burst(int depth) {
  auto loaded = scenario::LoadScenario(SourcePath(kScenario), {},
                                       {"device.queue.depth=" + std::to_string(depth)});
  if (!loaded.ok())
    return {};
  const sim::SimulatedSession simulated = SimulateInProcess(*loaded);
  const sim::SessionData& session = simulated.session;
  std::map<int64_t, std::pair<size_t, size_t>> per_launch;  // launch → (records, commands)
  for (const rebel100::DeviceRecord& r : session.records) {
    auto& [records, commands] = per_launch[r.launch_id];
    ++records;
    commands = r.program->commands.size();
  }
  std::vector<double> out(kFieldCount, 0);
  out[kLaunchCount] = static_cast<double>(session.truth.launches.size());
  out[kRecords] = static_cast<double>(session.records.size());
  out[kDropped] = static_cast<double>(session.records_dropped);
  out[kTimedOut] = static_cast<double>(session.commands_timed_out);
  out[kMaxRingOccupancy] = session.max_ring_occupancy;
  out[kCompletedInOrder] = 1;
  double previous_completion = -1;
  for (const sim::LaunchTruth& launch : session.truth.launches) {
    if (launch.ring_wait_ns > 0)
      ++out[kLaunchesThatWaited];
    if (launch.failed)
      ++out[kFailedLaunches];
    const auto found = per_launch.find(launch.launch_id);
    if (found != per_launch.end() && found->second.first == found->second.second)
      ++out[kLaunchesWithAllRecords];
    if (launch.completed_ns < previous_completion)
      out[kCompletedInOrder] = 0;
    previous_completion = launch.completed_ns;
  }
  return out;
}

class Backpressure : public ::testing::TestWithParam<int> {};

TEST_P(Backpressure, FullRingBlocksTheHostAndLosesNoLaunch) {
  const int depth = GetParam();
  const std::vector<double> burst = InChild([depth] { return Burst(depth); });
  ASSERT_EQ(burst.size(), static_cast<size_t>(kFieldCount));
  EXPECT_EQ(burst[kLaunchCount], kLaunches);
  EXPECT_EQ(burst[kRecords], kLaunches * kCommandsPerLaunch);
  EXPECT_EQ(burst[kLaunchesWithAllRecords], kLaunches);
  EXPECT_EQ(burst[kDropped], 0);
  EXPECT_EQ(burst[kTimedOut], 0);
  EXPECT_EQ(burst[kFailedLaunches], 0);
  EXPECT_EQ(burst[kCompletedInOrder], 1);
  // The ring was full: it never held more than its depth, and nearly every launch after the
  // first |depth| had to wait for a slot.
  EXPECT_EQ(burst[kMaxRingOccupancy], depth);
  EXPECT_GE(burst[kLaunchesThatWaited], kLaunches - depth - 1);
}

TEST_P(Backpressure, CliTraceHasEveryLaunchWithItsDeviceSlices) {
  const TempDir dir;
  const std::string trace = dir.path() + "/burst.json";
  const ProcessResult run =
      RunRblnsim({"run", SourcePath(kScenario), "--set",
                  "device.queue.depth=" + std::to_string(GetParam()), "--trace", trace});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;  // includes expect: device_events == 384
  auto bridge = TraceCounters(trace, "rbln_bridge");
  ASSERT_TRUE(bridge.ok()) << bridge.status().message();
  EXPECT_EQ((*bridge)["launches"], static_cast<uint64_t>(kLaunches));
  EXPECT_EQ((*bridge)["flows_started"], static_cast<uint64_t>(kLaunches));
  EXPECT_EQ((*bridge)["flows_finished"], static_cast<uint64_t>(kLaunches * kCommandsPerLaunch));
  EXPECT_EQ((*bridge)["markers_without_device_work"], 0u);
  EXPECT_EQ((*bridge)["orphan_device_slices"], 0u);
  auto producer = TraceCounters(trace, "rbln_producer");
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  EXPECT_EQ((*producer)["launches"], static_cast<uint64_t>(kLaunches));
  EXPECT_EQ((*producer)["records_dropped"], 0u);
  const ProcessResult check = RunRblnsim({"check", trace});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

// The reference: a ring as deep as the burst never fills, so nobody waits.
TEST(BackpressureReference, DeepRingNeverBlocks) {
  const std::vector<double> burst = InChild([] { return Burst(kLaunches); });
  ASSERT_EQ(burst.size(), static_cast<size_t>(kFieldCount));
  EXPECT_EQ(burst[kLaunchCount], kLaunches);
  EXPECT_EQ(burst[kLaunchesThatWaited], 0);
  EXPECT_GT(burst[kMaxRingOccupancy], 2);
}

INSTANTIATE_TEST_SUITE_P(SmallRings, Backpressure, ::testing::Values(1, 2));

}  // namespace
}  // namespace rblnsim::testing
