// Writes a Trace as the Chrome trace JSON that torch.profiler's export_chrome_trace() produces
// through Kineto (reference §2): same top-level key order, same metadata rows, flow events right
// after the event they are anchored on, Kineto's closing span and instants, and every ts/dur as
// µs with three decimals relative to baseTimeNanoseconds.
//
// Layout: one top-level member per line and one trace event per line (compact inside), so files
// stay diffable without Kineto's multi-line event bodies.
#ifndef RBLNSIM_PROFILER_TRACE_CHROME_TRACE_WRITER_H_
#define RBLNSIM_PROFILER_TRACE_CHROME_TRACE_WRITER_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"
#include "profiler/trace/json_writer.h"
#include "profiler/trace/trace.h"

namespace rblnsim::trace {

// The same document with its events handed over in batches, for a producer that converts
// events a batch at a time and can let each go once written instead of holding the whole trace.
// Everything before the events (deviceProperties, the metadata, the process and thread rows) and
// after them (Kineto's closing events, trailing keys, traceName) comes from |frame|, whose own
// events are not read: batches that add up to frame.events give WriteChromeTrace's bytes.
class ChromeTraceStream {
 public:
  // Writes the document's head into |sink|; |frame| and |sink| must outlive the stream.
  ChromeTraceStream(const Trace& frame, std::string_view trace_name, OutputSink* sink);
  ~ChromeTraceStream();
  ChromeTraceStream(const ChromeTraceStream&) = delete;
  ChromeTraceStream& operator=(const ChromeTraceStream&) = delete;

  // Writes |events|, after those written before, each followed by its flow event if it has one.
  void Add(std::span<const Event> events);
  // Writes the rest of the document and returns the sink's status; nothing may follow.
  Status Finish();

 private:
  struct State;
  const Trace& frame_;
  OutputSink& sink_;
  std::unique_ptr<State> state_;
};

// Streams the document into |sink| and returns the sink's status.
Status WriteChromeTrace(const Trace& trace, OutputSink& sink);

// Replaces |path| atomically (atomic_file.h): on failure the old file is untouched. If
// trace.trace_name is empty, traceName is |path|, as Kineto does.
Status WriteChromeTrace(const Trace& trace, const std::string& path);

}  // namespace rblnsim::trace

#endif  // RBLNSIM_PROFILER_TRACE_CHROME_TRACE_WRITER_H_
