// The parameter registry (scenario/registry.h) as `rblnsim describe` prints it: each key's value
// in a resolved scenario, and the registry itself for `describe --parameters`, as JSON or as the
// Markdown tables scenarios/README.md holds.
#ifndef RBLNSIM_TOOLS_RBLNSIM_DESCRIBE_DESCRIBE_PARAMETERS_H_
#define RBLNSIM_TOOLS_RBLNSIM_DESCRIBE_DESCRIBE_PARAMETERS_H_

#include <string>

#include "profiler/trace/json_writer.h"
#include "scenario/scenario.h"

namespace rblnsim::cli {

// The "format" of `describe --parameters --json`. 2: the kinds choice_list, name and unsigned
// (the top-level keys, workload.activities).
inline constexpr char kParametersFormat[] = "rblnsim-parameters/2";

// An object of every registry key's value in `scenario`, in its stored unit (numbers; strings
// for text, choices and variables; objects for the op maps; null for an unset expect key).
void WriteParameterValues(trace::JsonWriter& json, const scenario::Scenario& scenario);

// The registry: path, field, kind, unit, range, choices, default and help of every key.
std::string DescribeParametersJson();

// Every section's key table, each between the "<!-- registry: SECTION -->" and
// "<!-- /registry -->" lines that mark it in scenarios/README.md.
std::string DescribeParametersMarkdown();

}  // namespace rblnsim::cli

#endif  // RBLNSIM_TOOLS_RBLNSIM_DESCRIBE_DESCRIBE_PARAMETERS_H_
