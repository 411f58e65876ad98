// Writes a Trace as the Chrome trace JSON that torch.profiler's export_chrome_trace() produces
// through Kineto (reference §2): same top-level key order, same metadata rows, flow events right
// after the event they are anchored on, Kineto's closing span and instants, and every ts/dur as
// µs with three decimals relative to baseTimeNanoseconds.
//
// Layout: one top-level member per line and one trace event per line (compact inside), so files
// stay diffable without Kineto's multi-line event bodies.
#ifndef RBLNSIM_PROFILER_TRACE_CHROME_TRACE_WRITER_H_
#define RBLNSIM_PROFILER_TRACE_CHROME_TRACE_WRITER_H_

#include <string>

#include "base/status.h"
#include "profiler/trace/json_writer.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace {

// Streams the document into |sink| and returns the sink's status.
Status WriteChromeTrace(const Trace& trace, OutputSink& sink);

// Replaces |path| atomically (atomic_file.h): on failure the old file is untouched. If
// trace.trace_name is empty, traceName is |path|, as Kineto does.
Status WriteChromeTrace(const Trace& trace, const std::string& path);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_CHROME_TRACE_WRITER_H_
