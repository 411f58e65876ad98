// --set overrides, overlay files and sweeps: all merged into the document before validation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario/loader.h"
#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;
using testing::kMinimal;
using testing::LoadError;
using testing::LoadOk;
using ::testing::StartsWith;
using testing::TempDir;

TEST(ScenarioOverrides, SetChangesValues) {
  const Scenario s = LoadOk(
      kMinimal, {},
      {"device.queue.depth=16", "env.TORCH_RBLN_DEPLOY=ON", "workload.tensors.x.shape=[128, 128]",
       "host.op_costs.aten::mm=12us", "device.clock = 2GHz", "description=\"a: b\""});
  EXPECT_EQ(s.device.queue_depth, 16);
  EXPECT_TRUE(s.env.torch_rbln_deploy);
  EXPECT_EQ(s.workload.tensors[0].shape, (std::vector<int64_t>{128, 128}));
  EXPECT_DOUBLE_EQ(s.host.op_costs.at("aten::mm").self_ns, 12000);
  EXPECT_DOUBLE_EQ(s.device.clock_ghz, 2);
  EXPECT_EQ(s.description, "a: b");
}

TEST(ScenarioOverrides, SetIndexesSequencesAndDeletes) {
  const std::string text = std::string(kMinimal) + "expect: {device_events: 18}\n";
  const Scenario s = LoadOk(text, {}, {"workload.profile.1.cpu=x", "expect.device_events="});
  EXPECT_EQ(s.workload.profile[1].inputs, std::vector<std::string>{"x"});
  EXPECT_FALSE(s.expect.device_events.has_value());
  EXPECT_THAT(LoadError(kMinimal, {"workload.profile.5.cpu=x"}),
              HasSubstr("'workload.profile' is a sequence of 2 items; '5' is not an index"));
}

TEST(ScenarioOverrides, SetErrorsNameTheArgument) {
  EXPECT_EQ(LoadError(kMinimal, {"device.queue.dept=3"}),
            "--set device.queue.dept=3: unknown key 'dept' in device.queue; did you mean "
            "'depth'?");
  EXPECT_EQ(LoadError(kMinimal, {"device.queue.depth=0"}),
            "--set device.queue.depth=0: out of range: device.queue.depth must be in [1, 65536], "
            "got 0");
  EXPECT_THAT(LoadError(kMinimal, {"device.queue.depth"}),
              StartsWith("--set device.queue.depth: expected path=value"));
  EXPECT_THAT(LoadError(kMinimal, {"=3"}), HasSubstr("the path before '=' is empty"));
  EXPECT_THAT(LoadError(kMinimal, {"device..depth=3"}), HasSubstr("empty key in path"));
  EXPECT_THAT(LoadError(kMinimal, {"device.clock=[1"}),
              StartsWith("--set device.clock=[1: YAML syntax error"));
  EXPECT_THAT(LoadError(kMinimal, {"scenario.x=1"}),
              HasSubstr("'scenario' is a scalar, not a mapping"));
  // The value is checked by the same rules as the file: units, types, shapes.
  EXPECT_THAT(LoadError(kMinimal, {"device.clock=1000"}), HasSubstr("needs a unit"));
  EXPECT_THAT(LoadError(kMinimal, {"workload.tensors.x.shape=[64, 32]"}),
              HasSubstr("test.yaml:6:24: op mm: inner dimensions differ"));
  EXPECT_THAT(LoadError(kMinimal, {"env.RBLN_PROFILER=yes"}),
              HasSubstr("--set env.RBLN_PROFILER=yes: env.RBLN_PROFILER: 'yes' is invalid"));
}

TEST(ScenarioOverrides, OverlaysMergeKeyByKeyLaterWins) {
  TempDir dir;
  const std::string base =
      std::string(kMinimal) + "device:\n  chiplets: 2\n  queue: {depth: 32, fetch_batch: 4}\n";
  const std::string first = dir.Write("first.yaml", "device:\n  queue:\n    depth: 8\n");
  const std::string second =
      dir.Write("second.yaml", "device: {queue: {depth: 16}}\nexpect: {fallbacks: 0}\n");
  const Scenario s = LoadOk(base, {first, second});
  EXPECT_EQ(s.device.chiplets, 2);      // from the base
  EXPECT_EQ(s.device.fetch_batch, 4);   // merged, not replaced
  EXPECT_EQ(s.device.queue_depth, 16);  // the later overlay wins
  EXPECT_EQ(s.expect.fallbacks, 0);
  // --set applies after every overlay.
  EXPECT_EQ(LoadOk(base, {first, second}, {"device.queue.depth=64"}).device.queue_depth, 64);
}

TEST(ScenarioOverrides, OverlayNullDeletesAndEmptyIsNoOp) {
  TempDir dir;
  const std::string base = std::string(kMinimal) + "device: {chiplets: 2}\n";
  const std::string reset = dir.Write("reset.yaml", "device:\n  chiplets: ~\n");
  const std::string empty = dir.Write("empty.yaml", "# nothing\n");
  const Scenario s = LoadOk(base, {reset, empty});
  EXPECT_EQ(s.device.chiplets, DeviceConfig{}.chiplets);
}

TEST(ScenarioOverrides, OverlayErrorsPointIntoTheOverlay) {
  TempDir dir;
  const std::string overlay = dir.Write("bad.yaml", "device:\n  queue:\n    depht: 8\n");
  EXPECT_EQ(LoadScenarioFromString(kMinimal, "test.yaml", {overlay}, {}).status().message(),
            overlay + ":3:5: unknown key 'depht' in device.queue; did you mean 'depth'?");
  const std::string list = dir.Write("list.yaml", "- a\n");
  EXPECT_THAT(LoadScenarioFromString(kMinimal, "test.yaml", {list}, {}).status().message(),
              StartsWith(list + ":1:1: the top level of the overlay file must be a mapping"));
  EXPECT_THAT(
      LoadScenarioFromString(kMinimal, "test.yaml", {"/nonexistent.yaml"}, {}).status().message(),
      StartsWith("/nonexistent.yaml: cannot open"));
}

TEST(ScenarioOverrides, SweepGridAndZipExpansion) {
  const Scenario grid = LoadOk(std::string(kMinimal) + R"(sweep:
  mode: grid
  params:
    device.queue.depth: [4, 16]
    env.TORCH_RBLN_DEPLOY: [ON, OFF, "1"]
    workload.tensors.x.shape: [[64, 64], [128, 128]]
)");
  ASSERT_EQ(grid.sweep.axes.size(), 3u);
  EXPECT_EQ(grid.sweep.axes[2].values, (std::vector<std::string>{"[64, 64]", "[128, 128]"}));
  const auto points = ExpandSweep(grid.sweep);
  ASSERT_EQ(points.size(), 12u);
  EXPECT_EQ(points[0], (std::vector<std::string>{"device.queue.depth=4", "env.TORCH_RBLN_DEPLOY=ON",
                                                 "workload.tensors.x.shape=[64, 64]"}));
  EXPECT_EQ(points[1][2], "workload.tensors.x.shape=[128, 128]");  // last axis fastest
  EXPECT_EQ(points[2][1], "env.TORCH_RBLN_DEPLOY=OFF");
  EXPECT_EQ(points[4][1], "env.TORCH_RBLN_DEPLOY=\"1\"");
  EXPECT_EQ(points[11][0], "device.queue.depth=16");
  // Each point loads as --set overrides.
  for (const auto& point : points) {
    LoadOk(kMinimal, {}, point);
  }

  const Scenario zip = LoadOk(std::string(kMinimal) + R"(sweep:
  mode: zip
  params: {device.queue.depth: [4, 16], device.queue.fetch_batch: [2, 8]}
)");
  const auto pairs = ExpandSweep(zip.sweep);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1],
            (std::vector<std::string>{"device.queue.depth=16", "device.queue.fetch_batch=8"}));
  EXPECT_TRUE(ExpandSweep(Sweep{}).empty());
}

TEST(ScenarioOverrides, SweepValuesAreValidatedInPlace) {
  const std::string head = std::string(kMinimal) + "sweep:\n  params:\n";
  EXPECT_EQ(LoadError(head + "    device.queue.depth: [4, -1]\n"),
            "test.yaml:10:29: sweep value -1 for device.queue.depth: out of range: "
            "device.queue.depth must be in [1, 65536], got -1");
  EXPECT_THAT(LoadError(head + "    device.queue.dpth: [4]\n"),
              StartsWith("test.yaml:10:5: sweep value 4 for device.queue.dpth: unknown key"));
  // A value that breaks the program elsewhere names both places.
  EXPECT_THAT(LoadError(head + "    workload.tensors.x.shape: [[64, 32]]\n"),
              HasSubstr("test.yaml:10:32: sweep value [64, 32] for workload.tensors.x.shape makes "
                        "the scenario invalid: test.yaml:6:24: op mm: inner dimensions differ"));
  EXPECT_THAT(LoadError(head + "    sweep.mode: [zip]\n"), HasSubstr("cannot change the sweep"));
  EXPECT_THAT(LoadError(head + "    device.chiplets: []\n"), HasSubstr("non-empty list"));
  EXPECT_THAT(LoadError(std::string(kMinimal) + "sweep: {mode: grid}\n"),
              HasSubstr("sweep.params needs a mapping"));
}

}  // namespace
}  // namespace rblnsim::scenario
