// A record buffer too small for the session: the seed scenario's 18 device records into a buffer
// of 10. The same exact figure, 10 captured and 8 dropped, must reach every place a user or a
// consumer can look: SessionData, the producer's stats extension, the status report on stderr,
// the CLI's stdout and the trace's "rbln_producer"/"rbln_bridge" metadata. Nothing is lost
// silently, and no layer rounds, clamps or forgets the count.
#include <gtest/gtest.h>

#include "sim/runtime/simulated_runtime.h"
#include "tests/unit/models/sim_fixtures.h"
#include "tests/unit/reliability/reliability_util.h"

namespace rblnsim::testing {
namespace {

constexpr int64_t kSeedRecords = 18;
constexpr int64_t kBuffer = 10;
constexpr int64_t kDroppedRecords = kSeedRecords - kBuffer;
constexpr char kStatusReport[] =
    "RBLN Profiler Generation Status Report: 10 device records captured, 8 dropped (record "
    "buffer full), 3 launches, 0 commands timed out, 0 ns device sync wait, 0 records past the "
    "wait dropped\n";

TEST(RecordOverflow, SessionDataCountsEveryDrop) {
  const auto counts = InChild([] {
    scenario::Scenario s = SeedScenario();
    s.device.record_buffer_capacity = kBuffer;
    const sim::SimulatedSession simulated = SimulateInProcess(s);
    return std::vector<double>{
        static_cast<double>(simulated.session.records.size()),
        static_cast<double>(simulated.session.records_dropped),
        simulated.stats ? static_cast<double>(simulated.stats->producer.records_dropped) : -1};
  });
  const auto roomy = InChild([] {
    const sim::SimulatedSession simulated = SimulateInProcess(SeedScenario());
    return std::vector<double>{static_cast<double>(simulated.session.records.size()),
                               static_cast<double>(simulated.session.records_dropped)};
  });
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0], kBuffer);
  EXPECT_EQ(counts[1], kDroppedRecords);
  EXPECT_EQ(counts[2], kDroppedRecords);  // the same figure in the session's producer counters
  // The reference: the default buffer holds all of them.
  ASSERT_EQ(roomy.size(), 2u);
  EXPECT_EQ(roomy[0], kSeedRecords);
  EXPECT_EQ(roomy[1], 0);
}

// Through the C-ABI a consumer such as torch-rbln sees: the export, the stats extension, and the
// status report the runtime prints at session end.
TEST(RecordOverflow, ProducerStatsAndStatusReportCarryTheExactDrop) {
  scenario::Scenario s = SeedScenario();
  s.device.record_buffer_capacity = kBuffer;
  sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
  ASSERT_TRUE(runtime.Configure(s, sim::ClockMode::kSimulated).ok());
  runtime.KeepDeviceRecords(true);  // read below

  AbiSession session;
  const std::string err = CaptureStderr([&] { session = RunAbiSession(); });
  ASSERT_EQ(session.begin_code, RBLN_KINETO_OK);
  ASSERT_EQ(session.end_code, RBLN_KINETO_OK);
  EXPECT_EQ(session.exported, 1);
  EXPECT_EQ(session.sink_calls, 1);
  EXPECT_EQ(DeviceSlices(session.slices).size(), static_cast<size_t>(kBuffer));

  ASSERT_EQ(session.stats_code, RBLN_KINETO_OK);
  EXPECT_EQ(session.stats.records_captured, static_cast<uint64_t>(kBuffer));
  EXPECT_EQ(session.stats.records_dropped, static_cast<uint64_t>(kDroppedRecords));
  EXPECT_EQ(session.stats.launches, 3u);
  EXPECT_EQ(session.stats.commands_timed_out, 0u);

  EXPECT_EQ(err, kStatusReport);

  const std::optional<sim::SessionData> data = runtime.TakeLastSession();
  ASSERT_TRUE(data.has_value());
  EXPECT_EQ(data->records.size(), static_cast<size_t>(kBuffer));
  EXPECT_EQ(data->records_dropped, kDroppedRecords);
}

// The CLI path through the C-ABI (the dialect whose markers are slices the bridge receives):
// stdout, stderr and the written trace.
TEST(RecordOverflow, CliReportsTheDropOnStdoutStderrAndInTheTrace) {
  const TempDir dir;
  const std::string trace = dir.path() + "/overflow.json";
  const ProcessResult run = RunRblnsim(
      {"run", SourcePath("scenarios/profile_matmul.yaml"), "--set",
       "device.profiler.record_buffer=10", "--no-expect", "--trace", trace, "--bridge", "c-abi"},
      {"RBLN_PROFILER=1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("RBLN profiler: 10 device records captured, 8 dropped (record buffer "
                         "full), 3 launches"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.err.find(kStatusReport), std::string::npos) << run.err;

  auto producer = TraceCounters(trace, "rbln_producer");
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  EXPECT_EQ((*producer)["records_captured"], static_cast<uint64_t>(kBuffer));
  EXPECT_EQ((*producer)["records_dropped"], static_cast<uint64_t>(kDroppedRecords));
  EXPECT_EQ((*producer)["launches"], 3u);

  // The bridge received the 10 records plus the 3 rbln_run markers and dropped none of them.
  auto bridge = TraceCounters(trace, "rbln_bridge");
  ASSERT_TRUE(bridge.ok()) << bridge.status().message();
  EXPECT_EQ((*bridge)["slices_received"], static_cast<uint64_t>(kBuffer + 3));
  EXPECT_EQ((*bridge)["slices_kept"], static_cast<uint64_t>(kBuffer + 3));
  EXPECT_EQ((*bridge)["dropped_out_of_window"] + (*bridge)["dropped_unknown_row"], 0u);

  auto device_slices = CountDeviceSlices(trace);
  ASSERT_TRUE(device_slices.ok()) << device_slices.status().message();
  EXPECT_EQ(*device_slices, kBuffer);

  // A truncated capture is still a readable trace. It does not satisfy the contract: the third
  // launch lost all its records, so its marker has no device work and no flow start, and check
  // says so (exit 1) instead of refusing the file (exit 2).
  const ProcessResult check = RunRblnsim({"check", trace});
  EXPECT_EQ(check.exit_code, 1) << check.out << check.err;
  EXPECT_NE(check.out.find("FAIL flow-start"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("overall: FAIL (1 of"), std::string::npos) << check.out;
}

// The same overflow through the runtime activity API: the launch that lost every record has no
// activity, so the current bridge draws no marker for it and counts it, and the producer's
// counters reach the trace as before.
TEST(RecordOverflow, CurrentBridgeCountsTheLaunchThatLostEveryRecord) {
  const TempDir dir;
  const std::string trace = dir.path() + "/overflow.json";
  const ProcessResult run =
      RunRblnsim({"run", SourcePath("scenarios/profile_matmul.yaml"), "--set",
                  "device.profiler.record_buffer=10", "--no-expect", "--trace", trace},
                 {"RBLN_PROFILER=1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("RBLN profiler: 10 device records captured, 8 dropped (record buffer "
                         "full), 3 launches"),
            std::string::npos)
      << run.out;
  auto producer = TraceCounters(trace, "rbln_producer");
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  EXPECT_EQ((*producer)["records_dropped"], static_cast<uint64_t>(kDroppedRecords));
  auto bridge = TraceCounters(trace, "rbln_bridge");
  ASSERT_TRUE(bridge.ok()) << bridge.status().message();
  EXPECT_EQ((*bridge)["slices_received"], static_cast<uint64_t>(kBuffer));
  EXPECT_EQ((*bridge)["launches_received"], 3u);
  EXPECT_EQ((*bridge)["launches_without_activities"], 1u);
  auto device_slices = CountDeviceSlices(trace);
  ASSERT_TRUE(device_slices.ok()) << device_slices.status().message();
  EXPECT_EQ(*device_slices, kBuffer);
}

}  // namespace
}  // namespace rblnsim::testing
