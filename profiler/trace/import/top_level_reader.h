// The importer's walk over a Chrome trace's text: the top-level object (or bare array), its
// members, and the traceEvents array, whose elements go one at a time through simdjson
// (event_reader.h) into the model (trace_assembler.h). The text comes through a sliding window
// (text_window.h), so memory stays proportional to the model, not to the input.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_TOP_LEVEL_READER_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_TOP_LEVEL_READER_H_

#include "base/status.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/text_window.h"

namespace rblnsim::trace::import {

// Reads the whole text of |window| into |result|. Errors are "byte <offset>: <what>", offsets
// into the (decompressed) text, or the source's own error (a mapped file that shrank while it
// was read among them); the caller adds the path.
Status ReadChromeTrace(TextWindow* window, const ImportOptions& options, ImportResult* result);

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_TOP_LEVEL_READER_H_
