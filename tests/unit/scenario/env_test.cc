#include "scenario/env.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;

// A fake process environment.
std::function<const char*(const char*)> Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ScenarioEnv, ProcessEnvironmentOverridesScenario) {
  StatusOr<Scenario> loaded = LoadScenario(testing::SeedScenarioPath());
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  Scenario s = *loaded;
  EXPECT_FALSE(s.env.rbln_profiler);
  ASSERT_TRUE(
      ApplyProcessEnvironment(
          &s, Env({{"RBLN_PROFILER", "1"}, {"RBLN_PROFILER_DIR", "/tmp/p"}, {"HOME", "/root"}}))
          .ok());
  EXPECT_TRUE(s.env.rbln_profiler);
  EXPECT_EQ(s.env.rbln_profiler_dir, "/tmp/p");
  EXPECT_FALSE(s.env.torch_rbln_deploy);  // not in the environment: the scenario's value stays
  ASSERT_TRUE(
      ApplyProcessEnvironment(&s, Env({{"RBLN_PROFILER", "0"}, {"RBLN_RUNTIME_FORCE_SYNC", "1"}}))
          .ok());
  EXPECT_FALSE(s.env.rbln_profiler);
  EXPECT_TRUE(s.env.runtime_force_sync);
}

TEST(ScenarioEnv, DeployAcceptsTheSpellingsTorchRblnReads) {
  for (const char* on : {"ON", "on", "1", "true", "True"}) {
    Scenario s;
    ASSERT_TRUE(ApplyProcessEnvironment(&s, Env({{"TORCH_RBLN_DEPLOY", on}})).ok()) << on;
    EXPECT_TRUE(s.env.torch_rbln_deploy) << on;
  }
  for (const char* off : {"OFF", "off", "0", "false"}) {
    Scenario s;
    s.env.torch_rbln_deploy = true;
    ASSERT_TRUE(ApplyProcessEnvironment(&s, Env({{"TORCH_RBLN_DEPLOY", off}})).ok()) << off;
    EXPECT_FALSE(s.env.torch_rbln_deploy) << off;
  }
}

TEST(ScenarioEnv, EmptyValueCountsAsUnset) {
  Scenario s;
  s.env.rbln_profiler = true;
  ASSERT_TRUE(ApplyProcessEnvironment(&s, Env({{"RBLN_PROFILER", ""}})).ok());
  EXPECT_TRUE(s.env.rbln_profiler);
}

TEST(ScenarioEnv, InvalidValuesNameVariableAndValue) {
  Scenario s;
  EXPECT_EQ(ApplyProcessEnvironment(&s, Env({{"RBLN_PROFILER", "yes"}})).message(),
            "environment variable RBLN_PROFILER: 'yes' is invalid; expected 0 or 1");
  EXPECT_THAT(ApplyProcessEnvironment(&s, Env({{"TORCH_RBLN_DEPLOY", "maybe"}})).message(),
              HasSubstr("TORCH_RBLN_DEPLOY: 'maybe' is invalid; expected ON or OFF"));
  EXPECT_THAT(ApplyProcessEnvironment(&s, Env({{"RBLN_RUNTIME_FORCE_SYNC", "2"}})).message(),
              HasSubstr("RBLN_RUNTIME_FORCE_SYNC: '2' is invalid"));
  EXPECT_THAT(SetEnvVariable("RBLN_PROFILE", "1", &s.env).message(),
              HasSubstr("did you mean 'RBLN_PROFILER'?"));
}

TEST(ScenarioEnv, ScenarioSectionUsesTheSameRules) {
  const std::string base = testing::kMinimal;
  const Scenario s = testing::LoadOk(base + "env: {RBLN_PROFILER: \"1\", TORCH_RBLN_DEPLOY: on}\n");
  EXPECT_TRUE(s.env.rbln_profiler);
  EXPECT_TRUE(s.env.torch_rbln_deploy);
  EXPECT_THAT(testing::LoadError(base + "env: {RBLN_PROFILER: 2}\n"),
              HasSubstr("test.yaml:8:22: env.RBLN_PROFILER: '2' is invalid; expected 0 or 1"));
}

}  // namespace
}  // namespace rblnsim::scenario
