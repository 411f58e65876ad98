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
  const char* source = std::getenv("RBLNSIM_SOURCE_DIR");
  return fs::path(source == nullptr ? "." : source) / "tests" / "fuzz";
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

class FuzzInputs : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzInputs, RegressionsStayFixed) {
  // A target may have no regression yet; the folder then holds only its README, or nothing.
  Replay(FuzzDir() / "regressions" / GetParam().name, GetParam().entry);
}

TEST_P(FuzzInputs, SeedCorpusIsHandled) {
  EXPECT_GT(Replay(FuzzDir() / "corpus" / GetParam().name, GetParam().entry), 0u)
      << "the seed corpus of " << GetParam().name << " is missing";
}

INSTANTIATE_TEST_SUITE_P(Targets,
                         FuzzInputs,
                         ::testing::Values(Target{"scenario_loader_fuzzer", &FuzzScenarioLoader},
                                           Target{"trace_import_fuzzer", &FuzzTraceImport},
                                           Target{"kineto_consumer_fuzzer", &FuzzKinetoConsumer},
                                           Target{"capture_compare_fuzzer", &FuzzCaptureCompare},
                                           Target{"cli_flags_fuzzer", &FuzzCliFlags}),
                         [](const ::testing::TestParamInfo<Target>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace rblnsim::fuzz
