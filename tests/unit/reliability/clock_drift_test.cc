// The device's cycle counter runs with an offset and a drift of up to ±200 ppm against the host.
// Over a profiled window of more than 10 s (tests/e2e/data/long_window.yaml), where 200 ppm adds
// up to 2 ms, every slice the producer exports must still sit within 1 µs of when the simulator
// really ran it, and the trace the CLI writes must pass `rblnsim check`.
//
// Truth comes from two places: a reference run of the same scenario with an ideal device clock
// (offset 0, drift 0: cycles are the simulator's own ns), compared slice by slice, and the
// simulator's ground truth of each launch's first device start and last device end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>

#include "scenario/loader.h"
#include "sim/runtime/simulated_runtime.h"
#include "tests/unit/models/sim_fixtures.h"
#include "tests/unit/reliability/reliability_util.h"

namespace rblnsim::testing {
namespace {

constexpr char kDriftScenario[] = "tests/e2e/data/long_window.yaml";
constexpr double kToleranceNs = 1000;
constexpr double kMinWindowNs = 10e9;
constexpr size_t kDriftLaunches = 80;
constexpr size_t kDeviceSlices = 480;

struct ClockCase {
  const char* name;
  const char* drift_ppm;
  const char* offset;
};

// gtest prints parameters into the ctest names; the name keeps them stable and readable.
void PrintTo(const ClockCase& c, std::ostream* os) {
  *os << c.name;
}

std::vector<std::string> Sets(const ClockCase& c) {
  return {std::string("device.profiler.clock_drift_ppm=") + c.drift_ppm,
          std::string("device.profiler.clock_offset=") + c.offset};
}

// In a child: [n, (start, end) × n device slices in export order, m, (truth first start, truth
// last end, exported first start, exported last end) × m launches], all steady-clock ns.
std::vector<double> ExportedAndTrueTimes(const std::vector<std::string>& sets) {
  auto loaded = scenario::LoadScenario(SourcePath(kDriftScenario), {}, sets);
  if (!loaded.ok())
    return {};
  sim::SimulatedRuntime& runtime = sim::SimulatedRuntime::Get();
  if (!runtime.Configure(*loaded, sim::ClockMode::kSimulated).ok())
    return {};
  AbiSession session;
  CaptureStderr([&] { session = RunAbiSession(); });  // the status report stays out of the log
  std::optional<sim::SessionData> data = runtime.TakeLastSession();
  if (session.end_code != RBLN_KINETO_OK || !data.has_value())
    return {};

  const std::vector<ExportedSlice> device = DeviceSlices(session.slices);
  std::vector<double> out = {static_cast<double>(device.size())};
  std::map<int64_t, std::pair<int64_t, int64_t>> exported_span;  // launch → (first, last)
  for (const ExportedSlice& slice : device) {
    out.push_back(static_cast<double>(slice.start_steady_ns));
    out.push_back(static_cast<double>(slice.end_steady_ns));
    auto [it, inserted] = exported_span.try_emplace(slice.launch_id.value_or(-1),
                                                    slice.start_steady_ns, slice.end_steady_ns);
    if (!inserted) {
      it->second.first = std::min(it->second.first, slice.start_steady_ns);
      it->second.second = std::max(it->second.second, slice.end_steady_ns);
    }
  }
  // In ClockMode::kSimulated steady ns = round(sim ns) + host.steady_epoch.
  const auto epoch = static_cast<double>(loaded->host.steady_epoch_ns);
  out.push_back(static_cast<double>(data->truth.launches.size()));
  for (const sim::LaunchTruth& launch : data->truth.launches) {
    const auto span = exported_span.find(launch.launch_id);
    out.push_back(std::round(launch.first_device_start_ns) + epoch);
    out.push_back(std::round(launch.last_device_end_ns) + epoch);
    out.push_back(span == exported_span.end() ? -1 : static_cast<double>(span->second.first));
    out.push_back(span == exported_span.end() ? -1 : static_cast<double>(span->second.second));
  }
  return out;
}

class ClockDrift : public ::testing::TestWithParam<ClockCase> {};

TEST_P(ClockDrift, ExportedSlicesStayWithinOneMicrosecondOfTruth) {
  const std::vector<double> ideal = InChild([] { return ExportedAndTrueTimes({}); });
  const std::vector<std::string> sets = Sets(GetParam());
  const std::vector<double> skewed = InChild([&sets] { return ExportedAndTrueTimes(sets); });
  ASSERT_FALSE(ideal.empty());
  ASSERT_FALSE(skewed.empty());
  ASSERT_EQ(ideal.size(), skewed.size());
  const auto slices = static_cast<size_t>(skewed[0]);
  ASSERT_EQ(slices, kDeviceSlices);

  double worst_ns = 0;
  for (size_t i = 1; i <= 2 * slices; ++i) {
    const double error = std::abs(skewed[i] - ideal[i]);
    worst_ns = std::max(worst_ns, error);
    ASSERT_LE(error, kToleranceNs)
        << (i % 2 == 1 ? "start" : "end") << " of device slice " << (i - 1) / 2;
  }
  // The window really is long enough for the drift to matter (200 ppm × 10 s = 2 ms).
  const double first_start = *std::min_element(ideal.begin() + 1, ideal.begin() + 1 + 2 * slices);
  const double last_end = *std::max_element(ideal.begin() + 1, ideal.begin() + 1 + 2 * slices);
  EXPECT_GE(last_end - first_start, kMinWindowNs);

  const size_t base = 1 + 2 * slices;
  const auto launches = static_cast<size_t>(skewed[base]);
  ASSERT_EQ(launches, kDriftLaunches);
  for (size_t l = 0; l < launches; ++l) {
    const double* row = &skewed[base + 1 + 4 * l];
    ASSERT_GE(row[2], 0) << "launch " << l << " has no exported device slice";
    EXPECT_LE(std::abs(row[2] - row[0]), kToleranceNs) << "first device start of launch " << l;
    EXPECT_LE(std::abs(row[3] - row[1]), kToleranceNs) << "last device end of launch " << l;
    worst_ns = std::max({worst_ns, std::abs(row[2] - row[0]), std::abs(row[3] - row[1])});
  }
  RecordProperty("worst_error_ns", std::to_string(worst_ns));
}

TEST_P(ClockDrift, CliTracePassesCheck) {
  const TempDir dir;
  const std::string trace = dir.path() + "/drift.json";
  std::vector<std::string> args = {"run", SourcePath(kDriftScenario), "--trace", trace};
  for (const std::string& set : Sets(GetParam())) {
    args.push_back("--set");
    args.push_back(set);
  }
  const ProcessResult run = RunRblnsim(args);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;  // includes expect: device_events == 480
  const ProcessResult check = RunRblnsim({"check", trace});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("overall: PASS"), std::string::npos) << check.out;
}

INSTANTIATE_TEST_SUITE_P(OffsetsAndDrifts,
                         ClockDrift,
                         ::testing::Values(ClockCase{"Plus200PpmPlus2500ms", "200", "2.5s"},
                                           ClockCase{"Minus200PpmMinus2500ms", "-200", "-2.5s"},
                                           ClockCase{"Plus200PpmMinus1ms", "200", "-1ms"},
                                           ClockCase{"Minus200PpmPlus11Days", "-200", "1000000s"},
                                           ClockCase{"Plus50PpmNoOffset", "50", "0ns"}),
                         [](const ::testing::TestParamInfo<ClockCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace rblnsim::testing
