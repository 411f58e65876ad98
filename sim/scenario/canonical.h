// A canonical text form of a resolved Scenario and a stable hash of it. Sweep points are
// identified by this hash, so it must depend only on the configuration: every field, in a fixed
// order, with fixed number formatting, and nothing about where it was loaded from (source_path
// and SourceLocs are left out). The text is itself a valid scenario: loading it gives back an
// equal Scenario. Defaults derived from other keys (ATOM's array size, a fetch batch clamped to a
// small queue) are written out explicitly, so they no longer follow those keys when reloaded.
#ifndef RBLNSIM_SIM_SCENARIO_CANONICAL_H_
#define RBLNSIM_SIM_SCENARIO_CANONICAL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/scenario/scenario.h"

namespace rblnsim::scenario {

std::string CanonicalYaml(const Scenario& scenario);

// 64-bit FNV-1a.
uint64_t Fnv1a64(std::string_view bytes);

// Fnv1a64(CanonicalYaml(scenario)) as 16 lowercase hex digits.
std::string ScenarioHash(const Scenario& scenario);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SIM_SCENARIO_CANONICAL_H_
