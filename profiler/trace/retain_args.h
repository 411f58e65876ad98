// Letting go of the args a trace's readers do not need. A simulated run holds its whole trace
// while the reports read it, and most of the args' bytes (a device slice's device, stream,
// correlation and categories; a host op's shapes and types) are read by nothing but the writer.
// Once the file is written, the run keeps what `rblnsim analyze` would import from it
// (analysis::KeptArgKeys and the table's keys), so both read the same events.
#ifndef RBLNSIM_PROFILER_TRACE_RETAIN_ARGS_H_
#define RBLNSIM_PROFILER_TRACE_RETAIN_ARGS_H_

#include <cstdint>
#include <span>
#include <string>

#include "profiler/trace/trace.h"

namespace rblnsim::trace {

struct RetainedArgs {
  uint64_t events_changed = 0;  // events that lost at least one arg
  uint64_t args_dropped = 0;
};

// Keeps only the args whose key is one of |keys|, in their order; the rest go. Every kept block
// moves to one new pool, and the trace's former pools are released with the blocks they held.
RetainedArgs RetainOnlyArgs(std::span<const std::string> keys, Trace* trace);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_RETAIN_ARGS_H_
