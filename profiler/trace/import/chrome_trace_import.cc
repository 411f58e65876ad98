#include "profiler/trace/import/chrome_trace_import.h"

#include <memory>
#include <new>
#include <utility>

#include "profiler/trace/import/text_source.h"
#include "profiler/trace/import/text_window.h"
#include "profiler/trace/import/top_level_reader.h"

namespace rblnsim::trace {

namespace {

using import::TextWindow;

StatusOr<ImportResult> ImportText(std::unique_ptr<import::TextSource> source,
                                  const std::string& name,
                                  const ImportOptions& options) {
  TextWindow window(std::move(source), options.window_chunk_bytes);
  ImportResult result;
  result.was_gzip = window.was_gzip();
  Status status = import::ReadChromeTrace(&window, options, &result);
  if (!status.ok()) {
    // Damage in a gzip file is what to report, not what it did to the text (a whole-file
    // inflate would have failed before parsing began).
    if (window.was_gzip() && !window.at_eof()) {
      Status drained = window.Drain();
      if (!drained.ok())
        return drained.WithPrefix(name + ": ");
    }
    return status.WithPrefix(name + ": ");
  }
  return result;
}

}  // namespace

StatusOr<ImportResult> ImportChromeTrace(const std::string& path) {
  return ImportChromeTrace(path, ImportOptions());
}

StatusOr<ImportResult> ImportChromeTrace(const std::string& path, const ImportOptions& options) {
  RBLNSIM_ASSIGN_OR_RETURN(std::unique_ptr<import::TextSource> source,
                           import::OpenTextSource(path));
  // The trace model grows with the file; when the machine cannot hold it, that is a limit of
  // the machine, reported as one, not as a crash or a claim that the file is broken.
  try {
    return ImportText(std::move(source), path, options);
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted(
        path +
        ": out of memory while importing (the trace needs more memory than "
        "this process may use)");
  }
}

StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json, const std::string& name) {
  return ImportChromeTraceFromBuffer(json, name, ImportOptions());
}

StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json,
                                                   const std::string& name,
                                                   const ImportOptions& options) {
  return ImportText(import::TextSourceFromMemory(json), name, options);
}

std::string FormatImportSummary(const ImportResult& r) {
  const std::pair<const char*, int64_t> counters[] = {
      {"input_bytes", static_cast<int64_t>(r.input_bytes)},
      {"events_read", r.events_read},
      {"complete_events", r.complete_events},
      {"begin_end_pairs", r.begin_end_pairs},
      {"instant_events", r.instant_events},
      {"metadata_events", r.metadata_events},
      {"flow_events", r.flow_events},
      {"span_events", r.span_events},
      {"skipped_events", r.skipped_events},
      {"non_numeric_pid_events", r.non_numeric_pid_events},
      {"non_numeric_tid_events", r.non_numeric_tid_events},
      {"unknown_phase_events", r.unknown_phase_events},
      {"unknown_metadata_events", r.unknown_metadata_events},
      {"other_flow_events", r.other_flow_events},
      {"flow_step_events", r.flow_step_events},
      {"orphan_flow_events", r.orphan_flow_events},
      {"unmatched_begin_events", r.unmatched_begin_events},
      {"unmatched_end_events", r.unmatched_end_events},
      {"end_before_begin_events", r.end_before_begin_events},
      {"conflicting_rows", r.conflicting_rows},
      {"quoted_number_events", r.quoted_number_events},
  };
  std::string out;
  out += std::string("gzip: ") + (r.was_gzip ? "yes" : "no") + "\n";
  for (const auto& [name, value] : counters) {
    out += std::string(name) + ": " + std::to_string(value) + "\n";
  }
  out += std::string("capture_window: ") +
         (r.capture_window_from_trace ? "from the Trace span" : "from the events") + "\n";
  return out;
}

}  // namespace rblnsim::trace
