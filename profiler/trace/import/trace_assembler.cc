#include "profiler/trace/import/trace_assembler.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <variant>

#include "profiler/trace/import/json_scan.h"

namespace rblnsim::trace::import {

namespace {

// Kineto writes its own spans and markers on string pids (reference §2.5).
bool IsKinetoBookkeepingRow(const RowId& pid) {
  return pid.present && !pid.is_int &&
         (pid.text == "Spans" || pid.text == "Traces" || pid.text.empty());
}

std::string StringArg(const ArgList& args, std::string_view key) {
  const std::optional<ArgView> arg = args.Find(key);
  const auto* s = arg ? std::get_if<std::string_view>(&arg->value) : nullptr;
  return s != nullptr ? std::string(*s) : std::string();
}

int64_t IntArgOr0(const ArgList& args, std::string_view key) {
  const std::optional<ArgView> arg = args.Find(key);
  const auto* i = arg ? std::get_if<int64_t>(&arg->value) : nullptr;
  return i != nullptr ? *i : 0;
}

struct FlowKey {
  int64_t pid;
  int64_t tid;
  int64_t ts_ns;
  bool operator==(const FlowKey&) const = default;
};

struct FlowKeyHash {
  size_t operator()(const FlowKey& k) const {
    uint64_t h = static_cast<uint64_t>(k.ts_ns) * 0x9E3779B97F4A7C15ULL;
    h ^= static_cast<uint64_t>(k.pid) + 0x7F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= static_cast<uint64_t>(k.tid) + 0x9E3779B9ULL + (h << 6) + (h >> 2);
    return static_cast<size_t>(h);
  }
};

// Whether a flow at (pid, tid, ts) may be anchored on |target|.
bool CanAnchor(const Event& target, int64_t pid, int64_t tid, int64_t ts_ns) {
  return target.phase == Phase::kComplete && target.flow_role == FlowRole::kNone &&
         target.pid == pid && target.tid == tid && target.ts_ns == ts_ns;
}

bool CanAnchor(const Event& target, const Event& flow) {
  return CanAnchor(target, flow.pid, flow.tid, flow.ts_ns);
}

void Attach(Event& target, uint64_t flow_id, FlowRole role) {
  target.flow_id = flow_id;
  target.flow_role = role;
}

}  // namespace

TraceAssembler::TraceAssembler(ImportResult* result) : result_(*result), trace_(result->trace) {}

size_t TraceAssembler::RowKeyHash::operator()(const RowKey& k) const {
  uint64_t h = static_cast<uint64_t>(k.pid) * 0x9E3779B97F4A7C15ULL;
  h ^= static_cast<uint64_t>(k.tid) + 0x9E3779B9ULL + (h << 6) + (h >> 2);
  return static_cast<size_t>(h);
}

Status TraceAssembler::Add(RawEvent& raw) {
  if (!raw.has_ph)
    return ErrorAtByte(raw.offset, "trace event has no \"ph\"");
  if (raw.quoted_numbers)
    ++result_.quoted_number_events;
  // Every phase this reads is one letter: a switch on it, where a comparison of the text with
  // each phase was a call to memcmp each (a fortieth of an import).
  const char phase = raw.ph.size() == 1 ? raw.ph[0] : '\0';
  const bool timed = phase == 'X' || phase == 'i' || phase == 'I' || phase == 's' || phase == 'f' ||
                     phase == 'B' || phase == 'E';
  if (timed && !raw.has_ts) {
    return ErrorAtByte(raw.offset, "\"" + raw.ph + "\" event has no \"ts\"");
  }
  int64_t end_ns = 0;
  if (__builtin_add_overflow(raw.ts_ns, raw.dur_ns, &end_ns)) {
    return ErrorAtByte(raw.offset, "ts + dur is out of int64 range");
  }
  switch (phase) {
    case 'X':
      AddComplete(raw);
      break;
    case 'i':
    case 'I':
      AddInstant(raw);
      break;
    case 'M':
      AddMetadata(raw);
      break;
    case 's':
    case 'f':
      AddFlow(raw, phase == 's' ? FlowRole::kStart : FlowRole::kFinish);
      break;
    case 'B':
      AddBegin(raw);
      break;
    case 'E':
      return AddEnd(raw);
    case 't':
      ++result_.flow_step_events;
      break;
    default:
      CountUnknownPhase(raw.ph);
  }
  return Status::Ok();
}

bool TraceAssembler::HasIntegerRow(const RawEvent& raw) {
  if (raw.pid.is_int && raw.tid.is_int)
    return true;
  if (IsKinetoBookkeepingRow(raw.pid)) {
    ++result_.span_events;
  } else if (!raw.pid.is_int) {
    ++result_.non_numeric_pid_events;
  } else {
    ++result_.non_numeric_tid_events;
  }
  return false;
}

void TraceAssembler::CountUnknownPhase(const std::string& ph) {
  ++result_.unknown_phase_events;
  const std::string_view listed = std::string_view(ph).substr(0, kMaxPhaseBytes);
  for (PhaseCount& count : result_.unknown_phases) {
    if (count.ph == listed) {
      ++count.events;
      return;
    }
  }
  if (result_.unknown_phases.size() < kMaxListedPhases)
    result_.unknown_phases.push_back({std::string(listed), 1});
}

// The fields every kept event takes from its raw form, moving the strings out of it.
Event TraceAssembler::TakeEvent(RawEvent& raw, Phase phase) {
  Event event;
  event.phase = phase;
  event.category = CategoryFromName(raw.cat);
  if (event.category == Category::kOther)
    event.cat_text = CategoryText(raw.cat);
  event.name = raw.name;
  event.pid = raw.pid.value;
  event.tid = raw.tid.value;
  event.ts_ns = raw.ts_ns;
  event.args = TakeArgs(raw);
  return event;
}

void TraceAssembler::AddBegin(RawEvent& raw) {
  if (!HasIntegerRow(raw))
    return;
  Event event = TakeEvent(raw, Phase::kComplete);
  open_begins_[RowKey{event.pid, event.tid}].push_back({trace_.events.size(), raw.offset});
  last_complete_ = trace_.events.size();  // a flow written right after belongs to it
  trace_.events.push_back(std::move(event));
}

Status TraceAssembler::AddEnd(RawEvent& raw) {
  if (!HasIntegerRow(raw))
    return Status::Ok();
  auto row = open_begins_.find(RowKey{raw.pid.value, raw.tid.value});
  if (row == open_begins_.end() || row->second.empty()) {
    ++result_.unmatched_end_events;
    return Status::Ok();
  }
  Event& event = trace_.events[row->second.back().index];
  if (raw.ts_ns < event.ts_ns) {
    ++result_.end_before_begin_events;  // the "B" stays open for a later "E"
    return Status::Ok();
  }
  int64_t dur_ns = 0;
  if (__builtin_sub_overflow(raw.ts_ns, event.ts_ns, &dur_ns)) {
    return ErrorAtByte(raw.offset, "\"E\" is too far from its \"B\" for an int64 duration");
  }
  event.dur_ns = dur_ns;
  row->second.pop_back();
  // The trace format merges the args of both; where both name a key, the "E" value wins.
  const ArgList end_args = TakeArgs(raw);
  for (const ArgView arg : end_args)
    event.args.Set(arg.key, arg.value);
  NoteRange(event.ts_ns, event.end_ns());
  ++result_.complete_events;
  ++result_.begin_end_pairs;
  return Status::Ok();
}

void TraceAssembler::DropUnmatchedBegins() {
  std::vector<OpenBegin> open;
  for (auto& [row, begins] : open_begins_)
    open.insert(open.end(), begins.begin(), begins.end());
  open_begins_.clear();
  if (open.empty())
    return;
  result_.unmatched_begin_events += static_cast<int64_t>(open.size());
  std::sort(open.begin(), open.end(),
            [](const OpenBegin& a, const OpenBegin& b) { return a.index < b.index; });
  std::vector<Event>& events = trace_.events;
  for (const OpenBegin& begin : open) {
    const Event& event = events[begin.index];
    if (event.flow_role == FlowRole::kNone)
      continue;
    // The flow anchored on it goes with it: listed as an orphan, not lost.
    Event flow;
    flow.phase = Phase::kInstant;
    flow.category = Category::kOther;
    flow.cat_text = "ac2g";
    flow.name = "ac2g";
    flow.pid = event.pid;
    flow.tid = event.tid;
    flow.ts_ns = event.ts_ns;
    flow.flow_role = event.flow_role;
    flow.flow_id = event.flow_id;
    --result_.flow_events;
    Orphan(std::move(flow), begin.offset, "anchored on a \"B\" that no \"E\" closes");
  }
  size_t kept = open.front().index;
  size_t next_open = 0;
  for (size_t i = kept; i < events.size(); ++i) {
    if (next_open < open.size() && open[next_open].index == i) {
      ++next_open;
      continue;
    }
    events[kept++] = std::move(events[i]);
  }
  events.resize(kept);
}

ArgList TraceAssembler::TakeArgs(RawEvent& raw) {
  // The reader already built them in one exact block; the filter, when the reader did not apply
  // it, rebuilds the block from the kept ones.
  const auto kept = [&](const ArgView& arg) {
    return !keep_args_ ||
           std::find(keep_args_->begin(), keep_args_->end(), arg.key) != keep_args_->end();
  };
  if (!keep_args_ || std::all_of(raw.args.begin(), raw.args.end(), kept))
    return std::move(raw.args);
  for (const ArgView arg : raw.args) {
    if (kept(arg))
      kept_args_.Add(arg.key, arg.value);
  }
  raw.args.clear();
  return kept_args_.Build();
}

void TraceAssembler::AddComplete(RawEvent& raw) {
  if (!HasIntegerRow(raw)) {
    if (IsKinetoBookkeepingRow(raw.pid) && raw.pid.text == "Spans" && raw.cat == "Trace") {
      const int64_t end_ns = raw.ts_ns + raw.dur_ns;
      span_begin_ns_ = std::min(span_begin_ns_.value_or(raw.ts_ns), raw.ts_ns);
      span_end_ns_ = std::max(span_end_ns_.value_or(end_ns), end_ns);
    }
    return;
  }
  Event event = TakeEvent(raw, Phase::kComplete);
  event.dur_ns = raw.dur_ns;
  NoteRange(event.ts_ns, event.end_ns());
  last_complete_ = trace_.events.size();
  trace_.events.push_back(std::move(event));
  ++result_.complete_events;
}

void TraceAssembler::AddInstant(RawEvent& raw) {
  if (!HasIntegerRow(raw)) {
    if (IsKinetoBookkeepingRow(raw.pid) && raw.name == "Record Window End")
      window_end_ns_ = raw.ts_ns;
    return;
  }
  Event event = TakeEvent(raw, Phase::kInstant);
  NoteRange(event.ts_ns, event.ts_ns);
  trace_.events.push_back(std::move(event));
  ++result_.instant_events;
}

void TraceAssembler::AddMetadata(RawEvent& raw) {
  if (!raw.pid.is_int) {
    ++(IsKinetoBookkeepingRow(raw.pid) ? result_.span_events : result_.non_numeric_pid_events);
    return;
  }
  const std::string_view name = raw.name;
  const bool thread_row = name == "thread_name" || name == "thread_sort_index";
  const bool process_row =
      name == "process_name" || name == "process_labels" || name == "process_sort_index";
  if (!thread_row && !process_row) {
    ++result_.unknown_metadata_events;
    return;
  }
  if (thread_row && !raw.tid.is_int) {
    ++result_.non_numeric_tid_events;
    return;
  }
  ++result_.metadata_events;
  if (name == "process_name") {
    ProcessRow& row = Process(raw.pid.value);
    std::string value = StringArg(raw.args, "name");
    if (row.name.empty()) {
      row.name = std::move(value);
    } else if (row.name != value) {
      ++result_.conflicting_rows;
      if (std::find(row.other_names.begin(), row.other_names.end(), value) ==
          row.other_names.end()) {
        row.other_names.push_back(std::move(value));
      }
    }
  } else if (name == "process_labels") {
    Process(raw.pid.value).labels = StringArg(raw.args, "labels");
  } else if (name == "process_sort_index") {
    Process(raw.pid.value).sort_index = IntArgOr0(raw.args, "sort_index");
  } else if (name == "thread_name") {
    ThreadRow& row = Thread(raw.pid.value, raw.tid.value);
    std::string value = StringArg(raw.args, "name");
    if (row.name.empty()) {
      row.name = std::move(value);
    } else if (row.name != value) {
      ++result_.conflicting_rows;
    }
  } else {
    Thread(raw.pid.value, raw.tid.value).sort_index = IntArgOr0(raw.args, "sort_index");
  }
}

void TraceAssembler::AddFlow(RawEvent& raw, FlowRole role) {
  if (raw.cat != "ac2g") {
    ++result_.other_flow_events;
    return;
  }
  if (!raw.pid.is_int || !raw.tid.is_int) {
    ++(raw.pid.is_int ? result_.non_numeric_tid_events : result_.non_numeric_pid_events);
    return;
  }
  const uint64_t flow_id = raw.id.value_or(0);
  // Kineto writes a flow right after the event it belongs to (reference §2.4). That flow is
  // attached without an Event of its own: nearly half the events of a Kineto trace are flows, and
  // making and dropping one each (its name and category texts) showed in an import's profile.
  if (flow_id != 0 && last_complete_) {
    Event& target = trace_.events[*last_complete_];
    if (CanAnchor(target, raw.pid.value, raw.tid.value, raw.ts_ns)) {
      Attach(target, flow_id, role);
      ++result_.flow_events;
      return;
    }
  }
  Event flow;
  flow.phase = Phase::kInstant;
  flow.category = Category::kOther;
  flow.cat_text = "ac2g";
  flow.name = "ac2g";
  flow.pid = raw.pid.value;
  flow.tid = raw.tid.value;
  flow.ts_ns = raw.ts_ns;
  flow.flow_role = role;
  flow.flow_id = flow_id;
  if (flow_id == 0) {
    Orphan(std::move(flow), raw.offset, "flow has no positive integer \"id\"");
    return;
  }
  pending_flows_.push_back({std::move(flow), raw.offset});
}

void TraceAssembler::ResolvePendingFlows() {
  if (pending_flows_.empty())
    return;
  // Index only the (pid, tid, ts) the pending flows ask for: a trace can hold millions of X
  // events and normally no pending flow at all.
  std::unordered_map<FlowKey, std::vector<size_t>, FlowKeyHash> candidates;
  for (const PendingFlow& p : pending_flows_) {
    candidates.try_emplace(FlowKey{p.flow.pid, p.flow.tid, p.flow.ts_ns});
  }
  for (size_t i = 0; i < trace_.events.size(); ++i) {
    const Event& e = trace_.events[i];
    if (e.phase != Phase::kComplete)
      continue;
    auto it = candidates.find(FlowKey{e.pid, e.tid, e.ts_ns});
    if (it != candidates.end())
      it->second.push_back(i);
  }
  for (PendingFlow& p : pending_flows_) {
    const std::vector<size_t>& at = candidates[FlowKey{p.flow.pid, p.flow.tid, p.flow.ts_ns}];
    auto free_slot = std::find_if(at.begin(), at.end(),
                                  [&](size_t i) { return CanAnchor(trace_.events[i], p.flow); });
    if (free_slot != at.end()) {
      Attach(trace_.events[*free_slot], p.flow.flow_id, p.flow.flow_role);
      ++result_.flow_events;
    } else {
      Orphan(std::move(p.flow), p.offset,
             at.empty() ? "no X event starts at this pid/tid/ts"
                        : "every X event starting at this pid/tid/ts already has a flow");
    }
  }
  pending_flows_.clear();
}

void TraceAssembler::Orphan(Event flow, uint64_t offset, std::string reason) {
  ++result_.orphan_flow_events;
  if (result_.orphan_flows.size() < kMaxListedOrphanFlows) {
    result_.orphan_flows.push_back({std::move(flow), offset, std::move(reason)});
  }
}

void TraceAssembler::NoteRange(int64_t begin_ns, int64_t end_ns) {
  first_ns_ = std::min(first_ns_.value_or(begin_ns), begin_ns);
  last_ns_ = std::max(last_ns_.value_or(end_ns), std::max(begin_ns, end_ns));
}

ProcessRow& TraceAssembler::Process(int64_t pid) {
  auto [it, inserted] = process_index_.try_emplace(pid, trace_.processes.size());
  if (inserted) {
    ProcessRow row;
    row.pid = pid;
    trace_.processes.push_back(std::move(row));
  }
  return trace_.processes[it->second];
}

ThreadRow& TraceAssembler::Thread(int64_t pid, int64_t tid) {
  auto [it, inserted] = thread_index_[pid].try_emplace(tid, trace_.threads.size());
  if (inserted) {
    ThreadRow row;
    row.pid = pid;
    row.tid = tid;
    trace_.threads.push_back(std::move(row));
  }
  return trace_.threads[it->second];
}

Status TraceAssembler::Finish(int64_t base_ns, uint64_t base_offset) {
  DropUnmatchedBegins();
  ResolvePendingFlows();
  result_.skipped_events = result_.non_numeric_pid_events + result_.non_numeric_tid_events +
                           result_.unknown_phase_events + result_.unknown_metadata_events +
                           result_.other_flow_events + result_.flow_step_events +
                           result_.orphan_flow_events + result_.unmatched_begin_events +
                           result_.unmatched_end_events + result_.end_before_begin_events;
  std::optional<int64_t> start = span_begin_ns_ ? span_begin_ns_ : first_ns_;
  std::optional<int64_t> end = window_end_ns_ ? window_end_ns_
                               : span_end_ns_ ? span_end_ns_
                                              : last_ns_;
  result_.capture_window_from_trace = span_begin_ns_ || window_end_ns_;

  bool overflow = false;
  auto shift = [&](int64_t& ns) { overflow |= __builtin_add_overflow(ns, base_ns, &ns); };
  for (Event& e : trace_.events) {
    shift(e.ts_ns);
    int64_t end_ns = 0;
    overflow |= __builtin_add_overflow(e.ts_ns, e.dur_ns.value(), &end_ns);
  }
  for (OrphanFlow& o : result_.orphan_flows)
    shift(o.flow.ts_ns);
  if (start)
    shift(*start);
  if (end)
    shift(*end);
  if (overflow) {
    return ErrorAtByte(base_offset, "baseTimeNanoseconds moves event times out of int64 range");
  }
  trace_.base_time_ns = base_ns;
  trace_.capture_start_ns = start.value_or(0);
  trace_.capture_end_ns = end.value_or(trace_.capture_start_ns);
  return Status::Ok();
}

}  // namespace rblnsim::trace::import
