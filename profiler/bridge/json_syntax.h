// A strict RFC 8259 syntax check for the raw (unquoted) annotation values a producer hands over.
// They are written into the trace verbatim, so one malformed value would make the whole
// trace.json unreadable; the bridge checks each one and falls back to quoting it.
#ifndef RBLNSIM_PROFILER_BRIDGE_JSON_SYNTAX_H_
#define RBLNSIM_PROFILER_BRIDGE_JSON_SYNTAX_H_

#include <string_view>

namespace rblnsim::bridge {

// True when |text| is exactly one JSON value, optionally surrounded by JSON whitespace. Nesting
// deeper than 64 levels is rejected so hostile input cannot exhaust the stack.
bool IsValidJsonValue(std::string_view text);

}  // namespace rblnsim::bridge

#endif  // RBLNSIM_PROFILER_BRIDGE_JSON_SYNTAX_H_
