// The run-time half of "no accepted value gives a wrong time": durations computed from ever
// slower rates never get shorter, all the way past the load-time floors (the arithmetic saturates
// instead of wrapping), and delays handed to the kernel stop at the simulated-time limit.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "models/rebel100/bandwidth_channel.h"
#include "models/rebel100/command_timing.h"
#include "models/rebel100/matmul_timing.h"
#include "models/rebel100/sim_time.h"
#include "scenario/limits.h"

namespace rblnsim::rebel100 {
namespace {

using compiler::Command;
using scenario::DeviceConfig;
using scenario::DType;

double DurationNs(const compiler::Work& work, const DeviceConfig& device) {
  Command command;
  command.chiplet = 0;
  command.work = work;
  // The engine whose timing function reads this kind of work.
  for (int t = 0; t < kEngineTypeCount; ++t) {
    if (Engine(static_cast<EngineType>(t)).work == compiler::KindOf(work)) {
      command.engine = static_cast<EngineType>(t);
      break;
    }
  }
  std::vector<BandwidthChannel> hbm(1, BandwidthChannel(device.hbm_bandwidth_bytes_per_s));
  return CommandDurationNs(command, device, 0.0, &hbm);
}

// Factors from 1 down through the load-time floor to 1e-300, in half decades.
std::vector<double> DownToTiny() {
  std::vector<double> factors;
  for (double exponent = 0; exponent >= -300; exponent -= 0.5)
    factors.push_back(std::pow(10.0, exponent));
  return factors;
}

// Sets one rate of |device| to |start| × factor for every factor and checks that the duration of
// |work| is finite, positive and never shorter than at the previous, faster setting.
void ExpectMonotone(const char* what,
                    const compiler::Work& work,
                    double start,
                    const std::function<void(DeviceConfig*, double)>& set) {
  double previous = 0;
  int strictly_longer = 0;
  for (double factor : DownToTiny()) {
    DeviceConfig device;
    set(&device, start * factor);
    const double ns = DurationNs(work, device);
    ASSERT_TRUE(std::isfinite(ns)) << what << " at " << start * factor;
    ASSERT_GT(ns, 0) << what << " at " << start * factor;
    ASSERT_GE(ns, previous) << what << " got shorter at " << start * factor;
    strictly_longer += ns > previous;
    previous = ns;
  }
  EXPECT_GT(strictly_longer, 10) << what << ": the rate should matter over many decades";
}

// The largest products the loader accepts are far bigger; these already overflowed int64 cycles
// at efficiency 1e-16 before the arithmetic saturated.
const compiler::MatmulWork kBigMatmul{65536, 65536, 65536, 1, DType::kFp16, std::nullopt, -1};
const compiler::VectorWork kBigVector{int64_t{1} << 38, 4.0, int64_t{1} << 39};
const compiler::TransferWork kBigTransfer{int64_t{1} << 40, true};

TEST(TimingLimits, LowerEfficiencyNeverGivesShorterTime) {
  ExpectMonotone("matmul.efficiency", kBigMatmul, 1.0,
                 [](DeviceConfig* d, double v) { d->matmul_efficiency = v; });
  ExpectMonotone("gce.efficiency", kBigVector, 1.0,
                 [](DeviceConfig* d, double v) { d->gce_efficiency = v; });
  ExpectMonotone("dma.efficiency", kBigTransfer, 1.0,
                 [](DeviceConfig* d, double v) { d->dma_efficiency = v; });
}

TEST(TimingLimits, LowerBandwidthOrClockNeverGivesShorterTime) {
  ExpectMonotone("hbm.bandwidth (matmul)", kBigMatmul, 1e15,
                 [](DeviceConfig* d, double v) { d->hbm_bandwidth_bytes_per_s = v; });
  ExpectMonotone("hbm.bandwidth (vector)", kBigVector, 1e15,
                 [](DeviceConfig* d, double v) { d->hbm_bandwidth_bytes_per_s = v; });
  ExpectMonotone("dma.bandwidth", kBigTransfer, 1e15,
                 [](DeviceConfig* d, double v) { d->dma_bandwidth_bytes_per_s = v; });
  ExpectMonotone("d2d.bandwidth", kBigTransfer, 1e15,
                 [](DeviceConfig* d, double v) { d->d2d_bandwidth_bytes_per_s = v; });
  ExpectMonotone("clock", kBigMatmul, 10.0, [](DeviceConfig* d, double v) { d->clock_ghz = v; });
}

TEST(TimingLimits, CycleCountsSaturateInsteadOfWrapping) {
  DeviceConfig device;
  device.matmul_efficiency = 1e-300;
  const MatmulTiming t = ComputeMatmulTiming(kBigMatmul, device);
  EXPECT_GT(t.compute_cycles, int64_t{1} << 61);
  device.gce_efficiency = 1e-300;
  EXPECT_GT(VectorComputeCycles(kBigVector, device), int64_t{1} << 61);
  device.hbm_bandwidth_bytes_per_s = 1e-300;
  EXPECT_GT(ComputeMatmulTiming(kBigMatmul, device).fill_cycles, int64_t{1} << 61);
}

// At the documented floors the biggest commands still take a finite, representable time.
TEST(TimingLimits, FloorsGiveRepresentableDurations) {
  DeviceConfig device;
  device.matmul_efficiency = scenario::kMinEfficiency;
  device.gce_efficiency = scenario::kMinEfficiency;
  device.dma_efficiency = scenario::kMinEfficiency;
  device.hbm_bandwidth_bytes_per_s = scenario::kMinBandwidthBytesPerS;
  device.dma_bandwidth_bytes_per_s = scenario::kMinBandwidthBytesPerS;
  device.clock_ghz = scenario::kMinClockGhz;
  for (const compiler::Work& work :
       {compiler::Work(kBigMatmul), compiler::Work(kBigVector), compiler::Work(kBigTransfer)}) {
    const double ns = DurationNs(work, device);
    EXPECT_TRUE(std::isfinite(ns));
    EXPECT_GT(ns, 0);
  }
}

TEST(TimingLimits, KernelDelaysStopAtTheSimulatedTimeLimit) {
  const uint64_t limit = MaxSimulatedTicks();
  EXPECT_EQ(limit, static_cast<uint64_t>(scenario::kMaxSimulatedNs * TicksPerNs()));
  EXPECT_EQ(DelayTicks(1e300), limit);
  EXPECT_EQ(DelayTicks(std::numeric_limits<double>::infinity()), limit);
  EXPECT_EQ(DelayTicks(std::numeric_limits<double>::quiet_NaN()), 0u);
  EXPECT_EQ(DelayTicks(-5), 0u);
  // Exact below the limit, as sc_time would round; monotone through it.
  EXPECT_EQ(DelayTicks(1.5), sc_core::sc_time(1.5, sc_core::SC_NS).value());
  uint64_t previous = 0;
  for (double ns = 1; ns < 1e30; ns *= 3) {
    const uint64_t ticks = DelayTicks(ns);
    EXPECT_GE(ticks, previous) << ns;
    EXPECT_LE(ticks, limit) << ns;
    previous = ticks;
  }
}

}  // namespace
}  // namespace rblnsim::rebel100
