#include "scenario/canonical.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;
using testing::kMinimal;
using testing::LoadOk;
using ::testing::MatchesRegex;

TEST(ScenarioCanonical, Fnv1aTestVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(ScenarioCanonical, EveryFieldAndRoundTrip) {
  StatusOr<Scenario> seed = LoadScenario(testing::SeedScenarioPath());
  ASSERT_TRUE(seed.ok()) << seed.status().message();
  const std::string text = CanonicalYaml(*seed);
  for (const char* key : {"scenario:",
                          "description:",
                          "seed:",
                          "device:",
                          "  queue:",
                          "    command_timeout:",
                          "  profiler:",
                          "  faults:",
                          "host:",
                          "  op_costs:",
                          "  system_epoch:",
                          "env:",
                          "  RBLN_PROFILER:",
                          "workload:",
                          "  warmup:",
                          "  profile:",
                          "naming:",
                          "expect:",
                          "  op_calls:",
                          "\"aten::_copy_from\": 9"}) {
    EXPECT_THAT(text, HasSubstr(key));
  }
  StatusOr<Scenario> again = LoadScenarioFromString(text, "canonical.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
  EXPECT_EQ(CanonicalYaml(*again), text);
  EXPECT_EQ(ScenarioHash(*again), ScenarioHash(*seed));
  EXPECT_THAT(ScenarioHash(*seed), MatchesRegex("[0-9a-f]{16}"));
}

TEST(ScenarioCanonical, RoundTripKeepsEveryKindOfStepAndSweep) {
  const Scenario s =
      LoadOk(std::string(kMinimal) + R"(device: {variant: atom, clock: 1.25GHz}
host: {op_costs: {aten::mm: 12.5us}, jitter: 0.1}
env: {RBLN_PROFILER_DIR: "dir with \"quotes\"\tand tab"}
expect: {latency_p99_max: 1.5ms, fallbacks: 2}
sweep: {mode: zip, params: {device.queue.depth: [64, 128], description: ["a, b", plain]}}
)",
             {}, {"workload.warmup=[{synchronize: true}, {repeat: 2, steps: [{cpu: x}]}]"});
  const std::string text = CanonicalYaml(s);
  StatusOr<Scenario> again = LoadScenarioFromString(text, "canonical.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
  EXPECT_EQ(CanonicalYaml(*again), text);
  EXPECT_EQ(again->env.rbln_profiler_dir, "dir with \"quotes\"\tand tab");
  EXPECT_EQ(again->device.array_rows, s.device.array_rows);
  EXPECT_EQ(again->sweep.axes[1].values, (std::vector<std::string>{"\"a, b\"", "plain"}));
}

// A default fetch batch follows a smaller ring; written out it would become explicit, and a sweep
// of the depth below it would no longer load. An explicit batch stays in the text.
TEST(ScenarioCanonical, ADefaultFetchBatchStaysADefaultThroughADepthSweep) {
  const Scenario s = LoadOk(std::string(kMinimal) +
                            "sweep: {mode: grid, params: {device.queue.depth: [4, 16, 64]}}\n");
  const std::string text = CanonicalYaml(s);
  EXPECT_EQ(text.find("fetch_batch"), std::string::npos) << text;
  StatusOr<Scenario> again = LoadScenarioFromString(text, "canonical.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
  EXPECT_EQ(CanonicalYaml(*again), text);
  EXPECT_EQ(again->device.fetch_batch, s.device.fetch_batch);
  const Scenario explicit_batch =
      LoadOk(std::string(kMinimal) + "device: {queue: {fetch_batch: 4}}\n");
  const std::string kept = CanonicalYaml(explicit_batch);
  EXPECT_NE(kept.find("fetch_batch: 4"), std::string::npos) << kept;
  StatusOr<Scenario> kept_again = LoadScenarioFromString(kept, "canonical.yaml");
  ASSERT_TRUE(kept_again.ok()) << kept_again.status().message();
  EXPECT_EQ(kept_again->device.fetch_batch, 4);
}

TEST(ScenarioCanonical, RoundTripKeepsGraphs) {
  const Scenario s = LoadOk(R"(scenario: graphs
workload:
  tensors:
    x: {shape: [4, 128]}
    w: {shape: [256, 128]}
  graphs:
    g: {inputs: [a], steps: [{op: linear, inputs: [a, w], out: h}, {op: mul, inputs: [h],
        out: y, scalars: [0.5]}], output: y}
  profile:
    - {graph: g, inputs: [x], out: y}
)");
  const std::string text = CanonicalYaml(s);
  EXPECT_THAT(text, HasSubstr("    g: {inputs: [a], steps: [{op: linear"));
  EXPECT_THAT(text, HasSubstr("    - {graph: g, inputs: [x], out: y}"));
  StatusOr<Scenario> again = LoadScenarioFromString(text, "canonical.yaml");
  ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
  EXPECT_EQ(CanonicalYaml(*again), text);
}

TEST(ScenarioCanonical, HashIgnoresSpellingAndSourceButNotValues) {
  const std::string a =
      std::string(kMinimal) + "device: {hbm: {bandwidth: 1.2TB/s}, clock: 1GHz}\n";
  const std::string b =
      "device:\n  clock: 1000MHz\n  hbm:\n    bandwidth: 1200 GB/s\n" + std::string(kMinimal);
  const Scenario sa = LoadOk(a);
  StatusOr<Scenario> sb = LoadScenarioFromString(b, "elsewhere/other.yaml");
  ASSERT_TRUE(sb.ok()) << sb.status().message();
  EXPECT_EQ(ScenarioHash(sa), ScenarioHash(*sb));
  EXPECT_EQ(ScenarioHash(sa), ScenarioHash(LoadOk(a)));  // stable across loads
  const Scenario changed = LoadOk(a, {}, {"device.queue.depth=63"});
  EXPECT_NE(ScenarioHash(sa), ScenarioHash(changed));
  const Scenario seeded = LoadOk(a, {}, {"seed=2"});
  EXPECT_NE(ScenarioHash(sa), ScenarioHash(seeded));
}

TEST(ScenarioCanonical, SweepPointsHashDistinctly) {
  const Scenario s =
      LoadOk(std::string(kMinimal) + "sweep: {params: {device.queue.depth: [1, 2, 4, 8]}}\n");
  std::set<std::string> hashes;
  for (const auto& point : ExpandSweep(s.sweep)) {
    hashes.insert(ScenarioHash(LoadOk(kMinimal, {}, point)));
  }
  EXPECT_EQ(hashes.size(), 4u);
}

}  // namespace
}  // namespace rblnsim::scenario
