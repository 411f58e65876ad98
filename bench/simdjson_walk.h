// The importer's anchor: a bare simdjson On-Demand walk over a trace file, touching every field of
// every event and every value inside them (strings unescaped, numbers parsed), building nothing.
// Loading the file is part of the walk, as reading it is part of an import. What the importer
// does beyond this walk (errors with byte offsets, duplicate keys, rows, flows, the model) is its
// own cost; bench/RESULTS.md judges the ratio of the two.
#ifndef RBLNSIM_BENCH_SIMDJSON_WALK_H_
#define RBLNSIM_BENCH_SIMDJSON_WALK_H_

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>

namespace rblnsim::bench {

struct WalkResult {
  int64_t events = 0;
  uint64_t checksum = 0;  // of what was read, so nothing is optimised away
};

// nullopt when the file cannot be loaded or is no trace (a traceEvents array of values).
std::optional<WalkResult> WalkTraceFile(const std::string& path,
                                        simdjson::ondemand::parser* parser);

}  // namespace rblnsim::bench

#endif  // RBLNSIM_BENCH_SIMDJSON_WALK_H_
