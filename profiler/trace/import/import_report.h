// What every command that reads a trace says about the import: one line for stderr naming each
// reason events were dropped or changed, and the same counts as a JSON object for the command's
// JSON output. Nothing an import drops goes unreported (ImportResult counts it by reason).
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_IMPORT_REPORT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_IMPORT_REPORT_H_

#include <string>
#include <string_view>

#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::trace {

// One line, no newline, e.g.
//   import: 3 events skipped (2 ph "C" unsupported, 1 non-numeric tid)
//   import: 0 events skipped; 2 "B"/"E" pairs read as complete events
// Empty when every event was kept as written (Kineto's own bookkeeping events aside).
// Values from the file (ph) are quoted and escaped, so the line stays one printable line.
std::string FormatImportNotice(const ImportResult& result);
// The same naming the input, for commands that read several traces:
//   import: capture.json.gz: 3 events skipped (...)
// Control bytes in |input_name| are shown as '?', so the line stays one printable line.
std::string FormatImportNotice(const ImportResult& result, std::string_view input_name);

// The counts as one JSON value, written where the caller's writer stands (after a Key, or as
// an array element):
//   {"events_read":N,"complete_events":N,"begin_end_pairs":N,"instant_events":N,
//    "metadata_events":N,"flow_events":N,"span_events":N,"skipped_events":N,
//    "skipped":{"non_numeric_pid":N,"non_numeric_tid":N,"unsupported_metadata":N,
//               "non_ac2g_flow":N,"flow_step":N,"orphan_flow":N,"unmatched_begin":N,
//               "unmatched_end":N,"end_before_begin":N,"unsupported_ph":{"C":N,...},
//               "unsupported_ph_unlisted":N},
//    "coerced":{"conflicting_rows":N,"quoted_numbers":N}}
// Every key is always written, with 0 when nothing happened; "unsupported_ph" names the first
// kMaxListedPhases distinct values, "unsupported_ph_unlisted" counts the events past them.
void WriteImportReportJson(const ImportResult& result, JsonWriter& json);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_IMPORT_REPORT_H_
