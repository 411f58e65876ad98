// Turns parsed traceEvents elements, in file order, into the trace model: rows from "M" events,
// X and instant events, "B"/"E" pairs as complete events, ac2g flows attached to the X event
// they are anchored on, and the capture window from Kineto's "Trace" span / Record Window End.
// Whatever is not kept as written is counted in ImportResult by reason.
#ifndef RBLNSIM_PROFILER_TRACE_IMPORT_TRACE_ASSEMBLER_H_
#define RBLNSIM_PROFILER_TRACE_IMPORT_TRACE_ASSEMBLER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "profiler/trace/import/chrome_trace_import.h"
#include "profiler/trace/import/event_reader.h"

namespace rblnsim::trace::import {

class TraceAssembler {
 public:
  explicit TraceAssembler(ImportResult* result);

  // X and instant events keep only args with these keys (metadata events still read theirs).
  void KeepOnlyArgs(std::vector<std::string> keys) { keep_args_ = std::move(keys); }

  // Consumes |event| (its strings and args are moved out).
  Status Add(RawEvent& event);

  // Anchors the flows that did not follow their event, then makes every time absolute by adding
  // |base_ns| (baseTimeNanoseconds; 0 when the file has absolute times). |base_offset| locates
  // the base in errors.
  Status Finish(int64_t base_ns, uint64_t base_offset);

 private:
  struct PendingFlow {
    Event flow;
    uint64_t offset;
  };
  struct RowKey {
    int64_t pid;
    int64_t tid;
    bool operator==(const RowKey&) const = default;
  };
  struct RowKeyHash {
    size_t operator()(const RowKey& k) const;
  };
  struct OpenBegin {
    size_t index;     // in trace.events
    uint64_t offset;  // of the "B" in the input
  };

  // False (and the event counted) when its pid or tid is not an integer.
  bool HasIntegerRow(const RawEvent& raw);
  void CountUnknownPhase(const std::string& ph);

  ArgList TakeArgs(RawEvent& raw);
  Event TakeEvent(RawEvent& raw, Phase phase);
  void AddComplete(RawEvent& raw);
  void AddInstant(RawEvent& raw);
  void AddMetadata(RawEvent& raw);
  void AddFlow(RawEvent& raw, FlowRole role);
  void AddBegin(RawEvent& raw);
  Status AddEnd(RawEvent& raw);
  void DropUnmatchedBegins();
  void ResolvePendingFlows();
  void Orphan(Event flow, uint64_t offset, std::string reason);
  void NoteRange(int64_t begin_ns, int64_t end_ns);
  ProcessRow& Process(int64_t pid);
  ThreadRow& Thread(int64_t pid, int64_t tid);

  ImportResult& result_;
  Trace& trace_;
  std::unordered_map<int64_t, size_t> process_index_;
  std::unordered_map<int64_t, std::unordered_map<int64_t, size_t>> thread_index_;
  std::optional<size_t> last_complete_;  // the X event a flow written right after belongs to
  std::vector<PendingFlow> pending_flows_;
  // Per row, the "B" events not yet closed, innermost last. An open "B" already has its place
  // in trace.events (so events stay in the order they begin, and a flow written after it is
  // anchored on it); those never closed are removed in Finish, their flows made orphans.
  std::unordered_map<RowKey, std::vector<OpenBegin>, RowKeyHash> open_begins_;
  std::optional<std::vector<std::string>> keep_args_;
  ArgListBuilder kept_args_;  // reused by TakeArgs

  std::optional<int64_t> span_begin_ns_;  // union of Kineto's "Trace" spans
  std::optional<int64_t> span_end_ns_;
  std::optional<int64_t> window_end_ns_;  // Record Window End
  std::optional<int64_t> first_ns_;       // min/max over kept events
  std::optional<int64_t> last_ns_;
};

}  // namespace rblnsim::trace::import

#endif  // RBLNSIM_PROFILER_TRACE_IMPORT_TRACE_ASSEMBLER_H_
