// rblnsim_test (cmake/RblnsimHelpers.cmake) gives every test RBLNSIM_SOURCE_DIR,
// RBLNSIM_BUILD_DIR and SC_COPYRIGHT_MESSAGE. Once only the first of them arrived and tests grew
// workarounds for the others; these fail if any variable stops reaching the test, or arrives with
// another build's value. The expected values are compiled in from the same CMake variables.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "<unset>" : value;
}

TEST(TestEnvironment, SourceDirIsThisCheckout) {
  EXPECT_EQ(Env("RBLNSIM_SOURCE_DIR"), RBLNSIM_EXPECTED_SOURCE_DIR);
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(Env("RBLNSIM_SOURCE_DIR")) /
                                               "cmake" / "RblnsimHelpers.cmake"));
}

TEST(TestEnvironment, BuildDirIsThisBuildTree) {
  EXPECT_EQ(Env("RBLNSIM_BUILD_DIR"), RBLNSIM_EXPECTED_BUILD_DIR);
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(Env("RBLNSIM_BUILD_DIR")) /
                                               "CMakeCache.txt"));
}

TEST(TestEnvironment, SystemcBannerIsDisabled) {
  EXPECT_EQ(Env("SC_COPYRIGHT_MESSAGE"), "DISABLE");
}

}  // namespace
