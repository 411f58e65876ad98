// Loads every file in tests/scenarios_bad and checks that it fails the way its header says:
//   # expect: <substring of the error message>
//   # at: <line>:<column>          (optional)
// Files that cannot carry a comment (empty, binary) are listed in EXPECTED.txt as
//   <file>@<line>:<column>: <substring>
// Every error must be one line starting "<path>:<line>:<column>: " and arrive in under a second.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "scenario/loader.h"
#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

namespace fs = std::filesystem;

struct BadCase {
  std::string file;      // name inside the corpus directory
  std::string expected;  // substring of the message
  std::string at;        // "line:column", or "" when not pinned
};

// gtest prints parameters in test names and failures; the file name is enough.
void PrintTo(const BadCase& bad, std::ostream* out) {
  *out << bad.file;
}

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<BadCase> LoadCorpus() {
  const fs::path dir = RBLNSIM_SCENARIOS_BAD_DIR;
  std::vector<BadCase> cases;
  std::istringstream listed(ReadAll(dir / "EXPECTED.txt"));
  for (std::string line; std::getline(listed, line);) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    const size_t at = line.find('@');
    const size_t colon = line.find(": ", at);
    if (at == std::string::npos || colon == std::string::npos) {
      continue;
    }
    cases.push_back(
        {line.substr(0, at), line.substr(colon + 2), line.substr(at + 1, colon - at - 1)});
  }
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".yaml") {
      continue;
    }
    if (std::any_of(cases.begin(), cases.end(), [&](const BadCase& c) { return c.file == name; })) {
      continue;
    }
    std::istringstream text(ReadAll(entry.path()));
    std::string first, second;
    std::getline(text, first);
    std::getline(text, second);
    BadCase bad{name, "", ""};
    if (first.rfind("# expect: ", 0) == 0) {
      bad.expected = first.substr(10);
    }
    if (second.rfind("# at: ", 0) == 0) {
      bad.at = second.substr(6);
    }
    cases.push_back(bad);  // an empty expectation fails the test below
  }
  std::sort(cases.begin(), cases.end(),
            [](const BadCase& a, const BadCase& b) { return a.file < b.file; });
  return cases;
}

class ScenarioBadCorpus : public ::testing::TestWithParam<BadCase> {};

TEST_P(ScenarioBadCorpus, FailsWithOneLinePositionedError) {
  const BadCase& bad = GetParam();
  ASSERT_FALSE(bad.expected.empty()) << bad.file << " has no '# expect: ' first line and is not "
                                     << "listed in EXPECTED.txt";
  const std::string path = std::string(RBLNSIM_SCENARIOS_BAD_DIR) + "/" + bad.file;
  StatusOr<Scenario> result = Status::Error("not run");
  const double seconds = testing::SecondsFor([&] { result = LoadScenario(path); });
  ASSERT_FALSE(result.ok()) << bad.file << " loaded without error";
  const std::string message = result.status().message();
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.find('\r'), std::string::npos) << message;
  // The path is a literal prefix; only line and column are matched as numbers.
  ASSERT_EQ(message.compare(0, path.size() + 1, path + ":"), 0) << message;
  std::smatch position;
  const std::string rest = message.substr(path.size() + 1);
  ASSERT_TRUE(std::regex_search(rest, position, std::regex("^([0-9]+):([0-9]+): "))) << message;
  EXPECT_GE(std::stoi(position[1]), 1);
  EXPECT_GE(std::stoi(position[2]), 1);
  if (!bad.at.empty()) {
    EXPECT_EQ(std::string(position[1]) + ":" + std::string(position[2]), bad.at) << message;
  }
  EXPECT_THAT(message, ::testing::HasSubstr(bad.expected));
  EXPECT_LT(seconds, 1.0) << bad.file;
}

std::string CaseName(const ::testing::TestParamInfo<BadCase>& info) {
  std::string name = info.param.file;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      c = '_';
    }
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, ScenarioBadCorpus, ::testing::ValuesIn(LoadCorpus()), CaseName);

TEST(ScenarioBadCorpusSize, HasAtLeastThirtyFiles) {
  EXPECT_GE(LoadCorpus().size(), 30u);
}

}  // namespace
}  // namespace rblnsim::scenario
