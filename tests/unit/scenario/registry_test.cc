#include "scenario/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "scenario/canonical.h"
#include "scenario/units.h"
#include "tests/unit/scenario/test_util.h"

namespace rblnsim::scenario {
namespace {

using ::testing::HasSubstr;
using testing::kMinimal;
using testing::LoadOk;

bool IsWhole(ParamKind kind) {
  return kind == ParamKind::kInt || kind == ParamKind::kTimeExact || kind == ParamKind::kSize;
}

// A valid value of `param` other than `current`, or monostate when the test cannot find one.
ParamValue OtherValue(const Param& param, const ParamValue& current) {
  switch (param.kind) {
    case ParamKind::kChoice: {
      // An unset optional choice (expect.no_fallbacks) takes its second spelling.
      const int64_t index =
          std::holds_alternative<std::monostate>(current) ? 0 : std::get<int64_t>(current);
      return (index + 1) % static_cast<int64_t>(param.choices.size());
    }
    case ParamKind::kChoiceSet:  // a different non-empty set: the next one up, wrapping
      return std::get<int64_t>(current) % ((int64_t{1} << param.choices.size()) - 1) + 1;
    case ParamKind::kUint64:  // the top half too: seeds are unsigned
      return static_cast<int64_t>(static_cast<uint64_t>(std::get<int64_t>(current)) ^ (1ull << 63));
    case ParamKind::kName:
      return std::get<std::string>(current) + "-2";
    case ParamKind::kString:
    case ParamKind::kEnvVar: {
      if (!param.choices.empty()) {
        for (std::string_view choice : param.choices) {
          if (choice != std::get<std::string>(current)) {
            return std::string(choice);
          }
        }
      }
      // A list of categories takes only its own words.
      std::string text = std::get<std::string>(current);
      if (param.path == "env.TORCH_RBLN_DISABLE_FALLBACK")
        return std::string(text.empty() ? "unsupported_op" : "");
      // A trailing digit is bumped so shaped names (RBLN-CR13, python3) stay valid.
      if (!text.empty() && text.back() >= '0' && text.back() < '9') {
        ++text.back();
        return text;
      }
      return text + "x";
    }
    case ParamKind::kOpCostMap:
      return OpCostsNs{{"aten::mm", 1234.0}};
    case ParamKind::kOpCountMap:
      return OpCounts{{"aten::mm", 7}};
    default:
      break;
  }
  const bool unset = std::holds_alternative<std::monostate>(current);
  const double value = unset ? 1.0
                       : std::holds_alternative<double>(current)
                           ? std::get<double>(current)
                           : static_cast<double>(std::get<int64_t>(current));
  const Range& r = param.range;
  for (double candidate :
       {value, value * 2, value + 1, value / 2, value - 1, (r.min + r.max) / 2}) {
    if ((candidate == value && !unset) || !r.Contains(candidate)) {
      continue;
    }
    if (IsWhole(param.kind)) {
      return static_cast<int64_t>(candidate);
    }
    return candidate;
  }
  return ParamValue();
}

// The --set text of `value`: the canonical spelling, or a flow mapping for the op maps.
std::string SetText(const Param& param, const ParamValue& value) {
  if (const auto* costs = std::get_if<OpCostsNs>(&value)) {
    std::string text;
    for (const auto& [name, ns] : *costs) {
      text += (text.empty() ? "" : ", ") + name + ": " + FormatNumber(ns) + "ns";
    }
    return "{" + text + "}";
  }
  if (const auto* counts = std::get_if<OpCounts>(&value)) {
    std::string text;
    for (const auto& [name, count] : *counts) {
      text += (text.empty() ? "" : ", ") + name + ": " + std::to_string(count);
    }
    return "{" + text + "}";
  }
  return CanonicalValueText(param, value);
}

TEST(ScenarioRegistry, RowsAreWellFormed) {
  std::set<std::string_view> paths;
  std::set<std::string_view> fields;
  for (const Param& param : Parameters()) {
    SCOPED_TRACE(std::string(param.path));
    EXPECT_TRUE(paths.insert(param.path).second) << "duplicate path";
    EXPECT_TRUE(fields.insert(param.field).second) << "two keys set one field";
    EXPECT_FALSE(param.help.empty());
    EXPECT_NE(param.get, nullptr);
    EXPECT_NE(param.set, nullptr);
    EXPECT_EQ(FindParam(param.path), &param);
    const bool chooses = param.kind == ParamKind::kChoice || param.kind == ParamKind::kChoiceSet;
    EXPECT_EQ(chooses, !param.choices.empty() && param.kind != ParamKind::kEnvVar &&
                           param.kind != ParamKind::kString);
    // A default outside its own range could never be written back by the canonical form.
    const ParamValue fallback = DefaultValue(param);
    if (const auto* real = std::get_if<double>(&fallback)) {
      EXPECT_TRUE(param.range.Contains(*real)) << *real;
    } else if (const auto* whole = std::get_if<int64_t>(&fallback);
               whole != nullptr && !chooses && param.kind != ParamKind::kUint64) {
      EXPECT_TRUE(param.range.Contains(static_cast<double>(*whole))) << *whole;
    }
  }
  EXPECT_EQ(RegistrySections(),
            (std::vector<std::string_view>{"", "device", "host", "env", "workload", "naming",
                                           "expect", "sweep"}));
  EXPECT_EQ(FindParam("device.queue"), nullptr);
  EXPECT_EQ(ChildKeys("device.queue").front(), "depth");
}

// Every key is read by the loader, written by the canonical form and counted by the hash: a
// --set of any key to another valid value reaches its field, changes the hash, and survives
// the canonical round trip.
TEST(ScenarioRegistry, EveryKeyIsParsedAndChangesTheCanonicalHash) {
  const Scenario base = LoadOk(kMinimal);
  const std::string base_hash = ScenarioHash(base);
  std::set<std::string> hashes = {base_hash};
  for (const Param& param : Parameters()) {
    SCOPED_TRACE(std::string(param.path));
    const ParamValue other = OtherValue(param, param.get(base));
    ASSERT_FALSE(std::holds_alternative<std::monostate>(other)) << "no other valid value";
    std::vector<std::string> sets = {std::string(param.path) + "=" + SetText(param, other)};
    const std::string& set = sets.front();
    // sweep's keys exist only beside an axis; the axis alone is the baseline here.
    if (SectionOf(param.path) == "sweep") {
      sets.push_back("sweep.params={seed: [2, 3]}");
      const auto axis_only = LoadScenarioFromString(kMinimal, "test.yaml", {}, {sets.back()});
      ASSERT_TRUE(axis_only.ok()) << axis_only.status().message();
      EXPECT_TRUE(hashes.insert(ScenarioHash(*axis_only)).second);
    }
    StatusOr<Scenario> changed = LoadScenarioFromString(kMinimal, "test.yaml", {}, sets);
    ASSERT_TRUE(changed.ok()) << set << ": " << changed.status().message();
    EXPECT_EQ(param.get(*changed), other) << set;
    const std::string hash = ScenarioHash(*changed);
    EXPECT_TRUE(hashes.insert(hash).second) << set << " did not change the hash";
    const std::string text = CanonicalYaml(*changed);
    StatusOr<Scenario> again = LoadScenarioFromString(text, "canonical.yaml");
    ASSERT_TRUE(again.ok()) << again.status().message() << "\n" << text;
    EXPECT_EQ(param.get(*again), other);
    EXPECT_EQ(ScenarioHash(*again), hash);
  }
}

TEST(ScenarioRegistry, SetValuesGoThroughTheKeysRange) {
  for (const Param& param : Parameters()) {
    if (!std::isfinite(param.range.max) || param.kind == ParamKind::kOpCostMap ||
        param.kind == ParamKind::kOpCountMap) {
      continue;
    }
    SCOPED_TRACE(std::string(param.path));
    const double above = param.range.max * 2 + 1;
    const int64_t whole =
        above >= 0x1p63 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(above);
    const ParamValue value = IsWhole(param.kind) ? ParamValue(whole) : ParamValue(above);
    const std::string error = testing::LoadError(
        kMinimal, {std::string(param.path) + "=" + CanonicalValueText(param, value)});
    EXPECT_THAT(error, HasSubstr("out of range: " + std::string(param.path)));
  }
}

std::string ReadmeText() {
  std::ifstream file(std::string(RBLNSIM_SCENARIOS_DIR) + "/README.md", std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The README's key tables are the registry's; regenerate them with tools/scenario_tables.py.
TEST(ScenarioRegistry, ReadmeTablesAreTheRegistry) {
  const std::string readme = ReadmeText();
  ASSERT_FALSE(readme.empty());
  for (std::string_view section : RegistrySections()) {
    SCOPED_TRACE(std::string(section));
    const std::string open = "<!-- registry: " + std::string(SectionLabel(section)) + " -->\n";
    const size_t start = readme.find(open);
    ASSERT_NE(start, std::string::npos) << "scenarios/README.md has no " << open;
    const size_t end = readme.find("<!-- /registry -->", start);
    ASSERT_NE(end, std::string::npos);
    const std::string table = readme.substr(start + open.size(), end - start - open.size());
    EXPECT_EQ(table, RegistryMarkdownTable(section))
        << "scenarios/README.md differs from the registry; run tools/scenario_tables.py";
    for (const Param& param : Parameters()) {
      if (SectionOf(param.path) == section) {
        const std::string key(section.empty() ? param.path : param.path.substr(section.size() + 1));
        EXPECT_THAT(table, HasSubstr("| `" + key + "` |"));
      }
    }
  }
}

TEST(ScenarioRegistry, HumanText) {
  const Param& dispatch = *FindParam("device.queue.dispatch");
  EXPECT_EQ(HumanValueText(dispatch, 150.0), "150ns");
  EXPECT_EQ(HumanValueText(dispatch, 9000.0), "9us");
  EXPECT_EQ(HumanValueText(dispatch, 1.5e9), "1.5s");
  EXPECT_EQ(HumanRangeText(dispatch), "[0, 1000s]");
  EXPECT_EQ(CanonicalValueText(dispatch, 150.0), "150ns");
  const Param& sram = *FindParam("device.matmul.sram");
  EXPECT_EQ(HumanValueText(sram, int64_t{64} << 20), "64MiB");
  EXPECT_EQ(HumanValueText(sram, int64_t{3'000'000}), "3MB");
  EXPECT_EQ(HumanRangeText(sram), "> 0");
  EXPECT_EQ(HumanValueText(*FindParam("device.hbm.bandwidth"), 1.2e12), "1.2TB/s");
  EXPECT_EQ(HumanValueText(*FindParam("device.clock"), 1.25), "1.25GHz");
  EXPECT_EQ(HumanValueText(*FindParam("device.variant"), int64_t{1}), "atom");
  EXPECT_EQ(KindText(*FindParam("device.matmul.dataflow")), "ws | os | is");
}

}  // namespace
}  // namespace rblnsim::scenario
