// Reads a Chrome trace JSON written by torch.profiler / Kineto (plain or gzip) into the shared
// trace model, accepting the layouts Kineto produced over the years (reference §2, §6 and the
// Appendix). Everything that is not kept is counted, so a report can say what was dropped.
//
// Memory: the input is held once (decompressed) while importing and released on return; simdjson
// indexes one event at a time, never the whole document.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_CHROME_TRACE_IMPORT_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_CHROME_TRACE_IMPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/base/status.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace {

// An ac2g flow event ("s"/"f") that could not be attached to any X event.
struct OrphanFlow {
  Event flow;  // name and cat "ac2g", pid, tid, ts_ns (absolute), flow_id, flow_role
  uint64_t byte_offset = 0;
  std::string reason;
};

inline constexpr size_t kMaxListedOrphanFlows = 10000;

struct ImportResult {
  Trace trace;
  bool was_gzip = false;
  uint64_t input_bytes = 0;  // JSON text size, after decompression

  int64_t events_read = 0;         // elements of traceEvents
  int64_t complete_events = 0;     // "X" kept in trace.events
  int64_t instant_events = 0;      // "i"/"I" kept in trace.events
  int64_t metadata_events = 0;     // "M" process_*/thread_* turned into rows
  int64_t flow_events = 0;         // ac2g "s"/"f" attached to the X event they are anchored on
  int64_t orphan_flow_events = 0;  // ac2g "s"/"f" anchored on nothing (see orphan_flows)
  int64_t other_flow_events = 0;   // flows of other categories (fwdbwd, ...): dropped
  // Kineto's own bookkeeping on pids "Spans", "Traces" and "": the "Trace" span, iteration
  // instants, Record Window End, the Spans sort row. Read for the capture window, not kept.
  int64_t span_events = 0;
  int64_t skipped_events = 0;        // other events whose pid (or tid) is not an integer: dropped
  int64_t unknown_phase_events = 0;  // ph other than X, i, I, M, s, f, t: dropped
  int64_t unknown_metadata_events = 0;  // "M" other than process_*/thread_*: dropped
  // A second, different process_name/thread_name for the same row (Kineto's default "GPU n"
  // rows collide with device pids 0-15); the first one is kept.
  int64_t conflicting_rows = 0;
  // True when the capture window comes from the "Trace" span or Record Window End; false when
  // it is the min/max of the events.
  bool capture_window_from_trace = false;

  std::vector<OrphanFlow> orphan_flows;  // the first kMaxListedOrphanFlows of them
};

// Reads |path|; gzip is detected by its magic bytes. Errors are one line:
// "<path>: byte <offset>: <what>", the offset into the decompressed text (into the compressed
// file for damaged gzip).
StatusOr<ImportResult> ImportChromeTrace(const std::string& path);

// The same for JSON text in memory; |name| stands for the path in errors and is not opened.
StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json, const std::string& name);

// One "name: value" line per counter, in the order of ImportResult.
std::string FormatImportSummary(const ImportResult& result);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_CHROME_TRACE_IMPORT_H_
