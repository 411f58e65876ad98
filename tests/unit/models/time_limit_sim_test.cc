// A host cost that would take simulated time past scenario::kMaxSimulatedNs stops the workload
// with an error naming the step, instead of wrapping the clock into a shorter time.
#include <gtest/gtest.h>

#include <string>

#include "scenario/limits.h"
#include "tests/unit/models/sim_fixtures.h"

namespace rblnsim::testing {
namespace {

// x is 1 TiB of fp16 on the device, the largest tensor the loader accepts; x.cpu() moves it all.
scenario::Scenario BigDownload(double pcie_bytes_per_s) {
  scenario::Scenario s;
  s.name = "big_download";
  s.env.rbln_profiler = true;
  s.workload.tensors = {Tensor("x", {int64_t{1} << 19, int64_t{1} << 20})};
  scenario::Step step = CpuStep("x");
  step.loc = {"big.yaml", 7, 7};
  s.workload.profile = {step};
  s.device.pcie_bandwidth_bytes_per_s = pcie_bytes_per_s;
  return s;
}

TEST(SimulatedTimeLimit, DownloadPastTheLimitIsAnErrorAtItsStep) {
  // At the documented floor the copy takes 1.1e15 ns: representable, but past the limit.
  Status window;
  const sim::SessionData session =
      RunSession(BigDownload(scenario::kMinBandwidthBytesPerS), &window);
  ASSERT_FALSE(window.ok());
  EXPECT_EQ(window.message().rfind("big.yaml:7:7: simulated time would pass the limit", 0), 0u)
      << window.message();
  for (const auto& event : session.timeline.events) {
    EXPECT_LE(event.end_ns, scenario::kMaxSimulatedNs + 1);
    EXPECT_GE(event.end_ns, event.start_ns);
  }
}

TEST(SimulatedTimeLimit, RatesFarBelowTheFloorStillStopCleanly) {
  // Not loadable from a file; built in code to show the arithmetic itself cannot wrap.
  Status window;
  RunSession(BigDownload(1e-300), &window);
  ASSERT_FALSE(window.ok());
  EXPECT_NE(window.message().find("simulated time would pass the limit"), std::string::npos)
      << window.message();
}

TEST(SimulatedTimeLimit, DeviceDelaysPastTheLimitStopTheClockAndFail) {
  // A decode far past the limit (not loadable; built in code): the device's kernel waits are cut
  // at the limit instead of wrapping, and the launch's window fails.
  scenario::Scenario s = SeedScenario();
  s.workload.warmup.clear();
  s.device.decode_ns = 1e300;
  Status window;
  const sim::SessionData session = RunSession(s, &window);
  ASSERT_FALSE(window.ok());
  EXPECT_NE(window.message().find("simulated"), std::string::npos) << window.message();
  for (const auto& launch : session.truth.launches) {
    EXPECT_LE(launch.completed_ns, scenario::kMaxSimulatedNs + 1);
    EXPECT_GE(launch.completed_ns, 0);
  }
}

TEST(SimulatedTimeLimit, AnOrdinaryDownloadIsUnaffected) {
  Status window;
  scenario::Scenario s = BigDownload(64e9);
  s.workload.tensors = {Tensor("x", {512, 512})};
  RunSession(s, &window);
  EXPECT_TRUE(window.ok()) << window.message();
}

}  // namespace
}  // namespace rblnsim::testing
