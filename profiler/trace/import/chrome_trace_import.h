// Reads a Chrome trace JSON written by torch.profiler / Kineto (plain or gzip) into the shared
// trace model, accepting the layouts Kineto produced over the years (reference §2, §6 and the
// Appendix). Everything that is not kept as written is counted by reason, so a report can say
// what was dropped or changed (import_report.h).
//
// Memory: the text (inflated, for gzip) is read through a window of a few MB that slides along
// the file; simdjson indexes one event at a time, never the whole document. What stays is the
// model.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_CHROME_TRACE_IMPORT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_CHROME_TRACE_IMPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace {

// An ac2g flow event ("s"/"f") that could not be attached to any X event.
struct OrphanFlow {
  Event flow;  // name and cat "ac2g", pid, tid, ts_ns (absolute), flow_id, flow_role
  uint64_t byte_offset = 0;
  std::string reason;
};

inline constexpr size_t kMaxListedOrphanFlows = 10000;

// An unsupported "ph" value and how many events carried it.
struct PhaseCount {
  std::string ph;  // as written, cut after kMaxPhaseBytes bytes
  int64_t events = 0;
};

inline constexpr size_t kMaxListedPhases = 16;
inline constexpr size_t kMaxPhaseBytes = 16;

// What an import read, kept, dropped and changed. Every element of traceEvents is counted once:
//   events_read = complete_events + begin_end_pairs + instant_events + metadata_events
//               + flow_events + span_events + skipped_events
// (a "B"/"E" pair is two events read and one complete event). import_report.h prints it.
struct ImportResult {
  Trace trace;
  bool was_gzip = false;
  uint64_t input_bytes = 0;  // JSON text size, after decompression

  int64_t events_read = 0;  // elements of traceEvents
  // Of them, read ahead on the second thread (ImportOptions::threads); no report shows it, as
  // results do not depend on it.
  int64_t events_read_ahead = 0;

  // Kept.
  int64_t complete_events = 0;  // complete events in trace.events: "X", and "B"/"E" pairs
  int64_t begin_end_pairs = 0;  // "B"/"E" pairs on one row, kept as one complete event each
  int64_t instant_events = 0;   // "i"/"I" kept in trace.events
  int64_t metadata_events = 0;  // "M" process_*/thread_* turned into rows
  int64_t flow_events = 0;      // ac2g "s"/"f" attached to the X event they are anchored on
  // Kineto's own bookkeeping on pids "Spans", "Traces" and "": the "Trace" span, iteration
  // instants, Record Window End, the Spans sort row. Read for the capture window, not kept.
  int64_t span_events = 0;

  // Dropped, by reason; skipped_events is their sum.
  int64_t skipped_events = 0;
  int64_t non_numeric_pid_events = 0;      // pid neither an integer nor one of Kineto's own rows
  int64_t non_numeric_tid_events = 0;      // tid not an integer (with an integer pid)
  int64_t unknown_phase_events = 0;        // ph other than X, B, E, i, I, M, s, f, t
  std::vector<PhaseCount> unknown_phases;  // by ph: the first kMaxListedPhases distinct values
  int64_t unknown_metadata_events = 0;     // "M" other than process_*/thread_*
  int64_t other_flow_events = 0;           // "s"/"f" of other categories (fwdbwd, ...)
  int64_t flow_step_events = 0;            // "t": Kineto never writes one, the model has no slot
  int64_t orphan_flow_events = 0;          // ac2g "s"/"f" anchored on nothing (see orphan_flows)
  int64_t unmatched_begin_events = 0;      // "B" that no "E" on its row closes
  int64_t unmatched_end_events = 0;        // "E" with no open "B" on its row
  int64_t end_before_begin_events = 0;     // "E" earlier than the "B" it would close

  // Kept, but not as written.
  // A second, different process_name/thread_name for the same row (Kineto's default "GPU n"
  // rows collide with device pids 0-15); the first one is kept.
  int64_t conflicting_rows = 0;
  int64_t quoted_number_events = 0;  // a pid, tid, ts or dur written as a string

  // True when the capture window comes from the "Trace" span or Record Window End; false when
  // it is the min/max of the events.
  bool capture_window_from_trace = false;

  std::vector<OrphanFlow> orphan_flows;  // the first kMaxListedOrphanFlows of them
};

struct ImportOptions {
  // When set, events keep only the args with these keys (callers that read a few args, such as
  // the checks and analyses, need not hold the rest of a large trace's args in memory). Every
  // arg is still validated, and metadata events still read theirs.
  std::optional<std::vector<std::string>> keep_args;
  // How much text each refill of the window reads: large enough that refills are rare and the
  // copy of the event straddling a refill is noise, small next to the model of a large trace.
  // Tests use tiny values so that events, strings and errors fall across refills.
  size_t window_chunk_bytes = size_t{8} << 20;
  // Threads that read events: 1 reads them all on the caller's thread; 2 also reads stretches
  // ahead on a second thread (event_prefetch.h), with the same results and errors; 0 is 2 on a
  // machine with two cores or more, else 1.
  int threads = 0;
  // Plain events (plain_event.h) are read by a direct scan of their bytes; false reads every
  // event with simdjson's On-Demand walk. Both give the same import, errors included: the walk
  // is the reference the tests and the trace_import fuzzer hold the scan to.
  bool plain_scan = true;
};

// Reads |path|; gzip is detected by its magic bytes. Errors are one line:
// "<path>: byte <offset>: <what>", the offset into the decompressed text (into the compressed
// file for damaged gzip).
StatusOr<ImportResult> ImportChromeTrace(const std::string& path);
StatusOr<ImportResult> ImportChromeTrace(const std::string& path, const ImportOptions& options);

// The same for JSON text in memory; |name| stands for the path in errors and is not opened.
StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json, const std::string& name);
StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json,
                                                   const std::string& name,
                                                   const ImportOptions& options);

// One "name: value" line per counter, in the order of ImportResult (import_report.h has the
// one-line notice and the JSON form that commands print).
std::string FormatImportSummary(const ImportResult& result);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_CHROME_TRACE_IMPORT_H_
