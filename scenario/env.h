// The environment variables the simulated torch-rbln process reads, and how the real process
// environment overrides a scenario's env: section (RBLN_PROFILER=1 on the command line turns the
// profiler on, as in the tutorial).
#ifndef RBLNSIM_SCENARIO_ENV_H_
#define RBLNSIM_SCENARIO_ENV_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "scenario/scenario.h"

namespace rblnsim::scenario {

// RBLN_PROFILER, RBLN_PROFILER_DIR, TORCH_RBLN_DEPLOY, RBLN_RUNTIME_FORCE_SYNC,
// TORCH_RBLN_DISABLE_FALLBACK, TORCH_RBLN_COMPILED_OPS, RBLN_FLOAT32_PRECISION,
// TORCH_RBLN_LOG_LEVEL.
const std::vector<std::string_view>& EnvVariableNames();

// The text each variable reads back as, canonical: the same settings give the same text
// (TORCH_RBLN_DISABLE_FALLBACK as its sorted categories joined by ',').
std::string EnvVariableText(std::string_view variable, const EnvConfig& env);

// Sets one variable from its text. RBLN_PROFILER and RBLN_RUNTIME_FORCE_SYNC take 0 or 1;
// TORCH_RBLN_DEPLOY takes ON/OFF, 1/0 or true/false (any case); RBLN_PROFILER_DIR any text;
// TORCH_RBLN_DISABLE_FALLBACK a comma list of categories, parsed as torch-rbln parses it (tokens
// trimmed of spaces and tabs, empty ones ignored, an unknown one refused with torch-rbln's
// message); TORCH_RBLN_COMPILED_OPS an integer >= 1; RBLN_FLOAT32_PRECISION device | exact;
// TORCH_RBLN_LOG_LEVEL DEBUG | INFO | WARNING | ERROR. Errors are "'2' is invalid; expected 0
// or 1" (callers add the variable and the place).
Status SetEnvVariable(std::string_view variable, std::string_view value, EnvConfig* env);

// Applies the process environment on top of the scenario: each of the four variables that
// `getenv` returns non-null and non-empty for overrides the scenario's value. An empty value
// counts as unset, as with `RBLN_PROFILER= cmd`.
Status ApplyProcessEnvironment(Scenario* scenario, std::function<const char*(const char*)> getenv);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_ENV_H_
