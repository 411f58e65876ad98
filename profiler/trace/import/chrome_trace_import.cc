#include "profiler/trace/import/chrome_trace_import.h"

#include <utility>
#include <vector>

#include "profiler/trace/import/event_reader.h"
#include "profiler/trace/import/json_input.h"
#include "profiler/trace/import/json_scan.h"
#include "profiler/trace/import/trace_assembler.h"

namespace rblnsim::trace {

namespace {

using import::ErrorAtByte;

// Names the JSON type a value starting with |c| would have, for "must be an array" errors.
std::string DescribeValueStart(char c) {
  switch (c) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      return (c == '-' || (c >= '0' && c <= '9')) ? "a number" : import::DescribeByte(c);
  }
}

// Walks the top level with the structural scanner and hands every event to simdjson, one at a
// time, so memory stays proportional to the input plus the model.
class TopLevelReader {
 public:
  TopLevelReader(const import::JsonInput& input, ImportResult* result)
      : text_(input.view()),
        reader_(input, kMicrosecondExponent),
        assembler_(result),
        result_(*result) {}

  Status Run() {
    size_t pos = 0;
    if (text_.substr(0, 3) == "\xEF\xBB\xBF")
      pos = 3;  // a UTF-8 byte order mark
    pos = import::SkipWhitespace(text_, pos);
    if (text_.empty())
      return ErrorAtByte(0, "empty input");
    if (pos == text_.size())
      return ErrorAtByte(pos, "no JSON value, only whitespace");
    size_t end = 0;
    if (text_[pos] == '[') {
      // A bare array of events (Chrome's "JSON array format"): µs, absolute times.
      RBLNSIM_ASSIGN_OR_RETURN(end, ReadEvents(pos));
    } else if (text_[pos] == '{') {
      RBLNSIM_ASSIGN_OR_RETURN(end, ReadTopObject(pos));
    } else {
      return ErrorAtByte(pos, "not a Chrome trace: expected '{' or '[', found " +
                                  import::DescribeByte(text_[pos]));
    }
    pos = import::SkipWhitespace(text_, end);
    if (pos != text_.size()) {
      return ErrorAtByte(
          pos, "unexpected " + import::DescribeByte(text_[pos]) + " after the top-level value");
    }
    return assembler_.Finish(base_ns_, base_offset_);
  }

 private:
  static constexpr int kMicrosecondExponent = 3;

  StatusOr<size_t> ReadTopObject(size_t open) {
    bool saw_events = false;
    std::vector<size_t> deferred_events;  // where each postponed traceEvents array opens
    size_t pos = import::SkipWhitespace(text_, open + 1);
    if (pos < text_.size() && text_[pos] == '}') {
      return ErrorAtByte(open, "the top-level object has no \"traceEvents\"");
    }
    while (true) {
      if (pos >= text_.size())
        return Unclosed(open, "object");
      if (text_[pos] != '"') {
        return ErrorAtByte(pos,
                           "expected a member name, found " + import::DescribeByte(text_[pos]));
      }
      size_t key_end = 0;
      RBLNSIM_ASSIGN_OR_RETURN(key_end, import::SkipString(text_, pos));
      std::string key;
      RBLNSIM_ASSIGN_OR_RETURN(key, reader_.ReadString(pos, key_end));
      pos = import::SkipWhitespace(text_, key_end);
      if (pos >= text_.size())
        return Unclosed(open, "object");
      if (text_[pos] != ':') {
        return ErrorAtByte(
            pos, "expected ':' after a member name, found " + import::DescribeByte(text_[pos]));
      }
      pos = import::SkipWhitespace(text_, pos + 1);
      if (pos >= text_.size())
        return Unclosed(open, "object");
      size_t end = 0;
      if (key == "traceEvents") {
        if (text_[pos] != '[') {
          return ErrorAtByte(
              pos, "\"traceEvents\" must be an array, found " + DescribeValueStart(text_[pos]));
        }
        saw_events = true;
        if (unit_known_) {
          RBLNSIM_ASSIGN_OR_RETURN(end, ReadEvents(pos));
        } else {
          // displayTimeUnit decides how every ts reads, and it may come later: come back once
          // the whole object has been seen. Kineto always writes it first, so this is rare.
          RBLNSIM_ASSIGN_OR_RETURN(end, import::SkipValue(text_, pos));
          deferred_events.push_back(pos);
        }
      } else {
        RBLNSIM_ASSIGN_OR_RETURN(end, import::SkipValue(text_, pos));
        RBLNSIM_RETURN_IF_ERROR(ReadMember(key, pos, end));
      }
      pos = import::SkipWhitespace(text_, end);
      if (pos >= text_.size())
        return Unclosed(open, "object");
      if (text_[pos] == '}')
        break;
      if (text_[pos] != ',') {
        return ErrorAtByte(
            pos, "expected ',' or '}' after a member, found " + import::DescribeByte(text_[pos]));
      }
      pos = import::SkipWhitespace(text_, pos + 1);
    }
    if (!saw_events)
      return ErrorAtByte(open, "the top-level object has no \"traceEvents\"");
    for (size_t events_open : deferred_events) {
      RBLNSIM_RETURN_IF_ERROR(ReadEvents(events_open).status());
    }
    return pos + 1;
  }

  // Top-level members other than traceEvents. The keys the writer owns are read into the model;
  // everything else (host_name, WARNING, distributedInfo, rbln_bridge, ...) stays raw JSON.
  Status ReadMember(const std::string& key, size_t begin, size_t end) {
    Trace& trace = result_.trace;
    if (key == "displayTimeUnit") {
      auto unit = reader_.ReadString(begin, end);
      if (!unit.ok())
        return ErrorAtByte(begin, "\"displayTimeUnit\" must be a string");
      // Kineto built with DISPLAY_TRACE_IN_NS writes "ns" and then prints ns (reference §2.1).
      unit_known_ = true;
      reader_.set_ns_exponent(*unit == "ns" ? 0 : kMicrosecondExponent);
    } else if (key == "baseTimeNanoseconds") {
      auto base = reader_.ReadInt(begin, end);
      if (!base.ok())
        return ErrorAtByte(begin, "\"baseTimeNanoseconds\" must be an integer");
      base_ns_ = *base;
      base_offset_ = begin;
    } else if (key == "traceName") {
      auto name = reader_.ReadString(begin, end);
      if (!name.ok())
        return ErrorAtByte(begin, "\"traceName\" must be a string");
      trace.trace_name = std::move(*name);
    } else if (key == "deviceProperties") {
      if (text_[begin] != '[') {
        return ErrorAtByte(begin, "\"deviceProperties\" must be an array, found " +
                                      DescribeValueStart(text_[begin]));
      }
      return ForEachElement(begin,
                            [&](size_t b, size_t e) -> Status {
                              RBLNSIM_ASSIGN_OR_RETURN(std::string json, reader_.ReadCompact(b, e));
                              trace.device_properties.push_back(RawJson{std::move(json)});
                              return Status::Ok();
                            })
          .status();
    } else if (key != "schemaVersion") {  // the writer stamps its own schema version
      RBLNSIM_ASSIGN_OR_RETURN(std::string json, reader_.ReadCompact(begin, end));
      trace.metadata.emplace_back(key, RawJson{std::move(json)});
    }
    return Status::Ok();
  }

  StatusOr<size_t> ReadEvents(size_t open) {
    return ForEachElement(open, [&](size_t b, size_t e) -> Status {
      ++result_.events_read;
      RBLNSIM_RETURN_IF_ERROR(reader_.ReadEvent(b, e, &event_));
      return assembler_.Add(event_);
    });
  }

  // Calls |fn(begin, end)| for each element of the array opening at |open|; returns its end.
  template <typename Fn>
  StatusOr<size_t> ForEachElement(size_t open, Fn&& fn) {
    size_t pos = import::SkipWhitespace(text_, open + 1);
    if (pos < text_.size() && text_[pos] == ']')
      return pos + 1;
    while (true) {
      if (pos >= text_.size())
        return Unclosed(open, "array");
      size_t end = 0;
      RBLNSIM_ASSIGN_OR_RETURN(end, import::SkipValue(text_, pos));
      RBLNSIM_RETURN_IF_ERROR(fn(pos, end));
      pos = import::SkipWhitespace(text_, end);
      if (pos >= text_.size())
        return Unclosed(open, "array");
      if (text_[pos] == ']')
        return pos + 1;
      if (text_[pos] != ',') {
        return ErrorAtByte(pos, "expected ',' or ']' after an array element, found " +
                                    import::DescribeByte(text_[pos]));
      }
      pos = import::SkipWhitespace(text_, pos + 1);
    }
  }

  Status Unclosed(size_t open, const char* what) const {
    return ErrorAtByte(text_.size(), std::string("unexpected end of input: the ") + what +
                                         " opened at byte " + std::to_string(open) +
                                         " is not closed");
  }

  std::string_view text_;
  import::EventReader reader_;
  import::TraceAssembler assembler_;
  ImportResult& result_;
  import::RawEvent event_;  // reused so its buffers are allocated once
  bool unit_known_ = false;
  int64_t base_ns_ = 0;  // absolute times when the file has no baseTimeNanoseconds
  uint64_t base_offset_ = 0;
};

StatusOr<ImportResult> ImportInput(const import::JsonInput& input, const std::string& name) {
  ImportResult result;
  result.was_gzip = input.was_gzip();
  result.input_bytes = input.size();
  Status status = TopLevelReader(input, &result).Run();
  if (!status.ok())
    return status.WithPrefix(name + ": ");
  return result;
}

}  // namespace

StatusOr<ImportResult> ImportChromeTrace(const std::string& path) {
  RBLNSIM_ASSIGN_OR_RETURN(import::JsonInput input, import::JsonInput::FromFile(path));
  return ImportInput(input, path);
}

StatusOr<ImportResult> ImportChromeTraceFromBuffer(std::string_view json, const std::string& name) {
  auto input = import::JsonInput::FromText(json);
  if (!input.ok())
    return input.status().WithPrefix(name + ": ");
  return ImportInput(*input, name);
}

std::string FormatImportSummary(const ImportResult& r) {
  const std::pair<const char*, int64_t> counters[] = {
      {"input_bytes", static_cast<int64_t>(r.input_bytes)},
      {"events_read", r.events_read},
      {"complete_events", r.complete_events},
      {"instant_events", r.instant_events},
      {"metadata_events", r.metadata_events},
      {"flow_events", r.flow_events},
      {"orphan_flow_events", r.orphan_flow_events},
      {"other_flow_events", r.other_flow_events},
      {"span_events", r.span_events},
      {"skipped_events", r.skipped_events},
      {"unknown_phase_events", r.unknown_phase_events},
      {"unknown_metadata_events", r.unknown_metadata_events},
      {"conflicting_rows", r.conflicting_rows},
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
