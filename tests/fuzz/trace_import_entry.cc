// trace_import_fuzzer: arbitrary bytes as a Chrome trace, imported with and without the plain
// scan, then the imported model written back and imported again.
#include <string>
#include <string_view>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/import_report.h"
#include "profiler/trace/json_writer.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tests/fuzz/json_check.h"

namespace rblnsim::fuzz {

namespace {

constexpr char kBufferName[] = "fuzz.json";

// chrome_trace_import.h: errors are one line, "<name>: byte <offset>: <what>".
std::string CheckImportError(const std::string& message) {
  if (message.find('\n') != std::string::npos)
    return "a multi-line import error: " + message;
  const std::string prefix = std::string(kBufferName) + ": byte ";
  if (!std::string_view(message).starts_with(prefix))
    return "an import error without \"" + prefix + "<offset>\": " + message;
  return "";
}

// The plain scan (plain_event.h) must change nothing: the same trace, counters and errors as
// when every event is read by simdjson's On-Demand walk.
std::string CheckPlainScan(std::string_view json, const StatusOr<trace::ImportResult>& imported) {
  trace::ImportOptions walk_only;
  walk_only.plain_scan = false;
  auto walked = trace::ImportChromeTraceFromBuffer(json, kBufferName, walk_only);
  if (imported.ok() != walked.ok() ||
      (!imported.ok() && imported.status().message() != walked.status().message())) {
    return "the plain scan and the walk disagree: \"" +
           (imported.ok() ? std::string("ok") : imported.status().message()) + "\" against \"" +
           (walked.ok() ? std::string("ok") : walked.status().message()) + "\"";
  }
  if (!imported.ok())
    return "";
  if (trace::FormatImportSummary(*imported) != trace::FormatImportSummary(*walked))
    return "the plain scan and the walk count differently";
  trace::StringSink scanned_text;
  trace::StringSink walked_text;
  if (!trace::WriteChromeTrace(imported->trace, scanned_text).ok() ||
      !trace::WriteChromeTrace(walked->trace, walked_text).ok() ||
      scanned_text.text() != walked_text.text()) {
    return "the plain scan and the walk import different traces";
  }
  return "";
}

}  // namespace

std::string FuzzTraceImport(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto imported = trace::ImportChromeTraceFromBuffer(json, kBufferName);
  if (const std::string broken = CheckPlainScan(json, imported); !broken.empty())
    return broken;
  if (!imported.ok())
    return CheckImportError(imported.status().message());

  const trace::ImportResult& result = *imported;
  // Every kept event is counted as exactly one complete or instant event.
  const auto kept = static_cast<int64_t>(result.trace.events.size());
  if (kept != result.complete_events + result.instant_events) {
    return "trace.events has " + std::to_string(kept) + " events but the counters say " +
           std::to_string(result.complete_events + result.instant_events);
  }
  if (result.events_read < kept)
    return "more events kept than read";
  // Nothing vanishes: every event read is kept, Kineto's bookkeeping, or skipped for a reason.
  const int64_t accounted = result.complete_events + result.begin_end_pairs +
                            result.instant_events + result.metadata_events + result.flow_events +
                            result.span_events + result.skipped_events;
  if (accounted != result.events_read) {
    return std::to_string(result.events_read) + " events read but " + std::to_string(accounted) +
           " accounted for:\n" + trace::FormatImportSummary(result);
  }
  const int64_t by_reason = result.non_numeric_pid_events + result.non_numeric_tid_events +
                            result.unknown_phase_events + result.unknown_metadata_events +
                            result.other_flow_events + result.flow_step_events +
                            result.orphan_flow_events + result.unmatched_begin_events +
                            result.unmatched_end_events + result.end_before_begin_events;
  if (by_reason != result.skipped_events)
    return "skipped_events is not the sum of its reasons:\n" + trace::FormatImportSummary(result);
  // What commands print about the import: one line, and valid JSON.
  const std::string notice = trace::FormatImportNotice(result);
  if (notice.find('\n') != std::string::npos || notice.find('\x1b') != std::string::npos)
    return "the import notice is not one printable line: " + notice;
  if (result.skipped_events > 0 && notice.empty())
    return "events were skipped but the import notice says nothing";
  trace::StringSink report;
  {
    trace::JsonWriter writer(&report);
    trace::WriteImportReportJson(result, writer);
    writer.Finish();
  }
  if (const std::string problem = JsonProblem(report.text()); !problem.empty())
    return "the import report was written as " + problem;
  if (result.orphan_flows.size() > trace::kMaxListedOrphanFlows)
    return "more orphan flows listed than kMaxListedOrphanFlows";

  // Whatever the importer accepted, the writer must turn into valid JSON: names and args carry
  // the input's bytes (escapes, invalid UTF-8, raw JSON args) straight through.
  trace::StringSink sink;
  const Status written = trace::WriteChromeTrace(result.trace, sink);
  if (!written.ok())
    return "the imported trace could not be written: " + written.message();
  const std::string problem = JsonProblem(sink.text());
  if (!problem.empty())
    return "the imported trace was written as " + problem;

  // And what the writer wrote, the importer reads back whole: `rblnsim check` on any trace the
  // tools rewrite.
  auto again = trace::ImportChromeTraceFromBuffer(sink.text(), "rewritten.json");
  if (!again.ok())
    return "the rewritten trace does not import: " + again.status().message();
  if (again->trace.events.size() != result.trace.events.size()) {
    return "the rewritten trace imports with " + std::to_string(again->trace.events.size()) +
           " events instead of " + std::to_string(result.trace.events.size());
  }
  return "";
}

}  // namespace rblnsim::fuzz
