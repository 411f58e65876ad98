#include "profiler/trace/chrome_trace_writer.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "profiler/trace/atomic_file.h"

namespace rblnsim::trace {

// Named rather than anonymous: ChromeTraceStream::State holds a TraceEventWriter.
namespace chrome_trace_writer_internal {

// Kineto's sort index for the "Spans" process (0x20000000).
constexpr int64_t kSpansSortIndex = 536870912;

// Keys the writer emits itself; a metadata pair with one of these names would duplicate them.
bool IsReservedKey(std::string_view key) {
  return key == "schemaVersion" || key == "deviceProperties" || key == "displayTimeUnit" ||
         key == "baseTimeNanoseconds" || key == "traceEvents" || key == "traceName";
}

// Kineto writes its logged warnings after traceEvents (reference, Appendix).
bool IsTrailingKey(std::string_view key) {
  return key == "WARNING";
}

// Raw JSON must never leave the document unparsable; an empty text has no value at all.
std::string_view RawOrNull(const RawJsonView& raw) {
  return raw.text.empty() ? std::string_view("null") : raw.text;
}

class TraceEventWriter {
 public:
  TraceEventWriter(const Trace& trace, JsonWriter* json) : trace_(trace), json_(*json) {}

  void WriteRows() {
    for (const ProcessRow& row : trace_.processes)
      WriteProcessRow(row);
    for (const ThreadRow& row : trace_.threads)
      WriteThreadRow(row);
  }

  void WriteEvents(std::span<const Event> events) {
    for (const Event& event : events) {
      WriteEvent(event);
      if (event.flow_role != FlowRole::kNone)
        WriteFlow(event);
    }
  }

  // What Kineto appends after the activities: the profiler's own span, the Spans sort row, the
  // iteration marker and the end of the recording window.
  void WriteClosingEvents() {
    const int64_t start = Relative(trace_.capture_start_ns);
    json_.BeginObject();
    json_.Key("ph").String("X").Key("cat").String("Trace");
    json_.Key("ts").UsFromNs(start);
    json_.Key("dur").UsFromNs(
        std::max<int64_t>(trace_.capture_end_ns - trace_.capture_start_ns, 0));
    json_.Key("pid").String("Spans").Key("tid").String("PyTorch Profiler");
    json_.Key("name").String("PyTorch Profiler (0)");
    json_.Key("args").BeginObject().Key("Op count").Int(0).EndObject();
    json_.EndObject();

    BeginMetadataEvent("process_sort_index");
    json_.Key("pid").String("Spans").Key("tid").Int(0);
    json_.Key("args").BeginObject().Key("sort_index").Int(kSpansSortIndex).EndObject();
    json_.EndObject();

    json_.BeginObject();
    json_.Key("name").String("Iteration Start: PyTorch Profiler");
    json_.Key("ph").String("i").Key("s").String("g");
    json_.Key("pid").String("Traces").Key("tid").String("Trace PyTorch Profiler");
    json_.Key("ts").UsFromNs(start);
    json_.EndObject();

    json_.BeginObject();
    json_.Key("name").String("Record Window End");
    json_.Key("ph").String("i").Key("s").String("g");
    json_.Key("pid").String("").Key("tid").String("");
    json_.Key("ts").UsFromNs(Relative(trace_.capture_end_ns));
    json_.EndObject();
  }

 private:
  // Kineto's transToRelativeTime clamps at zero: a slightly early event must not turn into a
  // negative ts that some JSON consumers reject.
  // ns - base, without overflow for timestamps far from the base (saturates at the int64 range).
  int64_t Offset(int64_t ns) const {
    const __int128 d = static_cast<__int128>(ns) - trace_.base_time_ns;
    if (d > std::numeric_limits<int64_t>::max())
      return std::numeric_limits<int64_t>::max();
    if (d < std::numeric_limits<int64_t>::min())
      return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  }
  int64_t Relative(int64_t ns) const { return std::max<int64_t>(Offset(ns), 0); }

  void BeginMetadataEvent(std::string_view name) {
    json_.BeginObject();
    json_.Key("name").String(name);
    json_.Key("ph").String("M");
    json_.Key("ts").UsFromNs(Relative(trace_.capture_start_ns));
  }

  void WriteProcessRow(const ProcessRow& row) {
    BeginMetadataEvent("process_name");
    json_.Key("pid").Int(row.pid).Key("tid").Int(0);
    json_.Key("args").BeginObject().Key("name").String(row.name).EndObject().EndObject();
    BeginMetadataEvent("process_labels");
    json_.Key("pid").Int(row.pid).Key("tid").Int(0);
    json_.Key("args").BeginObject().Key("labels").String(row.labels).EndObject().EndObject();
    BeginMetadataEvent("process_sort_index");
    json_.Key("pid").Int(row.pid).Key("tid").Int(0);
    json_.Key("args").BeginObject().Key("sort_index").Int(row.sort_index).EndObject().EndObject();
  }

  void WriteThreadRow(const ThreadRow& row) {
    BeginMetadataEvent("thread_name");
    json_.Key("pid").Int(row.pid).Key("tid").Int(row.tid);
    json_.Key("args").BeginObject().Key("name").String(row.name).EndObject().EndObject();
    BeginMetadataEvent("thread_sort_index");
    json_.Key("pid").Int(row.pid).Key("tid").Int(row.tid);
    json_.Key("args").BeginObject().Key("sort_index").Int(row.sort_index).EndObject().EndObject();
  }

  void WriteArgValue(const ArgValueView& value) {
    std::visit(
        [this](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, int64_t>) {
            json_.Int(v);
          } else if constexpr (std::is_same_v<T, double>) {
            json_.Double(v);
          } else if constexpr (std::is_same_v<T, bool>) {
            json_.Bool(v);
          } else if constexpr (std::is_same_v<T, std::string_view>) {
            json_.String(v);
          } else {
            json_.Raw(RawOrNull(v));
          }
        },
        value);
  }

  void WriteArgs(const Event& event) {
    if (event.args.empty())
      return;  // Kineto omits an empty "args"
    json_.Key("args").BeginObject();
    for (const ArgView arg : event.args) {
      json_.Key(arg.key);
      WriteArgValue(arg.value);
    }
    json_.EndObject();
  }

  void WriteEvent(const Event& event) {
    json_.BeginObject();
    if (event.phase == Phase::kInstant) {
      json_.Key("ph").String("i").Key("cat").String(event.cat()).Key("s").String("t");
      json_.Key("name").String(event.name);
      json_.Key("pid").Int(event.pid).Key("tid").Int(event.tid);
      json_.Key("ts").UsFromNs(Relative(event.ts_ns));
    } else {
      json_.Key("ph").String("X").Key("cat").String(event.cat());
      json_.Key("name").String(event.name);
      json_.Key("pid").Int(event.pid).Key("tid").Int(event.tid);
      json_.Key("ts").UsFromNs(Relative(event.ts_ns));
      // Kineto clamps a start before the base to 0 and keeps the duration; the duration is only
      // capped so that base + ts + dur stays representable for whoever reads the file back.
      int64_t dur = std::max<int64_t>(event.dur_ns, 0);
      const __int128 room = static_cast<__int128>(std::numeric_limits<int64_t>::max()) -
                            trace_.base_time_ns - Relative(event.ts_ns);
      if (room < dur)
        dur = room < 0 ? 0 : static_cast<int64_t>(room);
      json_.Key("dur").UsFromNs(dur);
    }
    WriteArgs(event);
    json_.EndObject();
  }

  void WriteFlow(const Event& event) {
    const bool is_start = event.flow_role == FlowRole::kStart;
    json_.BeginObject();
    json_.Key("ph").String(std::string_view(is_start ? "s" : "f")).Key("id").Uint(event.flow_id);
    json_.Key("pid").Int(event.pid).Key("tid").Int(event.tid);
    json_.Key("ts").UsFromNs(Relative(event.ts_ns));
    json_.Key("cat").String("ac2g").Key("name").String("ac2g");
    if (!is_start)
      json_.Key("bp").String("e");
    json_.EndObject();
  }

  const Trace& trace_;
  JsonWriter& json_;
};

void WriteMetadataPairs(const Trace& trace,
                        bool trailing,
                        std::set<std::string_view>* written,
                        JsonWriter* json) {
  for (const auto& [key, value] : trace.metadata) {
    if (IsReservedKey(key) || IsTrailingKey(key) != trailing)
      continue;
    if (!written->insert(key).second)
      continue;  // keep the document free of duplicate keys
    json->Key(key).Raw(RawOrNull(RawJsonView{value.text}));
  }
}

Status WriteDocument(const Trace& trace, std::string_view trace_name, OutputSink& sink) {
  ChromeTraceStream stream(trace, trace_name, &sink);
  stream.Add(trace.events);
  return stream.Finish();
}

}  // namespace chrome_trace_writer_internal

using chrome_trace_writer_internal::RawOrNull;
using chrome_trace_writer_internal::TraceEventWriter;
using chrome_trace_writer_internal::WriteDocument;
using chrome_trace_writer_internal::WriteMetadataPairs;

struct ChromeTraceStream::State {
  State(const Trace& frame, std::string_view name, OutputSink* sink)
      // Depth 2: the top-level members and the elements of traceEvents/deviceProperties get
      // lines.
      : json(sink, /*line_break_depth=*/2), events(frame, &json), trace_name(name) {}
  JsonWriter json;
  TraceEventWriter events;
  std::string trace_name;
  std::set<std::string_view> written;  // metadata keys
};

ChromeTraceStream::ChromeTraceStream(const Trace& frame,
                                     std::string_view trace_name,
                                     OutputSink* sink)
    : frame_(frame), sink_(*sink), state_(std::make_unique<State>(frame, trace_name, sink)) {
  JsonWriter& json = state_->json;
  json.BeginObject();
  json.Key("schemaVersion").Int(1);
  json.Key("deviceProperties").BeginArray();
  for (const RawJson& properties : frame_.device_properties)
    json.Raw(RawOrNull(RawJsonView{properties.text}));
  json.EndArray();
  WriteMetadataPairs(frame_, /*trailing=*/false, &state_->written, &json);
  json.Key("displayTimeUnit").String("ms");
  json.Key("baseTimeNanoseconds").Int(frame_.base_time_ns);
  json.Key("traceEvents").BeginArray();
  state_->events.WriteRows();
}

ChromeTraceStream::~ChromeTraceStream() = default;

void ChromeTraceStream::Add(std::span<const Event> events) {
  state_->events.WriteEvents(events);
}

Status ChromeTraceStream::Finish() {
  JsonWriter& json = state_->json;
  state_->events.WriteClosingEvents();
  json.EndArray();
  WriteMetadataPairs(frame_, /*trailing=*/true, &state_->written, &json);
  json.Key("traceName").String(state_->trace_name);
  json.EndObject();
  json.Finish();
  return sink_.status();
}

Status WriteChromeTrace(const Trace& trace, OutputSink& sink) {
  return WriteDocument(trace, trace.trace_name, sink);
}

Status WriteChromeTrace(const Trace& trace, const std::string& path) {
  const std::string_view name = trace.trace_name.empty() ? path : trace.trace_name;
  return WriteFileAtomically(
      path, [&trace, name](OutputSink& sink) { return WriteDocument(trace, name, sink); });
}

}  // namespace rblnsim::trace
