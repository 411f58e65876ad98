// scenario_loader_fuzzer: arbitrary bytes as a scenario file plus --set overrides.
#include <string>
#include <string_view>
#include <vector>

#include "scenario/canonical.h"
#include "scenario/loader.h"
#include "tests/fuzz/fuzz_entries.h"

namespace rblnsim::fuzz {

namespace {

constexpr char kVirtualPath[] = "fuzz.yaml";

// "" when |message| is a loader error as loader.h documents it: one line that names where the
// problem is ("fuzz.yaml:3:5: ..." or "--set <text>: ...").
std::string CheckErrorLine(const std::string& message, const char* source) {
  if (message.empty())
    return std::string(source) + ": an error without a message";
  if (message.find('\n') != std::string::npos)
    return std::string(source) + ": a multi-line error: " + message;
  const std::string_view text(message);
  if (!text.starts_with(kVirtualPath) && !text.starts_with("--set ") &&
      !text.starts_with("canonical.yaml"))
    return std::string(source) + ": an error that names no source: " + message;
  return "";
}

// Splits off the optional "#--set" trailer: one override per line, as the CLI's --set would get.
std::vector<std::string> TakeSetOverrides(std::string* text) {
  std::vector<std::string> sets;
  const size_t marker = text->find(kFuzzSetMarker);
  if (marker == std::string::npos)
    return sets;
  std::string_view rest = std::string_view(*text).substr(marker + sizeof(kFuzzSetMarker) - 1);
  while (!rest.empty() && sets.size() < kMaxFuzzSets) {
    const size_t end = rest.find('\n');
    sets.emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  text->resize(marker);
  return sets;
}

}  // namespace

std::string FuzzScenarioLoader(const uint8_t* data, size_t size) {
  // LoadScenario refuses larger files before parsing; do the same so a long input measures the
  // parser, not yaml-cpp's known super-linear cost on megabytes of tokens.
  if (size > scenario::kMaxScenarioFileBytes)
    return "";
  std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> sets = TakeSetOverrides(&text);

  auto loaded = scenario::LoadScenarioFromString(text, kVirtualPath, {}, sets);
  if (!loaded.ok())
    return CheckErrorLine(loaded.status().message(), "load");

  // canonical.h: "The text is itself a valid scenario: loading it gives back an equal Scenario."
  const std::string canonical = scenario::CanonicalYaml(*loaded);
  auto again = scenario::LoadScenarioFromString(canonical, "canonical.yaml");
  if (!again.ok()) {
    return "the canonical text of a loaded scenario does not load: " + again.status().message();
  }
  // ScenarioHash is a hash of this text, so equal texts are the "equal Scenario" of the promise.
  if (scenario::CanonicalYaml(*again) != canonical)
    return "the canonical text of a loaded scenario loads to a different scenario";
  return "";
}

}  // namespace rblnsim::fuzz
