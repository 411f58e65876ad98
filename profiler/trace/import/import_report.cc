#include "profiler/trace/import/import_report.h"

#include <cstdint>
#include <string_view>

namespace rblnsim::trace {

namespace {

// A reason an event was dropped: its JSON key, its words in the notice, its counter.
struct Reason {
  const char* key;
  const char* text;
  int64_t ImportResult::*count;
};

// Unsupported ph values come first, listed by value (they are the common case).
constexpr Reason kSkipReasons[] = {
    {"non_numeric_pid", "non-numeric pid", &ImportResult::non_numeric_pid_events},
    {"non_numeric_tid", "non-numeric tid", &ImportResult::non_numeric_tid_events},
    {"unsupported_metadata", "\"M\" not process_*/thread_*",
     &ImportResult::unknown_metadata_events},
    {"non_ac2g_flow", "flow not ac2g", &ImportResult::other_flow_events},
    {"flow_step", "flow step \"t\"", &ImportResult::flow_step_events},
    {"orphan_flow", "ac2g flow anchored on no event", &ImportResult::orphan_flow_events},
    {"unmatched_begin", "\"B\" without \"E\"", &ImportResult::unmatched_begin_events},
    {"unmatched_end", "\"E\" without \"B\"", &ImportResult::unmatched_end_events},
    {"end_before_begin", "\"E\" before its \"B\"", &ImportResult::end_before_begin_events},
};

constexpr Reason kCoercions[] = {
    {"conflicting_rows", "second process/thread name ignored", &ImportResult::conflicting_rows},
    {"quoted_numbers", "with numbers written as strings", &ImportResult::quoted_number_events},
};

void AppendPart(std::string& parts, int64_t count, std::string_view text) {
  if (!parts.empty())
    parts += ", ";
  parts += std::to_string(count);
  parts += ' ';
  parts += text;
}

}  // namespace

std::string FormatImportNotice(const ImportResult& r, std::string_view input_name) {
  std::string notice = FormatImportNotice(r);
  if (notice.empty())
    return notice;
  std::string name;
  for (char c : input_name) {
    const auto u = static_cast<unsigned char>(c);
    name += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  const std::string_view prefix = "import: ";
  return notice.insert(prefix.size(), name + ": ");
}

std::string FormatImportNotice(const ImportResult& r) {
  std::string skipped;
  int64_t listed_phases = 0;
  for (const PhaseCount& phase : r.unknown_phases) {
    AppendPart(skipped, phase.events, "ph " + JsonQuote(phase.ph) + " unsupported");
    listed_phases += phase.events;
  }
  if (r.unknown_phase_events > listed_phases)
    AppendPart(skipped, r.unknown_phase_events - listed_phases, "with other unsupported ph");
  for (const Reason& reason : kSkipReasons) {
    if (r.*reason.count > 0)
      AppendPart(skipped, r.*reason.count, reason.text);
  }
  std::string coerced;
  if (r.begin_end_pairs > 0)
    AppendPart(coerced, r.begin_end_pairs, "\"B\"/\"E\" pairs read as complete events");
  for (const Reason& reason : kCoercions) {
    if (r.*reason.count > 0)
      AppendPart(coerced, r.*reason.count, reason.text);
  }
  if (skipped.empty() && coerced.empty())
    return "";
  std::string line = "import: " + std::to_string(r.skipped_events) + " events skipped";
  if (!skipped.empty())
    line += " (" + skipped + ")";
  if (!coerced.empty())
    line += "; " + coerced;
  return line;
}

void WriteImportReportJson(const ImportResult& r, JsonWriter& json) {
  json.BeginObject();
  json.Key("events_read").Int(r.events_read);
  json.Key("complete_events").Int(r.complete_events);
  json.Key("begin_end_pairs").Int(r.begin_end_pairs);
  json.Key("instant_events").Int(r.instant_events);
  json.Key("metadata_events").Int(r.metadata_events);
  json.Key("flow_events").Int(r.flow_events);
  json.Key("span_events").Int(r.span_events);
  json.Key("skipped_events").Int(r.skipped_events);
  json.Key("skipped").BeginObject();
  for (const Reason& reason : kSkipReasons)
    json.Key(reason.key).Int(r.*reason.count);
  json.Key("unsupported_ph").BeginObject();
  int64_t listed_phases = 0;
  for (const PhaseCount& phase : r.unknown_phases) {
    json.Key(phase.ph).Int(phase.events);
    listed_phases += phase.events;
  }
  json.EndObject();
  // Events whose ph is past the kMaxListedPhases distinct values listed.
  json.Key("unsupported_ph_unlisted").Int(r.unknown_phase_events - listed_phases);
  json.EndObject();
  json.Key("coerced").BeginObject();
  for (const Reason& reason : kCoercions)
    json.Key(reason.key).Int(r.*reason.count);
  json.EndObject();
  json.EndObject();
}

}  // namespace rblnsim::trace
