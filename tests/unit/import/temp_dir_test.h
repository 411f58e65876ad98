// A gtest fixture with a private directory per test (removed afterwards) and a helper that writes
// a file into it: the importer's file tests read traces from disk.
#ifndef RBLNSIM_TESTS_UNIT_IMPORT_TEMP_DIR_TEST_H_
#define RBLNSIM_TESTS_UNIT_IMPORT_TEMP_DIR_TEST_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace rblnsim::trace {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("rblnsim_import_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes |bytes| to |name| in the directory and returns its path.
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  std::filesystem::path dir_;
};

}  // namespace rblnsim::trace

#endif  // RBLNSIM_TESTS_UNIT_IMPORT_TEMP_DIR_TEST_H_
