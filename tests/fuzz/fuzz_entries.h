// The bodies of the libFuzzer targets, as plain functions. The fuzzers call them from
// LLVMFuzzerTestOneInput (fuzzer_main.cc); the gtest in tests/unit/fuzz_regressions replays every
// committed crash input and corpus file through the very same functions in the normal and asan
// builds, so a fixed crash stays fixed without clang or libFuzzer.
//
// Each returns "" when the input was handled within the documented contract and otherwise one
// line saying which contract broke (a crash, of course, is reported by the sanitizers instead).
#ifndef RBLNSIM_TESTS_FUZZ_FUZZ_ENTRIES_H_
#define RBLNSIM_TESTS_FUZZ_FUZZ_ENTRIES_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace rblnsim::fuzz {

// The input is scenario YAML, optionally followed by the line "#--set" and one --set override per
// line (at most kMaxFuzzSets). Checks that an error is one non-empty line naming its source, and
// that a loaded scenario's canonical text loads again to the same hash (canonical.h promises it).
std::string FuzzScenarioLoader(const uint8_t* data, size_t size);
inline constexpr size_t kMaxFuzzSets = 8;
inline constexpr char kFuzzSetMarker[] = "\n#--set\n";

// The input is Chrome trace JSON. Checks that an error is one line starting with the buffer's
// name, that the counters match the kept events, and that an imported trace written back by the
// Chrome trace writer is valid JSON which imports again with the same events.
std::string FuzzTraceImport(const uint8_t* data, size_t size);

// The input describes a producer session (see kineto_export_decoder.h for the byte layout): the
// clocks, the sink behaviour, and an RblnKinetoExport with arbitrary rows, slices, strings and
// counts. It drives RblnBridge through a fake KinetoApi whose end_session hands that export to
// the sink, then writes the result as a trace. Checks the bridge's counters add up and the trace
// is valid JSON that rblnsim's importer reads.
std::string FuzzKinetoConsumer(const uint8_t* data, size_t size);

// The input is a captured trace (Chrome trace JSON) as `rblnsim compare` and `calibrate` read a
// card's trace. Checks that digest errors are one line and that a trace compared with itself
// shows no difference, leaves nothing unmatched and has a fit error of zero.
std::string FuzzCaptureCompare(const uint8_t* data, size_t size);

// The input is a command line, arguments separated by NUL bytes (at most kMaxFuzzArgs), parsed
// with every subcommand's flags as main() declares them. Checks that a parse error stays one
// line once printed, that an accepted command line has exactly one subcommand, and that accepted
// values keep the validators' promises (--seed not clamped, a finite --tolerance).
std::string FuzzCliFlags(const uint8_t* data, size_t size);
inline constexpr size_t kMaxFuzzArgs = 64;

}  // namespace rblnsim::fuzz

#endif  // RBLNSIM_TESTS_FUZZ_FUZZ_ENTRIES_H_
