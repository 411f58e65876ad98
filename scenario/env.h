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

// RBLN_PROFILER, RBLN_PROFILER_DIR, TORCH_RBLN_DEPLOY, RBLN_RUNTIME_FORCE_SYNC.
const std::vector<std::string_view>& EnvVariableNames();

// Sets one variable from its text. RBLN_PROFILER and RBLN_RUNTIME_FORCE_SYNC take 0 or 1;
// TORCH_RBLN_DEPLOY takes ON/OFF, 1/0 or true/false (any case); RBLN_PROFILER_DIR any text.
// Errors are "'2' is invalid; expected 0 or 1" (callers add the variable and the place).
Status SetEnvVariable(std::string_view variable, std::string_view value, EnvConfig* env);

// Applies the process environment on top of the scenario: each of the four variables that
// `getenv` returns non-null and non-empty for overrides the scenario's value. An empty value
// counts as unset, as with `RBLN_PROFILER= cmd`.
Status ApplyProcessEnvironment(Scenario* scenario, std::function<const char*(const char*)> getenv);

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_ENV_H_
