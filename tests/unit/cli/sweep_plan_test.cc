// Sweep planning on scenario files written by the test: canonical order, keys that name a point's
// own resolved scenario (so adding an axis value keeps the other keys), seeds derived from keys,
// the matrix work per point, the refusals, and round-robin sharding.
#include "tools/rblnsim/lib/sweep/sweep_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "tests/unit/import/temp_dir_test.h"

namespace rblnsim::cli {
namespace {

constexpr char kHead[] = R"(scenario: plan_test
seed: 7
env:
  RBLN_PROFILER: "0"
workload:
  activities: [cpu, privateuse1]
  tensors:
    x: {shape: [256, 256], dtype: fp16}
  profile:
    - repeat: 4
      steps:
        - {op: matmul, inputs: [x, x], out: y}
    - {cpu: y}
)";

std::string WithSweep(const std::string& depths) {
  return std::string(kHead) + "sweep:\n  mode: grid\n  params:\n    device.queue.depth: [" +
         depths + "]\n    env.RBLN_RUNTIME_FORCE_SYNC: [\"0\", \"1\"]\n";
}

// No variable is set: the plan must not depend on the shell running the test.
const GetEnv kNoEnv = [](const char*) -> const char* { return nullptr; };

class SweepPlanTest : public trace::TempDirTest {
 protected:
  StatusOr<SweepPlan> Plan(const std::string& yaml,
                           std::vector<std::string> sets = {},
                           const GetEnv& getenv = kNoEnv) {
    SweepInputs inputs;
    inputs.scenario_path = Write("sweep.yaml", yaml);
    inputs.sets = std::move(sets);
    return PlanSweep(inputs, getenv);
  }
};

TEST_F(SweepPlanTest, GridPointsComeInCanonicalOrderWithDistinctKeys) {
  auto plan = Plan(WithSweep("2, 4, 8"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->scenario_name, "plan_test");
  EXPECT_EQ(plan->axes,
            (std::vector<std::string>{"device.queue.depth", "env.RBLN_RUNTIME_FORCE_SYNC"}));
  ASSERT_EQ(plan->points.size(), 6u);
  std::set<std::string> keys;
  std::set<std::vector<std::pair<std::string, std::string>>> combinations;
  for (size_t i = 0; i < plan->points.size(); ++i) {
    const SweepPoint& point = plan->points[i];
    EXPECT_EQ(point.index, i);
    ASSERT_EQ(point.sets.size(), 2u);
    ASSERT_EQ(point.params.size(), 2u);
    EXPECT_EQ(point.params[0].first, "device.queue.depth");
    // The --set text keeps YAML's quotes; the displayed value loses them.
    EXPECT_EQ(point.sets[1],
              "env.RBLN_RUNTIME_FORCE_SYNC=" + std::string("\"") + point.params[1].second + "\"");
    EXPECT_EQ(point.key.size(), 16u);
    EXPECT_EQ(point.seed, DeriveSeed(7, point.key));
    EXPECT_LT(point.seed, uint64_t{1} << 53);
    keys.insert(point.key);
    combinations.insert(point.params);
  }
  EXPECT_EQ(keys.size(), 6u);
  EXPECT_EQ(combinations.size(), 6u);
  EXPECT_EQ(plan->points.front().params[0].second, "2");
  EXPECT_EQ(plan->points.back().params[0].second, "8");
}

TEST_F(SweepPlanTest, KeysNameThePointNotItsPosition) {
  auto small = Plan(WithSweep("2, 8"));
  auto large = Plan(WithSweep("2, 4, 8"));
  ASSERT_TRUE(small.ok()) << small.status().message();
  ASSERT_TRUE(large.ok()) << large.status().message();
  std::map<std::vector<std::pair<std::string, std::string>>, std::string> key_of;
  for (const SweepPoint& point : large->points)
    key_of[point.params] = point.key;
  for (const SweepPoint& point : small->points) {
    ASSERT_TRUE(key_of.count(point.params));
    EXPECT_EQ(key_of[point.params], point.key) << "depth " << point.params[0].second;
  }
  // The sweep as a whole is a different one.
  EXPECT_NE(small->sweep_id, large->sweep_id);
  // Planning is deterministic.
  auto again = Plan(WithSweep("2, 4, 8"));
  ASSERT_TRUE(again.ok());
  for (size_t i = 0; i < large->points.size(); ++i)
    EXPECT_EQ(again->points[i].key, large->points[i].key);
}

TEST_F(SweepPlanTest, EveryPointCarriesItsWorkloadsMatrixWork) {
  auto plan = Plan(WithSweep("2"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // 4 matmuls of 256^3 multiply-adds, 2 FLOPs each.
  const double flops = 4 * 2.0 * 256 * 256 * 256;
  for (const SweepPoint& point : plan->points) {
    EXPECT_DOUBLE_EQ(point.matmul_flops, flops);
    EXPECT_GT(point.peak_flops_per_s, 0);
  }
}

TEST_F(SweepPlanTest, RefusesWhatWouldMakePointsRunTheSameConfiguration) {
  auto no_sweep = Plan(kHead);
  ASSERT_FALSE(no_sweep.ok());
  EXPECT_NE(no_sweep.status().message().find("has no sweep: block"), std::string::npos);

  auto set_overlaps = Plan(WithSweep("2, 4"), {"device.queue.depth=16"});
  ASSERT_FALSE(set_overlaps.ok());
  EXPECT_NE(set_overlaps.status().message().find("overlaps the swept key device.queue.depth"),
            std::string::npos)
      << set_overlaps.status().message();

  const GetEnv sync_set = [](const char* name) -> const char* {
    return std::string(name) == "RBLN_RUNTIME_FORCE_SYNC" ? "1" : nullptr;
  };
  auto env_overrides = Plan(WithSweep("2, 4"), {}, sync_set);
  ASSERT_FALSE(env_overrides.ok());
  EXPECT_NE(env_overrides.status().message().find("RBLN_RUNTIME_FORCE_SYNC=1 overrides"),
            std::string::npos)
      << env_overrides.status().message();
}

TEST_F(SweepPlanTest, TwoPointsResolvingToOneScenarioAreRefused) {
  // 1us and 1000ns are two spellings of one latency.
  auto plan = Plan(std::string(kHead) +
                   "sweep:\n  mode: grid\n  params:\n    device.pcie.latency: [1us, 1000ns]\n");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("resolve to the same scenario"), std::string::npos)
      << plan.status().message();
}

TEST(SweepShard, RoundRobinOverTheCanonicalIndex) {
  EXPECT_EQ(ShardPoints(7, 0, 3), (std::vector<size_t>{0, 3, 6}));
  EXPECT_EQ(ShardPoints(7, 1, 3), (std::vector<size_t>{1, 4}));
  EXPECT_EQ(ShardPoints(7, 2, 3), (std::vector<size_t>{2, 5}));
  EXPECT_EQ(ShardPoints(2, 3, 4), std::vector<size_t>{});
  EXPECT_EQ(ShardPoints(3, 0, 1), (std::vector<size_t>{0, 1, 2}));
}

TEST(SweepSeed, DependsOnBaseAndKeyAndFitsADouble) {
  const uint64_t a = DeriveSeed(1, "0123456789abcdef");
  EXPECT_EQ(a, DeriveSeed(1, "0123456789abcdef"));
  EXPECT_NE(a, DeriveSeed(2, "0123456789abcdef"));
  EXPECT_NE(a, DeriveSeed(1, "fedcba9876543210"));
  EXPECT_LT(a, uint64_t{1} << 53);
}

}  // namespace
}  // namespace rblnsim::cli
