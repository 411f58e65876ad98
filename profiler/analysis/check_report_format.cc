// Text and JSON renderings of a CheckReport.
#include <string>

#include "profiler/analysis/contract_checks.h"
#include "profiler/trace/json_writer.h"

namespace rblnsim::analysis {

namespace {

constexpr size_t kTextExamples = 5;

// Event names come from the trace; a control character must not break the one-line layout.
std::string Printable(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      c = '?';
  }
  return out;
}

std::string OffenderLine(const Offender& o, int64_t base_time_ns) {
  if (!o.has_event)
    return Printable(o.detail);
  std::string line = Printable(o.cat) + " \"" + Printable(o.name) + "\" pid " +
                     std::to_string(o.pid) + " tid " + std::to_string(o.tid) + " ts " +
                     trace::FormatNsAsUs(o.ts_ns - base_time_ns) + "us";
  if (o.launch_id)
    line += " launch_id " + std::to_string(*o.launch_id);
  return line + ": " + Printable(o.detail);
}

const char* Status(const RuleResult& rule) {
  if (rule.skipped)
    return "skip";
  if (!rule.passed)
    return "fail";
  return rule.not_applicable.empty() ? "pass" : "n/a";
}

}  // namespace

std::string FormatCheckReportText(const CheckReport& report) {
  std::string out;
  size_t failed = 0;
  size_t skipped = 0;
  size_t vacuous = 0;
  for (const RuleResult& rule : report.rules) {
    if (rule.skipped) {
      ++skipped;
      out += "SKIP " + rule.id + ": " + rule.description + " (checked only with sync)\n";
      continue;
    }
    if (rule.passed && !rule.not_applicable.empty()) {
      ++vacuous;
      out += "N/A " + rule.id + ": " + rule.description +
             " (n/a: " + Printable(rule.not_applicable) + ")\n";
      continue;
    }
    if (rule.passed) {
      out += "PASS " + rule.id + ": " + rule.description + "\n";
      continue;
    }
    ++failed;
    out += "FAIL " + rule.id + ": " + rule.description + " (" +
           std::to_string(rule.violation_count) +
           (rule.violation_count == 1 ? " violation)\n" : " violations)\n");
    size_t shown = 0;
    for (; shown < rule.examples.size() && shown < kTextExamples; ++shown) {
      out += "    " + OffenderLine(rule.examples[shown], report.base_time_ns) + "\n";
    }
    if (rule.violation_count > static_cast<int64_t>(shown)) {
      out += "    ... and " + std::to_string(rule.violation_count - shown) + " more\n";
    }
  }
  const size_t checked = report.rules.size() - skipped - vacuous;
  if (report.passed) {
    out += "overall: PASS (" + std::to_string(checked) + " rules checked";
  } else {
    out += "overall: FAIL (" + std::to_string(failed) + " of " + std::to_string(checked) +
           " rules failed";
  }
  if (vacuous > 0)
    out += ", " + std::to_string(vacuous) + " n/a";
  return out + (skipped > 0 ? ", " + std::to_string(skipped) + " skipped)\n" : ")\n");
}

std::string FormatCheckReportJson(const CheckReport& report,
                                  const std::function<void(trace::JsonWriter&)>& extra) {
  trace::StringSink sink;
  trace::JsonWriter json(&sink, /*line_break_depth=*/2);
  json.BeginObject();
  json.Key("passed").Bool(report.passed);
  json.Key("sync").Bool(report.sync);
  json.Key("contract").String(trace::DialectName(report.contract));
  json.Key("rules").BeginArray();
  for (const RuleResult& rule : report.rules) {
    json.BeginObject();
    json.Key("id").String(rule.id);
    json.Key("description").String(rule.description);
    json.Key("status").String(Status(rule));
    if (rule.passed && !rule.not_applicable.empty())
      json.Key("reason").String(rule.not_applicable);
    json.Key("violation_count").Int(rule.violation_count);
    json.Key("examples").BeginArray();
    for (const Offender& o : rule.examples) {
      json.BeginObject();
      if (!o.has_event) {
        json.Key("detail").String(o.detail);
        json.EndObject();
        continue;
      }
      json.Key("name").String(o.name).Key("cat").String(o.cat);
      json.Key("pid").Int(o.pid).Key("tid").Int(o.tid).Key("ts_ns").Int(o.ts_ns);
      json.Key("launch_id");
      if (o.launch_id) {
        json.Int(*o.launch_id);
      } else {
        json.Null();
      }
      json.Key("detail").String(o.detail);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  if (extra)
    extra(json);
  json.EndObject();
  json.Finish();
  return sink.text();
}

}  // namespace rblnsim::analysis
