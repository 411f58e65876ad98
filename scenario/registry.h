// The scenario parameter registry: one row per configuration key of the device, host, env, naming
// and expect sections, naming its path, the Scenario field it sets, its type, unit, range and
// help. The loader reads these sections through it, the canonical form (and so the hash) writes
// them from it, `rblnsim describe` prints it, calibrate names its parameters by it, and the key
// tables of scenarios/README.md are generated from it. Adding a key means adding its row here
// (registry_table.cc) and reading its field where it is used; nothing else spells the path.
//
// Defaults are not stored: a key's default is its field's value in a default-constructed
// Scenario, so scenario.h stays the one place defaults are written.
#ifndef RBLNSIM_SCENARIO_REGISTRY_H_
#define RBLNSIM_SCENARIO_REGISTRY_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/section.h"

namespace rblnsim::scenario {

enum class ParamKind {
  kInt,         // an integer (int64_t value)
  kNumber,      // a plain number (double)
  kTime,        // a time with its unit, stored in ns (double)
  kTimeExact,   // a time stored as whole ns (int64_t): clock epochs
  kFrequency,   // stored in GHz (double)
  kSize,        // stored in bytes (int64_t)
  kBandwidth,   // stored in bytes per second (double)
  kString,      // any text (std::string)
  kChoice,      // one of `choices`; the value is its index (int64_t)
  kChoiceSet,   // a non-empty list of distinct `choices`; the value has bit i for choices[i]
  kName,        // an identifier: 1-128 letters, digits, '_', '-' or '.' (std::string)
  kUint64,      // an integer in [0, 2^64), stored as the int64_t of the same bits
  kEnvVar,      // an environment variable's text as the process would see it (std::string)
  kOpCostMap,   // ATen op name -> time in ns (OpCostsNs)
  kOpCountMap,  // ATen op name -> count (OpCounts)
};

using OpCostsNs = std::map<std::string, double>;
using OpCounts = std::map<std::string, int64_t>;
// A key's value in its base unit; monostate for an optional key left unset (expect.*).
using ParamValue = std::variant<std::monostate, int64_t, double, std::string, OpCostsNs, OpCounts>;

struct Param {
  std::string_view path;  // "device.queue.dispatch"
  ParamKind kind = ParamKind::kString;
  std::string_view unit;  // the unit of the stored value ("ns", "B/s", "cycles"); may be empty
  Range range;            // numeric kinds (maps: each value)
  std::vector<std::string_view> choices;  // kChoice: the spellings, in enum order
  std::string_view help;   // one phrase for the README table and `describe --parameters`
  std::string_view field;  // the Scenario member it sets: "device.dispatch_ns"
  ParamValue (*get)(const Scenario&) = nullptr;
  void (*set)(Scenario*, const ParamValue&) = nullptr;
};

// Every key, grouped by section and sub-mapping in the order the canonical form writes them.
// Top-level keys (scenario, description, seed) come first; their section is "".
const std::vector<Param>& Parameters();
// The row of `path`, or nullptr.
const Param* FindParam(std::string_view path);
// The section of a key path: its first component, "" for a top-level key ("seed").
std::string_view SectionOf(std::string_view path);
// The sections the registry covers, in canonical order: "" (the top-level keys), device, host,
// env, workload, naming, expect, sweep. workload and sweep also hold what is not a parameter (the
// program; the sweep's axes), read by their own parsers.
const std::vector<std::string_view>& RegistrySections();
// The name a section goes by in README markers and `describe --parameters`: "top" for "".
std::string_view SectionLabel(std::string_view section);
// The keys directly under `mapping_path` ("device" -> variant, ..., matmul, ...; "device.queue" ->
// depth, ...), in registry order: the keys the loader accepts in that mapping.
const std::vector<std::string_view>& ChildKeys(std::string_view mapping_path);
// The key's value in a default-constructed Scenario.
ParamValue DefaultValue(const Param& param);

// The value as the canonical YAML writes it ("150ns", "64MiB" as "67108864B", "\"RBLN-CR13\"").
// Empty for an unset optional and for the maps, which the canonical writer lays out itself.
std::string CanonicalValueText(const Param& param, const ParamValue& value);
// The choices whose bits are set in a kChoiceSet value, in row order: "cpu, privateuse1".
std::string ChoiceSetText(const Param& param, int64_t bits);
// The value for people: the largest unit that keeps it short ("5us", "36GiB", "1.2TB/s").
std::string HumanValueText(const Param& param, const ParamValue& value);
// The range for people: "[0, 1000s]", "(0, 1]", "≥ 0"; empty when any value is accepted.
std::string HumanRangeText(const Param& param);
// "integer", "time", "rebel100 | atom", ...
std::string KindText(const Param& param);

// Reads one key of `section` into *scenario when it is present, with the loader's errors.
Status ReadParam(const Section& section,
                 std::string_view key,
                 const Param& param,
                 Scenario* scenario);

// Reads every registry key under the top-level `section` from `node` (nullptr: all defaults),
// opening each nested mapping when its first key is reached, in registry order. `after` runs
// after each key for the rules that tie keys together (ATOM defaults, fetch batch vs depth);
// it receives the mapping the key was read from.
// `program_keys` are the section's keys that are not parameters (workload.tensors, ...): allowed
// here and left to the section's own parser.
using AfterParam = Status (*)(const Param& param, const Section& mapping, Scenario* scenario);
Status ReadRegistrySection(const YamlNode* node,
                           std::string_view section,
                           Scenario* scenario,
                           AfterParam after = nullptr,
                           const std::vector<std::string_view>& program_keys = {});
// Reads the top-level keys (section "") from the document's root mapping.
Status ReadTopLevelParams(const Section& root, Scenario* scenario);

// The Markdown key table of one section, as scenarios/README.md holds it between
// "<!-- registry: SECTION -->" and "<!-- /registry -->".
std::string RegistryMarkdownTable(std::string_view section);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_REGISTRY_H_
