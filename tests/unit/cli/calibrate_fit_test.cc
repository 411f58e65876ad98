// calibrate's closed-form steps on hand-built candidates whose device times follow the model
// exactly (fixed + slope / efficiency), so each step must land on the true parameter.
#include "tools/rblnsim/calibrate/calibrate_fit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/limits.h"
#include "tools/rblnsim/calibrate/calibrate_report.h"

namespace rblnsim::cli {
namespace {

// A command of |kind| whose simulated time at efficiency e is fixed_ns + slope_ns / e.
struct ModelCommand {
  std::string key;
  EngineKind kind;
  double fixed_ns;
  double slope_ns;
};

int64_t TimeAt(const ModelCommand& m, double efficiency) {
  return static_cast<int64_t>(m.fixed_ns + m.slope_ns / efficiency);
}

// A candidate at |params| whose captured side ran every kind at |true_efficiency|.
CandidateRun Candidate(const CalibrationParams& params,
                       const std::vector<ModelCommand>& commands,
                       double true_efficiency) {
  CandidateRun run;
  run.params = params;
  for (const ModelCommand& m : commands) {
    CommandPair pair;
    pair.launch_pair = 0;
    pair.key = m.key;
    pair.kind = m.kind;
    pair.sim_ns = TimeAt(m, params.EfficiencyOf(m.kind));
    pair.hw_ns = TimeAt(m, true_efficiency);
    run.comparison.commands.push_back(pair);
  }
  return run;
}

CalibrationParams Halved(CalibrationParams params) {
  params.matmul_efficiency /= 2;
  params.gce_efficiency /= 2;
  params.dma_efficiency /= 2;
  return params;
}

TEST(CalibrateFit, EfficiencyStepLandsOnTheCapturedEfficiency) {
  const std::vector<ModelCommand> commands = {{"mm_1", EngineKind::kMatmul, 100, 400},
                                              {"mm_2", EngineKind::kMatmul, 20, 1600},
                                              {"args_0", EngineKind::kDma, 50, 200}};
  const CalibrationParams start;  // every efficiency 1.0
  const CandidateRun baseline = Candidate(start, commands, 0.8);
  const CandidateRun probe = Candidate(Halved(start), commands, 0.8);
  const EfficiencyModel model(baseline, probe);
  EXPECT_EQ(model.SensitiveCommands(EngineKind::kMatmul), 2);
  EXPECT_EQ(model.SensitiveCommands(EngineKind::kDma), 1);
  EXPECT_EQ(model.SensitiveCommands(EngineKind::kGce), 0);

  CalibrationParams fitted = start;
  model.Update(baseline, &fitted);
  EXPECT_NEAR(fitted.matmul_efficiency, 0.8, 1e-3);
  EXPECT_NEAR(fitted.dma_efficiency, 0.8, 1e-3);
  // No gce command: its efficiency is left where it was.
  EXPECT_DOUBLE_EQ(fitted.gce_efficiency, 1.0);
}

// The card beats the model's peak: the fit goes above 1 (and calibrate says so) instead of
// holding the factor at 1, up to the key's range.
TEST(CalibrateFit, ACardFasterThanThePeakFitsAboveOne) {
  const std::vector<ModelCommand> commands = {{"mm_1", EngineKind::kMatmul, 0, 1000}};
  CalibrationParams start;
  start.matmul_efficiency = 0.5;
  const CandidateRun baseline = Candidate(start, commands, 2.0);  // hw runs at twice the peak
  const CandidateRun probe = Candidate(Halved(start), commands, 2.0);
  const EfficiencyModel model(baseline, probe);
  CalibrationParams fitted = start;
  model.Update(baseline, &fitted);
  EXPECT_NEAR(fitted.matmul_efficiency, 2.0, 1e-9);
  const CandidateRun beyond = Candidate(start, commands, 10.0);  // past the range: its edge
  CalibrationParams capped = start;
  EfficiencyModel(beyond, Candidate(Halved(start), commands, 10.0)).Update(beyond, &capped);
  EXPECT_DOUBLE_EQ(capped.matmul_efficiency, scenario::kMaxEfficiency);
}

TEST(CalibrateFit, CommandsThatDoNotScaleLeaveTheEfficiencyAlone) {
  // HBM- or overhead-bound: the same time at every efficiency.
  const std::vector<ModelCommand> commands = {{"mm_1", EngineKind::kMatmul, 700, 0}};
  CalibrationParams start;
  start.matmul_efficiency = 0.7;
  CandidateRun baseline = Candidate(start, commands, 0.7);
  baseline.comparison.commands[0].hw_ns = 900;  // a residual no efficiency can explain
  const CandidateRun probe = Candidate(Halved(start), commands, 0.7);
  const EfficiencyModel model(baseline, probe);
  EXPECT_EQ(model.SensitiveCommands(EngineKind::kMatmul), 0);
  CalibrationParams fitted = start;
  model.Update(baseline, &fitted);
  EXPECT_DOUBLE_EQ(fitted.matmul_efficiency, 0.7);
}

// A digest whose launches all have device work, marker durations |marker_ns|.
TraceDigest MarkersOf(const std::vector<int64_t>& marker_ns) {
  TraceDigest digest;
  for (int64_t ns : marker_ns) {
    DigestLaunch launch;
    launch.marker_dur_ns = ns;
    DigestSlice slice;
    slice.dur_ns = 10;
    launch.slices.push_back(slice);
    digest.launches.push_back(launch);
  }
  return digest;
}

CalibrationParams SubmissionPath() {
  CalibrationParams p;
  p.runtime_submit_ns = 1000;
  p.doorbell_ns = 100;
  p.pcie_latency_ns = 200;
  p.decode_ns = 50;
  p.dispatch_ns = 50;
  return p;
}

double PathAfterSubmitNs(const CalibrationParams& p) {
  return p.doorbell_ns + 2 * p.pcie_latency_ns + p.decode_ns + p.dispatch_ns;
}

TEST(CalibrateFit, AsyncSubmissionFitsTheMarkerThenSpreadsTheResidual) {
  CandidateRun from;
  from.params = SubmissionPath();
  from.digest = MarkersOf({900, 1000, 1100});
  from.comparison.sim_latency = {3, 2000, 2000, 2000, 2000};
  from.comparison.hw_latency = {3, 3000, 3000, 3000, 3000};
  const TraceDigest hw = MarkersOf({1400, 1500, 1600});
  CalibrationParams fitted = from.params;
  FitSubmissionPath(from, hw, /*force_sync=*/false, &fitted);
  // The marker lasts runtime_submit: the medians differ by 500 ns.
  EXPECT_DOUBLE_EQ(fitted.runtime_submit_ns, 1500);
  // The latency residual past that step (1000 - 500 ns) is spread in proportion over the 600 ns
  // of doorbell + 2 x pcie + decode + dispatch.
  EXPECT_NEAR(PathAfterSubmitNs(fitted), 600 + 500, 1e-9);
  EXPECT_NEAR(fitted.doorbell_ns / fitted.dispatch_ns, 2.0, 1e-12);
  EXPECT_NEAR(fitted.pcie_latency_ns, 200 * 1100.0 / 600.0, 1e-9);
}

TEST(CalibrateFit, SyncSubmissionSpreadsTheWholeResidualIncludingTheSubmit) {
  CandidateRun from;
  from.params = SubmissionPath();
  from.digest = MarkersOf({5000});
  from.comparison.sim_latency = {1, 2000, 2000, 2000, 2000};
  from.comparison.hw_latency = {1, 2800, 2800, 2800, 2800};
  CalibrationParams fitted = from.params;
  FitSubmissionPath(from, MarkersOf({9000}), /*force_sync=*/true, &fitted);
  // The marker waits for the device: its median says nothing about runtime_submit alone.
  const double scale = 1.0 + 800.0 / 1600.0;
  EXPECT_DOUBLE_EQ(fitted.runtime_submit_ns, 1000 * scale);
  EXPECT_DOUBLE_EQ(fitted.decode_ns, 50 * scale);
  EXPECT_NEAR(PathAfterSubmitNs(fitted) + fitted.runtime_submit_ns, 1600 + 800, 1e-9);
}

TEST(CalibrateFit, AnEmptyPathPutsTheResidualOnPcie) {
  CandidateRun from;
  from.params = CalibrationParams();
  from.digest = MarkersOf({0});
  from.comparison.sim_latency = {1, 1000, 1000, 1000, 1000};
  from.comparison.hw_latency = {1, 1600, 1600, 1600, 1600};
  CalibrationParams fitted = from.params;
  FitSubmissionPath(from, MarkersOf({0}), /*force_sync=*/false, &fitted);
  EXPECT_DOUBLE_EQ(fitted.pcie_latency_ns, 300);  // twice per descriptor fetch
}

TEST(CalibrateFit, HostCostsMoveByTheDifferenceOfMeansAndStayNonNegative) {
  CandidateRun from;
  from.params.op_costs_ns = {{"aten::mm", 1000}, {"aten::abs", 100}, {"aten::to", 50}};
  from.digest.host_keys["aten::mm"] = {4, 4800.0, {}, {}};  // mean 1200
  from.digest.host_keys["aten::abs"] = {2, 400.0, {}, {}};  // mean 200
  TraceDigest hw;
  hw.host_keys["aten::mm"] = {4, 6000.0, {}, {}};  // mean 1500
  hw.host_keys["aten::abs"] = {2, 0.0, {}, {}};    // mean 0: 100 + 0 - 200 < 0
  CalibrationParams fitted = from.params;
  FitHostCosts(from, hw, &fitted);
  EXPECT_DOUBLE_EQ(fitted.op_costs_ns["aten::mm"], 1300);
  EXPECT_DOUBLE_EQ(fitted.op_costs_ns["aten::abs"], 0);
  EXPECT_DOUBLE_EQ(fitted.op_costs_ns["aten::to"], 50);  // not in either trace: unchanged
}

// Host costs are fitted per call: one first call that compiled (2500 us against 70 us) moves the
// fit as one call, not as a mean every call would pay.
TEST(CalibrateFit, HostCostsFollowTheTypicalCallNotAnOutlier) {
  CandidateRun from;
  from.params.op_costs_ns["aten::add"] = 50'000;
  from.digest.host_keys["aten::add"] = {
      4, 200'000.0, {50'000, 50'000, 50'000, 50'000}, {64, 64, 64, 64}};
  TraceDigest hw;
  hw.host_keys["aten::add"] = {
      4, 2'710'000.0, {2'500'000, 70'000, 66'000, 74'000}, {64, 64, 64, 64}};
  CalibrationParams fitted = from.params;
  FitHostCosts(from, hw, &fitted);
  EXPECT_DOUBLE_EQ(fitted.op_costs_ns["aten::add"], 72'000);  // the median, not 677.5 us
  EXPECT_DOUBLE_EQ(hw.host_keys["aten::add"].MeanNs(), 677'500);
}

// A cost that grows with the tensor: calls of three shapes, the card charging 20 us + 0.5 ns per
// element where the model charges 10 us flat. The fixed part and the slope are both recovered,
// and a first call that compiled (one slow call of its shape) does not bend the line.
TEST(CalibrateFit, HostCostsFitAFixedPartAndAPerElementSlope) {
  const std::vector<int64_t> elements = {4096, 4096, 4096, 65536, 65536, 65536, 262144, 262144};
  HostTime sim;
  HostTime hw;
  for (size_t i = 0; i < elements.size(); ++i) {
    sim.calls_ns.push_back(10'000);
    hw.calls_ns.push_back(20'000 + 0.5 * static_cast<double>(elements[i]));
  }
  hw.calls_ns[0] += 2'400'000;  // the first call compiled
  sim.calls_elements = hw.calls_elements = elements;
  sim.count = hw.count = static_cast<int64_t>(elements.size());
  CandidateRun from;
  from.params.op_costs_ns["aten::add"] = 10'000;
  from.digest.host_keys["aten::add"] = sim;
  TraceDigest captured;
  captured.host_keys["aten::add"] = hw;
  CalibrationParams fitted = from.params;
  FitHostCosts(from, captured, &fitted);
  EXPECT_NEAR(fitted.op_costs_ns["aten::add"], 20'000, 1e-6);
  EXPECT_NEAR(fitted.op_costs_per_element_ns["aten::add"], 0.5, 1e-9);

  // Calls in another order or number are grouped by shape: the same line.
  hw.calls_ns.pop_back();
  hw.calls_elements.pop_back();
  captured.host_keys["aten::add"] = hw;
  fitted = from.params;
  FitHostCosts(from, captured, &fitted);
  EXPECT_NEAR(fitted.op_costs_ns["aten::add"], 20'000, 1e-6);
  EXPECT_NEAR(fitted.op_costs_per_element_ns["aten::add"], 0.5, 1e-9);
}

// A card cheaper per element than the model moves the slope down, never below zero.
TEST(CalibrateFit, APerElementSlopeStaysNonNegative) {
  HostTime sim{2, 0, {1000 + 1.0 * 100, 1000 + 1.0 * 10'000}, {100, 10'000}};
  HostTime hw{2, 0, {1500, 1500}, {100, 10'000}};
  const LineStep step = HostCostStep(sim, hw, /*slope_ns=*/1.0);
  EXPECT_DOUBLE_EQ(step.per_element_ns, -1.0);  // 1.0 - 1.0: the slope goes to 0
  EXPECT_DOUBLE_EQ(step.fixed_ns, 500);
  const LineStep lower = HostCostStep(sim, hw, /*slope_ns=*/0.4);
  EXPECT_DOUBLE_EQ(lower.per_element_ns, -0.4);
}

// The compile-cache miss is fitted from the rbln::compile spans, apart from the op's own cost.
TEST(CalibrateFit, CompileTimeFollowsTheCompileSpans) {
  CandidateRun from;
  from.params.compile_ns = 250e6;
  from.digest.host_ops[kCompileSpanName] = {2, 500e6, {}, {}};
  TraceDigest hw;
  hw.host_ops[kCompileSpanName] = {1, 2.5e6, {}, {}};
  CalibrationParams fitted = from.params;
  FitCompile(from, hw, &fitted);
  EXPECT_DOUBLE_EQ(fitted.compile_ns, 2.5e6);
  hw.host_ops.clear();  // nothing compiled in the capture: kept
  fitted = from.params;
  FitCompile(from, hw, &fitted);
  EXPECT_DOUBLE_EQ(fitted.compile_ns, 250e6);
}

// The objective round by round, and whether the last round still moved it.
TEST(CalibrateFit, ConvergenceSaysWhetherTheLastRoundSettled) {
  std::vector<CandidateRun> runs(3);
  runs[0].error.op_device_mean_pct = 40;
  runs[1].error.op_device_mean_pct = 10;
  runs[2].error.op_device_mean_pct = 9.8;  // 2% change: settled
  std::string line = ConvergenceLine(runs);
  EXPECT_NE(line.find("40.00 -> 10.00 -> 9.80"), std::string::npos) << line;
  EXPECT_NE(line.find("changed it by 2.0%: converged"), std::string::npos) << line;
  runs[2].error.op_device_mean_pct = 6;  // 40% change: more rounds would still move it
  line = ConvergenceLine(runs);
  EXPECT_NE(line.find("not converged yet (raise --refinements)"), std::string::npos) << line;
  EXPECT_EQ(ConvergenceLine({runs[0]}), "");
}

TEST(CalibrateFit, ResidualDriftIsTheSlopeOfTheLatencyErrorOverTime) {
  CandidateRun from;
  TraceDigest hw;
  for (int i = 0; i < 5; ++i) {
    const int64_t start_ns = int64_t{i} * 1'000'000;
    DigestLaunch s;
    s.marker_start_ns = start_ns;
    DigestSlice slice;
    slice.start_ns = start_ns + 1000;
    s.slices.push_back(slice);
    DigestLaunch h = s;
    // The captured latency grows by 100 ns per ms: 100 ppm.
    h.slices[0].start_ns += start_ns / 10'000;
    from.digest.launches.push_back(s);
    hw.launches.push_back(h);
    from.comparison.launch_pairs.push_back(
        {static_cast<size_t>(i), static_cast<size_t>(i), "", 0, 0});
  }
  EXPECT_NEAR(ResidualDriftPpm(from, hw), 100.0, 1e-6);
  // Fewer than three matched launches with device work: no trend to measure.
  from.comparison.launch_pairs.resize(2);
  EXPECT_DOUBLE_EQ(ResidualDriftPpm(from, hw), 0.0);
}

}  // namespace
}  // namespace rblnsim::cli
