#include "tools/rblnsim/calibrate/calibrate_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario/loader.h"
#include "scenario/registry.h"

namespace rblnsim::cli {
namespace {

using ::testing::HasSubstr;

constexpr char kScenario[] = R"(scenario: calibrate_params
device: {queue: {dispatch: 175ns}, profiler: {clock_offset: -20ns}}
host: {op_costs: {aten::mm: 7us}, default_op_cost: 3us}
workload:
  tensors:
    x: {shape: [64, 64]}
  profile:
    - {op: mm, inputs: [x, x], out: y}
)";

scenario::Scenario Load(const std::vector<std::string>& overlays = {}) {
  StatusOr<scenario::Scenario> s =
      scenario::LoadScenarioFromString(kScenario, "calibrate.yaml", overlays);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : scenario::Scenario{};
}

TEST(CalibrateParams, KeysAreRegistryKeys) {
  for (const CalibrationKey& key : CalibrationKeys()) {
    const scenario::Param* param = scenario::FindParam(key.path);
    ASSERT_NE(param, nullptr) << key.path;
    EXPECT_TRUE(std::holds_alternative<double>(scenario::DefaultValue(*param))) << key.path;
  }
  const scenario::Param* costs = scenario::FindParam(OpCostsPath());
  ASSERT_NE(costs, nullptr);
  EXPECT_EQ(costs->kind, scenario::ParamKind::kOpCostMap);
}

TEST(CalibrateParams, ReadsTheScenarioAndCostFallbacks) {
  const CalibrationParams p =
      ParamsFromScenario(Load(), {"aten::mm", "aten::matmul", "aten::silu"});
  EXPECT_EQ(p.dispatch_ns, 175.0);
  EXPECT_EQ(p.clock_offset_ns, -20.0);
  EXPECT_EQ(p.doorbell_ns, scenario::DeviceConfig().doorbell_ns);
  EXPECT_EQ(p.op_costs_ns.at("aten::mm"), 7000.0);      // the scenario's
  EXPECT_EQ(p.op_costs_ns.at("aten::matmul"), 1600.0);  // built in
  EXPECT_EQ(p.op_costs_ns.at("aten::silu"), 3000.0);    // host.default_op_cost
}

// The overlay loads back into the values it was written from (rounded as documented), and
// values the loader would refuse are clamped into the key's range.
TEST(CalibrateParams, OverlayLoadsBack) {
  CalibrationParams p = ParamsFromScenario(Load(), {"aten::mm"});
  p.matmul_efficiency = 0.85;
  p.gce_efficiency = 1e-9;  // below the loader's floor
  p.dispatch_ns = 212.25;
  p.clock_drift_ppm = 5000;
  p.op_costs_ns["aten::mm"] = 6543.21;
  p.op_costs_per_element_ns["aten::mm"] = 0.1234567;
  p.compile_ns = 2.5e6;
  const std::string overlay = OverlayYaml(p, "line one\nline two");
  EXPECT_THAT(overlay, HasSubstr("# line one\n# line two\ndevice:\n"));
  EXPECT_THAT(overlay, HasSubstr("  matmul: {efficiency: 0.850000}\n"));
  EXPECT_THAT(overlay, HasSubstr("dispatch: 212.2ns"));
  EXPECT_THAT(overlay, HasSubstr("host:\n  runtime_submit: 9000.0ns\n  compile: 2500000.0ns\n"
                                 "  op_costs:\n"));
  EXPECT_THAT(overlay, HasSubstr("  op_costs_per_element:\n    \"aten::mm\": 0.123457ns\n"));
  const std::string path = ::testing::TempDir() + "/calibrate_overlay.yaml";
  FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs(overlay.c_str(), file);
  std::fclose(file);
  const scenario::Scenario loaded = Load({path});
  std::remove(path.c_str());
  EXPECT_EQ(loaded.device.matmul_efficiency, 0.85);
  EXPECT_EQ(loaded.device.gce_efficiency, 0.001);
  EXPECT_EQ(loaded.device.dispatch_ns, 212.2);
  EXPECT_EQ(loaded.device.clock_drift_ppm, 1000);
  EXPECT_EQ(loaded.device.clock_offset_ns, -20);
  EXPECT_EQ(loaded.host.op_costs.at("aten::mm").self_ns, 6543.2);
  EXPECT_EQ(loaded.host.op_costs_per_element_ns.at("aten::mm"), 0.123457);
  EXPECT_EQ(loaded.host.compile_ns, 2.5e6);
}

}  // namespace
}  // namespace rblnsim::cli
