// The load-time half of "no accepted value gives a wrong time": the ranges of rate and time keys,
// integers written as integers, strict UTF-8, the executed-step limit, and sweep points that do
// not re-read the document.
#include "scenario/limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "scenario/canonical.h"
#include "scenario/loader.h"
#include "scenario/sweep_points.h"
#include "scenario/units.h"
#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;
using testing::kMinimal;
using testing::LoadError;
using testing::LoadOk;
using ::testing::StartsWith;

// The values that used to overflow the timing arithmetic, each refused at its own position.
TEST(ScenarioLimits, OverflowingRatesAreRefusedWithTheirPosition) {
  struct Case {
    const char* yaml;
    const char* message;
  };
  const Case cases[] = {
      {"device:\n  matmul:\n    efficiency: 1e-16\n",
       "test.yaml:10:17: out of range: device.matmul.efficiency must be in [0.001, 4], got 1e-16"},
      {"device:\n  gce:\n    efficiency: 1e-300\n",
       "test.yaml:10:17: out of range: device.gce.efficiency must be in [0.001, 4], got 1e-300"},
      {"device:\n  dma:\n    efficiency: 0.0009\n",
       "test.yaml:10:17: out of range: device.dma.efficiency"},
      {"host:\n  copy_bandwidth: 1e-3B/s\n",
       "test.yaml:9:19: out of range: host.copy_bandwidth must be in [1e+06B/s, 1e+15B/s], got "
       "'1e-3B/s'"},
      {"device:\n  pcie:\n    bandwidth: 1e-300B/s\n",
       "test.yaml:10:16: out of range: device.pcie.bandwidth must be in [1e+06B/s, 1e+15B/s]"},
      {"device:\n  hbm:\n    bandwidth: 999999B/s\n", "test.yaml:10:16: out of range"},
      {"device:\n  d2d:\n    bandwidth: 2000TB/s\n", "test.yaml:10:16: out of range"},
      {"device:\n  clock: 1Hz\n",
       "test.yaml:9:10: out of range: device.clock must be in "
       "[0.001GHz, 10GHz]"},
      {"device:\n  queue:\n    dispatch: 1001s\n", "test.yaml:10:15: out of range"},
      {"device:\n  queue:\n    command_timeout: 2000s\n", "test.yaml:10:22: out of range"},
      {"device:\n  queue:\n    command_overhead: 1e10\n", "test.yaml:10:23: out of range"},
      {"host:\n  compile: 1e9s\n", "test.yaml:9:12: out of range"},
      {"host:\n  op_costs: {aten::mm: 2000s}\n", "test.yaml:9:24: out of range"},
      {"host:\n  steady_epoch: 9223372036854775807ns\n",
       "test.yaml:9:17: out of range: host.steady_epoch must be in [0ns, 9e+18ns]"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(LoadError(std::string(kMinimal) + c.yaml), StartsWith(c.message)) << c.yaml;
  }
}

TEST(ScenarioLimits, BoundsThemselvesAreAccepted) {
  const Scenario s = LoadOk(std::string(kMinimal) + R"(device:
  clock: 1MHz
  matmul: {efficiency: 0.001}
  gce: {efficiency: 0.001}
  dma: {efficiency: 1, bandwidth: 1MB/s}
  pcie: {bandwidth: 1000TB/s, latency: 1000s}
  queue: {command_timeout: 1000s, command_overhead: 1e9}
host:
  copy_bandwidth: 1MB/s
)");
  EXPECT_DOUBLE_EQ(s.device.matmul_efficiency, kMinEfficiency);
  EXPECT_DOUBLE_EQ(s.device.clock_ghz, kMinClockGhz);
  EXPECT_DOUBLE_EQ(s.host.host_copy_bytes_per_s, kMinBandwidthBytesPerS);
  EXPECT_DOUBLE_EQ(s.device.pcie_bandwidth_bytes_per_s, kMaxBandwidthBytesPerS);
  EXPECT_DOUBLE_EQ(s.device.command_timeout_ns, kMaxDurationNs);
}

TEST(ScenarioLimits, IntegerKeysTakeIntegersOnly) {
  EXPECT_EQ(LoadError(std::string(kMinimal) + "device:\n  chiplets: 4.0\n"),
            "test.yaml:9:13: device.chiplets: expected an integer, got the real number '4.0'");
  // Every integer key goes through the same reader: a list item, a repeat count, a --set value.
  EXPECT_THAT(LoadError(std::string(kMinimal) + "device:\n  queue: {depth: 16.}\n"),
              HasSubstr("device.queue.depth: expected an integer, got the real number '16.'"));
  EXPECT_THAT(LoadError(R"(scenario: s
workload:
  tensors:
    x: {shape: [64.0, 64]}
  profile:
    - {cpu: x}
)"),
              HasSubstr("expected an integer, got the real number '64.0'"));
  EXPECT_THAT(LoadError(R"(scenario: s
workload:
  tensors:
    x: {shape: [64, 64]}
  profile:
    - repeat: 2.0
      steps: [{cpu: x}]
)"),
              HasSubstr("expected an integer, got the real number '2.0'"));
  EXPECT_THAT(LoadError(kMinimal, {"device.pcie.links=2.0"}),
              HasSubstr("expected an integer, got the real number '2.0'"));
  EXPECT_THAT(LoadError(kMinimal, {"device.pcie.links=20e-1"}),
              HasSubstr("expected an integer, got the real number"));
  // Digits scaled by a power of ten stay integers, as documented for split_min_flops.
  EXPECT_EQ(LoadOk(std::string(kMinimal) + "device:\n  matmul: {split_min_flops: 2e9}\n")
                .device.chiplet_split_min_flops,
            2'000'000'000);
  EXPECT_EQ(LoadOk(std::string(kMinimal) + "device:\n  chiplets: 2\n").device.chiplets, 2);
}

TEST(ScenarioLimits, ParseIntegerRefusesRealSyntax) {
  EXPECT_FALSE(ParseInteger("4.0").ok());
  EXPECT_FALSE(ParseInteger("4.").ok());
  EXPECT_FALSE(ParseInteger("40e-1").ok());
  EXPECT_FALSE(ParseInteger("2.5e1").ok());
  EXPECT_EQ(*ParseInteger("2e9"), 2'000'000'000);
  EXPECT_EQ(*ParseInteger("+3E2"), 300);
  EXPECT_EQ(*ParseInteger("-7"), -7);
}

// Each ill-formed sequence, as raw bytes in a description, fails at its byte with its reason.
TEST(ScenarioLimits, IllFormedUtf8IsAnErrorAtItsPosition) {
  struct Case {
    std::string bytes;
    const char* reason;
  };
  const Case cases[] = {
      {"\xED\xA0\x80", "an encoded surrogate"},  // U+D800
      {"\xED\xBF\xBF", "an encoded surrogate"},  // U+DFFF
      {"\xF4\x90\x80\x80", "beyond U+10FFFF"},   // U+110000
      {"\xF5\x80\x80\x80", "beyond U+10FFFF"},
      {"\xE0\x80\xAF", "an overlong 3-byte encoding"},      // '/' in three bytes
      {"\xE0\x9F\xBF", "an overlong 3-byte encoding"},      // U+07FF in three bytes
      {"\xF0\x8F\xBF\xBF", "an overlong 4-byte encoding"},  // U+FFFF in four bytes
      {"\xC0\xAF", "an overlong 2-byte encoding"},
  };
  for (const Case& c : cases) {
    const std::string text = std::string(kMinimal) + "description: ab" + c.bytes + "cd\n";
    const std::string error = LoadError(text);
    EXPECT_THAT(error, StartsWith("test.yaml:8:16: ill-formed UTF-8")) << error;
    EXPECT_THAT(error, HasSubstr(c.reason)) << error;
  }
  // The largest code points on either side of the holes are fine.
  for (const char* good : {"\xED\x9F\xBF", "\xEE\x80\x80", "\xF4\x8F\xBF\xBF", "\xE0\xA0\x80",
                           "\xF0\x90\x80\x80", "\xC2\x80"}) {
    EXPECT_EQ(LoadOk(std::string(kMinimal) + "description: ab" + good + "cd\n").description,
              std::string("ab") + good + "cd");
  }
}

TEST(ScenarioLimits, IllFormedUtf8ThroughSetAndEscapesIsAnError) {
  EXPECT_THAT(LoadError(kMinimal, {"description=a\xED\xA0\x80"}),
              HasSubstr("ill-formed UTF-8 in a scalar (an encoded surrogate"));
  EXPECT_THAT(LoadError(kMinimal, {"description=a\xE0\x80\xAF"}),
              HasSubstr("an overlong 3-byte encoding"));
  // YAML's own escapes cannot smuggle a surrogate or a code point past U+10FFFF in either.
  EXPECT_THAT(LoadError(std::string(kMinimal) + "description: \"a\\uD800\"\n"),
              StartsWith("test.yaml:8:"));
  EXPECT_THAT(LoadError(std::string(kMinimal) + "description: \"a\\U00110000\"\n"),
              StartsWith("test.yaml:8:"));
}

// 10^7 executed steps: a valid-looking scenario that would need gigabytes is refused at load.
TEST(ScenarioLimits, TenMillionStepsAreRefusedAtLoad) {
  const std::string error = LoadError(R"(scenario: s
workload:
  tensors:
    x: {shape: [8]}
  profile:
    - repeat: 10000000
      steps:
        - {op: add, inputs: [x, x], out: y}
)");
  EXPECT_THAT(error, StartsWith("test.yaml:6:15: huge loop count"));
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

// A 2,000-step workload swept over 200 points: the workload is validated once (the base load),
// the device once per point, and every point equals a full load of the same --set arguments.
TEST(ScenarioSweepPoints, APointRevalidatesOnlyTheSweptParts) {
  std::string text = "scenario: big\nworkload:\n  tensors:\n    x: {shape: [8, 8]}\n  profile:\n";
  for (int i = 0; i < 2000; ++i) {
    text += "    - {op: add, inputs: [x, x], out: y" + std::to_string(i % 7) + "}\n";
  }
  text += "sweep:\n  params:\n    device.queue.depth: [";
  for (int depth = 1; depth <= 200; ++depth) {
    text += (depth > 1 ? ", " : "") + std::to_string(depth);
  }
  text += "]\n";
  testing::TempDir dir;
  const std::string path = dir.Write("big.yaml", text);
  StatusOr<SweepPoints> points = SweepPoints::Load(path, {}, {});
  ASSERT_TRUE(points.ok()) << points.status().message();
  EXPECT_EQ(points->swept_parts(), std::vector<ScenarioPart>{ScenarioPart::kDevice});
  Scenario point = points->PointTemplate();
  ScenarioDigest digest;
  const std::vector<std::vector<std::string>> sets = ExpandSweep(points->base().sweep);
  ASSERT_EQ(sets.size(), 200u);
  for (size_t i = 0; i < sets.size(); ++i) {
    StatusOr<std::vector<ScenarioPart>> changed = points->LoadPoint(sets[i], &point);
    ASSERT_TRUE(changed.ok()) << changed.status().message();
    EXPECT_EQ(*changed, std::vector<ScenarioPart>{ScenarioPart::kDevice});
    if (i == 0) {
      digest = DigestScenario(point);
    } else {
      UpdateDigest(point, ScenarioPart::kDevice, &digest);
    }
    EXPECT_EQ(point.device.queue_depth, static_cast<int>(i + 1));
    if (i % 50 == 0) {  // the full load agrees, text and hash
      std::vector<std::string> full_sets = sets[i];
      full_sets.push_back("sweep=null");
      StatusOr<Scenario> full = LoadScenario(path, {}, full_sets);
      ASSERT_TRUE(full.ok()) << full.status().message();
      EXPECT_EQ(CanonicalYaml(point), CanonicalYaml(*full));
      EXPECT_EQ(DigestHash(digest), ScenarioHash(*full));
    }
  }
  EXPECT_EQ(points->validations(ScenarioPart::kWorkload), 1);
  EXPECT_EQ(points->validations(ScenarioPart::kHost), 1);
  EXPECT_EQ(points->validations(ScenarioPart::kDevice), 201);
}

TEST(ScenarioSweepPoints, ABadCombinationFailsAtItsPoint) {
  testing::TempDir dir;
  const std::string path = dir.Write("combo.yaml", std::string(kMinimal) + R"(sweep:
  params:
    device.queue.depth: [4, 16]
    device.queue.fetch_batch: [8]
)");
  StatusOr<SweepPoints> points = SweepPoints::Load(path, {}, {});
  ASSERT_TRUE(points.ok()) << points.status().message();
  Scenario point = points->PointTemplate();
  const auto sets = ExpandSweep(points->base().sweep);
  EXPECT_THAT(points->LoadPoint(sets[0], &point).status().message(),
              HasSubstr("must not exceed device.queue.depth (4)"));
  EXPECT_TRUE(points->LoadPoint(sets[1], &point).ok());
}

// A workload axis listed first changes once per value in grid order: the workload is validated
// once per value, not once per point, and each point still equals a full load.
TEST(ScenarioSweepPoints, AnUnchangedWorkloadIsNotValidatedAgain) {
  testing::TempDir dir;
  const std::string path = dir.Write("shapes.yaml", std::string(kMinimal) + R"(sweep:
  params:
    workload.tensors.x.shape: [[8, 8], [16, 16], [32, 32]]
    device.queue.depth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
)");
  StatusOr<SweepPoints> points = SweepPoints::Load(path, {}, {});
  ASSERT_TRUE(points.ok()) << points.status().message();
  Scenario point = points->PointTemplate();
  const auto sets = ExpandSweep(points->base().sweep);
  ASSERT_EQ(sets.size(), 30u);
  for (size_t i = 0; i < sets.size(); ++i) {
    StatusOr<std::vector<ScenarioPart>> changed = points->LoadPoint(sets[i], &point);
    ASSERT_TRUE(changed.ok()) << changed.status().message();
    const bool workload = std::count(changed->begin(), changed->end(), ScenarioPart::kWorkload);
    EXPECT_EQ(workload, i % 10 == 0) << i;
    EXPECT_EQ(std::count(changed->begin(), changed->end(), ScenarioPart::kDevice), 1) << i;
    std::vector<std::string> full_sets = sets[i];
    full_sets.push_back("sweep=null");
    StatusOr<Scenario> full = LoadScenario(path, {}, full_sets);
    ASSERT_TRUE(full.ok()) << full.status().message();
    EXPECT_EQ(CanonicalYaml(point), CanonicalYaml(*full)) << i;
  }
  EXPECT_EQ(points->validations(ScenarioPart::kWorkload), 1 + 3);
  EXPECT_EQ(points->validations(ScenarioPart::kDevice), 1 + 30);
}

TEST(ScenarioDigestTest, PartsConcatenateToTheCanonicalText) {
  const Scenario s = LoadOk(kMinimal);
  std::string joined;
  for (ScenarioPart part : kScenarioParts) {
    joined += CanonicalPart(s, part);
  }
  EXPECT_EQ(joined, CanonicalYaml(s));
  EXPECT_EQ(PartOfKey("device.queue.depth"), ScenarioPart::kDevice);
  EXPECT_EQ(PartOfKey("seed"), ScenarioPart::kHeader);
  EXPECT_EQ(PartOfKey("sweep"), ScenarioPart::kExpectAndSweep);
  EXPECT_EQ(PartOfKey("devices.x"), std::nullopt);
  // Changing one part changes the hash; digests updated part by part equal a fresh one.
  Scenario changed = s;
  changed.device.queue_depth = 3;
  ScenarioDigest digest = DigestScenario(s);
  UpdateDigest(changed, ScenarioPart::kDevice, &digest);
  EXPECT_EQ(DigestHash(digest), ScenarioHash(changed));
  EXPECT_NE(ScenarioHash(changed), ScenarioHash(s));
}

}  // namespace
}  // namespace rblnsim::scenario
