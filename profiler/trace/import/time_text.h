// Exact conversion of a trace time, as written in the JSON text, to integer nanoseconds. Kineto
// prints µs with three decimals ("5100000123.456"); going through a double would lose the last
// digit for epoch-sized values, so the digits are shifted as text.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_TIME_TEXT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_TIME_TEXT_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace rblnsim::trace::import {

// Parses a JSON number (optional '-', digits, optional fraction, optional exponent; nothing
// else, no surrounding blanks) and returns value * 10^|ns_exponent| ns, rounded half away from
// zero. |ns_exponent| is 3 when the text is in µs, 0 when it is already ns. nullopt if the text
// is not such a number or the result does not fit in int64.
//
// The importer's form writes the value through |ns| and says whether there is one: returned as
// a std::optional<int64_t>, GCC builds the result on the stack with a one-byte store for the flag
// and reads it back as a word, a store-forwarding stall per time read (perf annotate: most of
// the plain scan's cost of each ts and dur).
bool DecimalTextToNs(std::string_view text, int ns_exponent, int64_t* ns);
inline std::optional<int64_t> DecimalTextToNs(std::string_view text, int ns_exponent) {
  int64_t ns = 0;
  return DecimalTextToNs(text, ns_exponent, &ns) ? std::optional<int64_t>(ns) : std::nullopt;
}

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_TIME_TEXT_H_
