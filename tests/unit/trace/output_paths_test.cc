#include "profiler/trace/output_paths.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace rblnsim::trace {
namespace {

namespace fs = std::filesystem;

class OutputPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rblnsim-outpaths-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    input_ = (dir_ / "in.json").string();
    std::ofstream(input_) << "{}";
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string input_;
};

TEST_F(OutputPathsTest, NewAndRegularFilesPass) {
  std::ofstream((dir_ / "old.json").string()) << "x";
  EXPECT_TRUE(CheckOutputPaths({{"trace", input_}}, {{"--json", (dir_ / "new.json").string()},
                                                     {"--out", (dir_ / "old.json").string()}})
                  .ok());
}

TEST_F(OutputPathsTest, OutputEqualToInputIsRefusedThroughAnyAlias) {
  for (const std::string& alias : {input_, (dir_ / "." / "in.json").string(),
                                   (dir_ / ".." / dir_.filename() / "in.json").string()}) {
    const Status status = CheckOutputPaths({{"trace", input_}}, {{"--json", alias}});
    ASSERT_FALSE(status.ok()) << alias;
    EXPECT_NE(status.message().find("same file as the input trace"), std::string::npos)
        << status.message();
  }
  // A hard link is the same file under another name.
  const std::string hard = (dir_ / "hard.json").string();
  ASSERT_EQ(::link(input_.c_str(), hard.c_str()), 0);
  EXPECT_FALSE(CheckOutputPaths({{"trace", input_}}, {{"--json", hard}}).ok());
}

TEST_F(OutputPathsTest, TwoOutputsNamingOneFileAreRefusedEvenWhenNew) {
  const std::string out = (dir_ / "x.json").string();
  const Status status =
      CheckOutputPaths({}, {{"--trace", out}, {"--truth", (dir_ / "./x.json").string()}});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("--truth"), std::string::npos);
  EXPECT_NE(status.message().find("same file as the output --trace"), std::string::npos);
}

TEST_F(OutputPathsTest, SymlinksDirectoriesDevicesAndEmptyPathsAreRefused) {
  const std::string link = (dir_ / "link.json").string();
  ASSERT_EQ(::symlink((dir_ / "target.json").c_str(), link.c_str()), 0);
  EXPECT_NE(CheckOutputPaths({}, {{"--trace", link}}).message().find("symbolic link"),
            std::string::npos);
  EXPECT_NE(CheckOutputPaths({}, {{"--trace", dir_.string()}}).message().find("directory"),
            std::string::npos);
  EXPECT_NE(CheckOutputPaths({}, {{"--trace", "/dev/null"}}).message().find("not a regular file"),
            std::string::npos);
  EXPECT_NE(CheckOutputPaths({}, {{"--trace", ""}}).message().find("empty"), std::string::npos);
  // Nothing was created or replaced.
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_FALSE(fs::exists(dir_ / "target.json"));
}

TEST_F(OutputPathsTest, OutputDirectoryIsCheckedWithoutBeingCreated) {
  EXPECT_TRUE(CheckOutputDirectory("--plots", (dir_ / "plots").string()).ok());
  EXPECT_FALSE(fs::exists(dir_ / "plots"));
  EXPECT_FALSE(CheckOutputDirectory("--plots", input_).ok());
  EXPECT_FALSE(CheckOutputDirectory("--plots", (dir_ / "no" / "plots").string()).ok());
}

}  // namespace
}  // namespace rblnsim::trace
