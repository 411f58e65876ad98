// Helpers shared by the scenario tests.
#ifndef RBLNSIM_TESTS_UNIT_SCENARIO_TEST_UTIL_H_
#define RBLNSIM_TESTS_UNIT_SCENARIO_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "scenario/loader.h"

namespace rblnsim::scenario::testing {

// A minimal valid scenario; tests append or override sections.
inline constexpr char kMinimal[] = R"(scenario: minimal
workload:
  tensors:
    x: {shape: [64, 64]}
  profile:
    - {op: mm, inputs: [x, x], out: y}
    - {cpu: y}
)";

inline std::string SeedScenarioPath() {
  return std::string(RBLNSIM_SCENARIOS_DIR) + "/profile_matmul.yaml";
}

// The error of loading `text`, which must fail.
inline std::string LoadError(const std::string& text, const std::vector<std::string>& sets = {}) {
  StatusOr<Scenario> result = LoadScenarioFromString(text, "test.yaml", {}, sets);
  EXPECT_FALSE(result.ok()) << "expected an error";
  return result.status().message();
}

inline Scenario LoadOk(const std::string& text,
                       const std::vector<std::string>& overlays = {},
                       const std::vector<std::string>& sets = {}) {
  StatusOr<Scenario> result = LoadScenarioFromString(text, "test.yaml", overlays, sets);
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? *result : Scenario{};
}

// A file under the test's temporary directory, removed with the directory.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("rblnsim_scenario_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
             std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

// Wall time of `fn` in seconds.
template <typename Fn>
double SecondsFor(Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rblnsim::scenario::testing

#endif  // RBLNSIM_TESTS_UNIT_SCENARIO_TEST_UTIL_H_
