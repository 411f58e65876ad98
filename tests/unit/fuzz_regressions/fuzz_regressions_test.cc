// Every input a fuzzer ever failed on (tests/fuzz/regressions/<target>/) and every seed of its
// corpus (tests/fuzz/corpus/<target>/), fed to the fuzzer's own entry function. A crash fails the
// test process (the asan build reports it like the fuzzer did); a broken contract fails the
// expectation with the file's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_entries.h"

namespace rblnsim::fuzz {
namespace {

namespace fs = std::filesystem;

using Entry = std::string (*)(const uint8_t* data, size_t size);

fs::path FuzzDir() {
  // rblnsim_test sets it on every test; a relative fallback would find nothing and replay nothing.
  const char* source = std::getenv("RBLNSIM_SOURCE_DIR");
  if (source == nullptr || *source == '\0') {
    ADD_FAILURE() << "RBLNSIM_SOURCE_DIR is not set: run the test through ctest";
    return {};
  }
  return fs::path(source) / "tests" / "fuzz";
}

// Regular files of |dir| in name order; READMEs are documentation, not inputs.
std::vector<fs::path> InputsIn(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir))
    return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && !entry.path().filename().string().starts_with("README"))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Runs every input of |dir| through |entry|; returns how many there were.
size_t Replay(const fs::path& dir, Entry entry) {
  const std::vector<fs::path> files = InputsIn(dir);
  for (const fs::path& file : files) {
    // Printed before the call, so a crash report is preceded by the input that caused it.
    std::fprintf(stderr, "replaying %s\n", file.c_str());
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string data = bytes.str();
    EXPECT_EQ(entry(reinterpret_cast<const uint8_t*>(data.data()), data.size()), "")
        << file.string();
  }
  return files.size();
}

struct Target {
  const char* name;  // the fuzzer, and its folder under corpus/ and regressions/
  Entry entry;
};

// gtest prints parameters into the ctest names; the name keeps them stable and readable.
void PrintTo(const Target& target, std::ostream* os) {
  *os << target.name;
}

std::string TargetName(const ::testing::TestParamInfo<Target>& param_info) {
  return param_info.param.name;
}

const Target kScenarioLoader{"scenario_loader_fuzzer", &FuzzScenarioLoader};
const Target kTraceImport{"trace_import_fuzzer", &FuzzTraceImport};
const Target kKinetoConsumer{"kineto_consumer_fuzzer", &FuzzKinetoConsumer};
const Target kCaptureCompare{"capture_compare_fuzzer", &FuzzCaptureCompare};
const Target kCliFlags{"cli_flags_fuzzer", &FuzzCliFlags};

// Every fuzzer starts from a seed corpus.
class FuzzInputs : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzInputs, SeedCorpusIsHandled) {
  EXPECT_GT(Replay(FuzzDir() / "corpus" / GetParam().name, GetParam().entry), 0u)
      << "the seed corpus of " << GetParam().name << " is missing or empty";
}

INSTANTIATE_TEST_SUITE_P(
    Targets,
    FuzzInputs,
    ::testing::Values(kScenarioLoader, kTraceImport, kKinetoConsumer, kCaptureCompare, kCliFlags),
    TargetName);

// The targets a fuzzer has failed on. A target joins this list with its first committed input
// (tests/fuzz/regressions/<target>/); from then on its folder missing or empty is a failure, not
// a replay of nothing.
const Target kWithRegressions[] = {kTraceImport, kKinetoConsumer};

class FuzzRegressions : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzRegressions, RegressionsStayFixed) {
  EXPECT_GT(Replay(FuzzDir() / "regressions" / GetParam().name, GetParam().entry), 0u)
      << "the regressions of " << GetParam().name << " are missing or empty";
}

INSTANTIATE_TEST_SUITE_P(Targets,
                         FuzzRegressions,
                         ::testing::ValuesIn(kWithRegressions),
                         TargetName);

// A folder under regressions/ that the list above does not name would never be replayed.
TEST(FuzzRegressionFolders, EveryFolderIsReplayed) {
  const fs::path dir = FuzzDir() / "regressions";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  size_t folders = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (!entry.is_directory())
      continue;
    ++folders;
    const std::string name = entry.path().filename().string();
    const bool listed = std::any_of(std::begin(kWithRegressions), std::end(kWithRegressions),
                                    [&](const Target& t) { return name == t.name; });
    EXPECT_TRUE(listed) << "tests/fuzz/regressions/" << name
                        << "/ is not in kWithRegressions: its inputs are never replayed";
  }
  EXPECT_EQ(folders, std::size(kWithRegressions));
}

}  // namespace
}  // namespace rblnsim::fuzz
