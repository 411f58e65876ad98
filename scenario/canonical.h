// A canonical text form of a resolved Scenario and a stable hash of it. Sweep points are
// identified by this hash, so it must depend only on the configuration: every field, in a fixed
// order, with fixed number formatting, and nothing about where it was loaded from (source_path
// and SourceLocs are left out). The text is itself a valid scenario: loading it gives back an
// equal Scenario. Defaults derived from other keys (ATOM's array size, a fetch batch clamped to a
// small queue) are written out explicitly, so they no longer follow those keys when reloaded.
#ifndef RBLNSIM_SCENARIO_CANONICAL_H_
#define RBLNSIM_SCENARIO_CANONICAL_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "scenario/scenario.h"

namespace rblnsim::scenario {

std::string CanonicalYaml(const Scenario& scenario);

// The canonical text in parts, one per top-level section, in the order CanonicalYaml writes them
// (it is their concatenation). The header holds scenario, description and seed; expect and sweep
// share the last part.
enum class ScenarioPart { kHeader, kDevice, kHost, kEnv, kWorkload, kNaming, kExpectAndSweep };
inline constexpr ScenarioPart kScenarioParts[] = {
    ScenarioPart::kHeader,        ScenarioPart::kDevice,   ScenarioPart::kHost,
    ScenarioPart::kEnv,           ScenarioPart::kWorkload, ScenarioPart::kNaming,
    ScenarioPart::kExpectAndSweep};
inline constexpr size_t kScenarioPartCount = std::size(kScenarioParts);

std::string CanonicalPart(const Scenario& scenario, ScenarioPart part);
// The part a dotted key path belongs to ("device.queue.depth" -> kDevice); nullopt if unknown.
std::optional<ScenarioPart> PartOfKey(std::string_view key_path);

// 64-bit FNV-1a.
uint64_t Fnv1a64(std::string_view bytes);

// Fnv1a64 of each canonical part. Kept by callers that hash many scenarios differing in a few
// parts (sweep points), so each one costs the parts that changed, not the whole document.
struct ScenarioDigest {
  std::array<uint64_t, kScenarioPartCount> parts{};
};
ScenarioDigest DigestScenario(const Scenario& scenario);
void UpdateDigest(const Scenario& scenario, ScenarioPart part, ScenarioDigest* digest);
// 16 lowercase hex digits: the FNV-1a of the part hashes.
std::string DigestHash(const ScenarioDigest& digest);

// DigestHash(DigestScenario(scenario)): equal for scenarios with equal canonical text.
std::string ScenarioHash(const Scenario& scenario);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_CANONICAL_H_
