#include "profiler/analysis/contract_checks.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/concurrent_task.h"
#include "profiler/analysis/contract_rules.h"
#include "profiler/analysis/window_overrun.h"
#include "profiler/index/grouped.h"

namespace rblnsim::analysis {

namespace {

using trace::Category;
using trace::Event;
using trace::FlowRole;

class ContractChecker {
 public:
  // |index| reads the trace as c-abi.
  ContractChecker(const index::TraceIndex& index, const CheckOptions& options, CheckReport* report)
      : trace_(index.trace()),
        events_(trace_.events),
        options_(options),
        report_(*report),
        index_(index),
        launches_(index.launches()) {
    // Three rules look at flow ends only; on a large trace each pass over every event costs
    // as much as the rule itself, so the few flow-carrying events are listed once, in order.
    for (size_t i = 0; i < events_.size(); ++i) {
      if (events_[i].flow_role != FlowRole::kNone)
        flow_events_.push_back(i);
    }
  }

  void Run() {
    // Every sink first, in rule order (each adds its rule to the report): the three flow rules
    // then run on a second thread while this one runs the rest. They only read the trace and
    // the index, and each writes only its own rule.
    RuleSink device_category =
        Rule("device-category", "device slices use cat kernel, gpu_memcpy or privateuse1_driver");
    RuleSink marker_per_launch = Rule("marker-per-launch",
                                      "every launch_id on device slices has exactly one rbln_run "
                                      "marker carrying an integer launch_id");
    RuleSink marker_inside_op = Rule("marker-inside-op",
                                     "every rbln_run marker lies inside a cpu_op or "
                                     "user_annotation on its own thread");
    RuleSink device_after_marker =
        Rule("device-after-marker", "device slices start at or after their launch's marker");
    RuleSink sync_end_inside_op =
        Rule("sync-end-inside-op",
             "with sync dispatch, device slices end by the end of the launching op");
    RuleSink flow_start = Rule(
        "flow-start", "each marker carries exactly one ac2g flow start, and no other event does");
    RuleSink flow_finish = Rule("flow-finish",
                                "every flow start has a finish; every finish lands on a device "
                                "slice of the start's launch; no finish without a start");
    RuleSink flow_unique = Rule("flow-unique", "no two flow starts share an id");
    RuleSink device_rows_named = Rule("device-rows-named",
                                      "every device pid has a process_name and every device "
                                      "(pid, tid) a thread_name");
    RuleSink durations = Rule("no-negative-durations", "no event has a negative duration");
    RuleSink window = Rule("inside-capture-window", "events lie inside the capture window");
    RuleSink one_process_name = Rule("one-process-name", "every pid has exactly one process_name");
    ConcurrentTask flows;
    flows.StartIf(flow_events_.size() >= kFlowEventsForSecondThread, [&] {
      FlowStart(flow_start);
      const FlowStartsById starts = FlowStarts();
      FlowFinish(starts, flow_finish);
      FlowUnique(starts, flow_unique);
    });
    DeviceCategory(device_category);
    MarkerPerLaunch(marker_per_launch);
    MarkerInsideOp(marker_inside_op);
    DeviceAfterMarker(device_after_marker);
    SyncEndInsideOp(sync_end_inside_op);
    DeviceRowsNamed(device_rows_named);
    DurationsAndWindow(durations, window);
    CheckOneProcessName(trace_, one_process_name);
    flows.Wait();
  }

 private:
  // Fewer flows are checked on this thread: a thread costs more than they do.
  static constexpr size_t kFlowEventsForSecondThread = 4096;

  bool IsMarker(size_t event) const { return index_.events().Has(event, index::kDialectMarker); }

  RuleSink Rule(std::string id, std::string description) {
    return RuleSink(&report_, options_.max_examples, std::move(id), std::move(description));
  }

  void DeviceCategory(RuleSink sink) {
    for (size_t i : launches_.device_slices) {
      const Event& e = events_[i];
      if (e.category == Category::kKernel || e.category == Category::kGpuMemcpy ||
          e.category == Category::kPrivateUse1Driver) {
        continue;
      }
      sink.Violation(e, "device slice has cat \"" + std::string(e.cat()) + "\"");
    }
    if (launches_.device_slices.empty())
      sink.NotApplicable("0 device slices");
  }

  void MarkerPerLaunch(RuleSink sink) {
    for (size_t m : launches_.markers) {
      if (!index_.LaunchId(m))
        sink.Violation(events_[m], "marker has no launch_id");
    }
    for (const auto& [id, markers] : launches_.markers_by_launch) {
      for (size_t k = 1; k < markers.size(); ++k) {
        sink.Violation(events_[markers[k]],
                       "launch has " + std::to_string(markers.size()) + " rbln_run markers");
      }
    }
    for (const auto& [id, slices] : launches_.slices_by_launch) {
      if (!index_.MarkerOf(id))
        sink.Violation(events_[slices.front()], "launch has no marker");
    }
    for (size_t i : launches_.device_slices) {
      const Event& e = events_[i];
      if (index_.events().Has(i, index::kHasLaunchIdArg) && !index_.LaunchId(i)) {
        sink.Violation(e, "launch_id is not an integer");
      }
    }
    if (launches_.markers.empty() && launches_.slices_by_launch.empty())
      sink.NotApplicable("0 rbln_run markers, 0 launch_ids on device slices");
  }

  void MarkerInsideOp(RuleSink sink) {
    for (size_t m : launches_.markers) {
      if (!index_.LauncherOf(m)) {
        sink.Violation(events_[m], "no cpu_op or user_annotation on its thread encloses it");
      }
    }
    if (launches_.markers.empty())
      sink.NotApplicable("0 rbln_run markers");
  }

  void DeviceAfterMarker(RuleSink sink) {
    size_t checked = 0;
    for (const auto& [id, slices] : launches_.slices_by_launch) {
      const auto marker = index_.MarkerOf(id);
      if (!marker)
        continue;  // marker-per-launch reports it
      checked += slices.size();
      const int64_t marker_ts = events_[*marker].ts_ns;
      for (size_t i : slices) {
        if (events_[i].ts_ns < marker_ts) {
          sink.Violation(events_[i],
                         "starts " + NsText(marker_ts - events_[i].ts_ns) + " before its marker");
        }
      }
    }
    if (checked == 0)
      sink.NotApplicable("0 device slices of a launch with a marker");
  }

  void SyncEndInsideOp(RuleSink sink) {
    if (!options_.sync) {
      sink.Skip();
      return;
    }
    size_t checked = 0;
    for (const auto& [id, slices] : launches_.slices_by_launch) {
      const auto marker = index_.MarkerOf(id);
      const auto op = marker ? index_.LauncherOf(*marker) : std::nullopt;
      if (!op)
        continue;  // marker-per-launch / marker-inside-op report it
      checked += slices.size();
      const Event& launcher = events_[*op];
      for (size_t i : slices) {
        if (events_[i].end_ns() > launcher.end_ns()) {
          sink.Violation(events_[i], "ends " + NsText(events_[i].end_ns() - launcher.end_ns()) +
                                         " after its launching op " + launcher.name.str());
        }
      }
    }
    if (checked == 0)
      sink.NotApplicable("0 device slices of a launch with a launching op");
  }

  void FlowStart(RuleSink sink) {
    for (size_t m : launches_.markers) {
      const Event& e = events_[m];
      if (e.flow_role == FlowRole::kFinish) {
        sink.Violation(e, "marker carries a flow finish instead of a start");
      } else if (e.flow_role != FlowRole::kStart) {
        sink.Violation(e, "marker has no ac2g flow start");
      }
    }
    for (size_t i : flow_events_) {
      if (events_[i].flow_role == FlowRole::kStart && !IsMarker(i)) {
        sink.Violation(events_[i], "flow start " + std::to_string(events_[i].flow_id) +
                                       " on an event that is not an rbln_run marker");
      }
    }
    for (const Event& f : options_.unanchored_flows) {
      if (f.flow_role == FlowRole::kStart) {
        sink.Violation(f, "flow start " + std::to_string(f.flow_id) + " is anchored on no event");
      }
    }
    if (launches_.markers.empty() && flow_events_.empty() && options_.unanchored_flows.empty())
      sink.NotApplicable("0 rbln_run markers, 0 flows");
  }

  // Flow starts by id, each id's in trace order.
  using FlowStartsById = index::Grouped<uint64_t, size_t>;
  FlowStartsById FlowStarts() const {
    FlowStartsById starts;
    for (size_t i : flow_events_) {
      if (events_[i].flow_role == FlowRole::kStart)
        starts.Add(events_[i].flow_id, i);
    }
    starts.Seal();
    return starts;
  }

  // The finishes' starts, looked up in trace order. A launch's finishes come one after another
  // (one per device slice), so the last id's group answers most of them without a search.
  class StartOfFinish {
   public:
    explicit StartOfFinish(const FlowStartsById& starts) : starts_(starts), last_(starts.end()) {}
    FlowStartsById::const_iterator Find(uint64_t id) {
      if (last_ == starts_.end() || last_id_ != id) {
        last_ = starts_.find(id);
        last_id_ = id;
      }
      return last_;
    }

   private:
    const FlowStartsById& starts_;
    FlowStartsById::const_iterator last_;
    uint64_t last_id_ = 0;
  };

  void FlowFinish(const FlowStartsById& starts, RuleSink sink) {
    // Which start ids some finish names, by group: starts without one are reported first.
    std::vector<bool> finished(starts.size(), false);
    StartOfFinish start_of(starts);
    for (size_t i : flow_events_) {
      if (events_[i].flow_role != FlowRole::kFinish)
        continue;
      const auto it = start_of.Find(events_[i].flow_id);
      if (it != starts.end())
        finished[static_cast<size_t>(it - starts.begin())] = true;
    }
    for (auto it = starts.begin(); it != starts.end(); ++it) {
      if (!finished[static_cast<size_t>(it - starts.begin())]) {
        sink.Violation(events_[it->second.front()],
                       "flow " + std::to_string(it->first) + " has no finish");
      }
    }
    for (size_t i : flow_events_) {
      const Event& f = events_[i];
      if (f.flow_role != FlowRole::kFinish)
        continue;
      auto it = start_of.Find(f.flow_id);
      if (it == starts.end()) {
        sink.Violation(f, "finish of flow " + std::to_string(f.flow_id) + " has no start");
        continue;
      }
      if (!index_.events().Has(i, index::kOffHost)) {
        sink.Violation(f, "finish of flow " + std::to_string(f.flow_id) +
                              " lands on an event that is not a device slice");
        continue;
      }
      // Measure against the marker's start when duplicates exist (flow-unique reports them).
      size_t start = it->second.front();
      for (size_t s : it->second) {
        if (IsMarker(s))
          start = s;
      }
      const auto want = index_.LaunchId(start);
      const auto got = index_.LaunchId(i);
      if (want && got != want) {
        sink.Violation(f, "finish of flow " + std::to_string(f.flow_id) + " lands on launch " +
                              (got ? std::to_string(*got) : std::string("(none)")) +
                              ", its start is on launch " + std::to_string(*want));
      }
    }
    for (const Event& f : options_.unanchored_flows) {
      if (f.flow_role == FlowRole::kFinish) {
        sink.Violation(f,
                       "finish of flow " + std::to_string(f.flow_id) + " is anchored on no event");
      }
    }
    if (flow_events_.empty() && options_.unanchored_flows.empty())
      sink.NotApplicable("0 flows");
  }

  void FlowUnique(const FlowStartsById& starts, RuleSink sink) {
    for (const auto& [id, list] : starts) {
      if (list.size() < 2)
        continue;
      // The start on a marker is the legitimate one; blame the others.
      auto keep = std::find_if(list.begin(), list.end(), [&](size_t i) { return IsMarker(i); });
      if (keep == list.end())
        keep = list.begin();
      for (auto it = list.begin(); it != list.end(); ++it) {
        if (it == keep)
          continue;
        sink.Violation(events_[*it], "flow id " + std::to_string(id) + " has " +
                                         std::to_string(list.size()) + " starts");
      }
    }
    if (starts.empty())
      sink.NotApplicable("0 flow starts");
  }

  void DeviceRowsNamed(RuleSink sink) {
    std::set<int64_t> pids;
    std::set<std::pair<int64_t, int64_t>> rows;
    for (size_t i : launches_.device_slices) {
      const Event& e = events_[i];
      if (pids.insert(e.pid).second) {
        const trace::ProcessRow* p = trace_.FindProcess(e.pid);
        if (p == nullptr || p->name.empty()) {
          sink.Violation(e, "device pid " + std::to_string(e.pid) + " has no process_name");
        }
      }
      if (rows.insert({e.pid, e.tid}).second) {
        const trace::ThreadRow* t = trace_.FindThread(e.pid, e.tid);
        if (t == nullptr || t->name.empty()) {
          sink.Violation(e, "device row " + std::to_string(e.pid) + "/" + std::to_string(e.tid) +
                                " has no thread_name");
        }
      }
    }
    if (launches_.device_slices.empty())
      sink.NotApplicable("0 device slices");
  }

  void DurationsAndWindow(RuleSink durations, RuleSink window) {
    const int64_t begin = trace_.capture_start_ns;
    const int64_t end = trace_.capture_end_ns;
    const bool has_window = HasCaptureWindow(trace_, options_.window_from_events);
    for (const Event& e : events_) {
      if (e.dur_ns < 0)
        durations.Violation(e, "dur is " + NsText(e.dur_ns));
      if (!has_window)
        continue;
      if (e.ts_ns < begin) {
        window.Violation(e, "starts " + NsText(begin - e.ts_ns) + " before the capture window");
      } else if (e.end_ns() > end) {
        window.Violation(e, "ends " + NsText(e.end_ns() - end) + " after the capture window");
      }
    }
    if (events_.empty())
      durations.NotApplicable("0 events");
    if (!has_window) {
      window.NotApplicable("the trace records no capture window");
    } else if (events_.empty()) {
      window.NotApplicable("0 events");
    }
  }

  const trace::Trace& trace_;
  const std::vector<Event>& events_;
  const CheckOptions& options_;
  CheckReport& report_;
  const index::TraceIndex& index_;
  const index::LaunchTable& launches_;
  std::vector<size_t> flow_events_;  // events carrying a flow start or finish, in order
};

}  // namespace

const RuleResult* CheckReport::Find(const std::string& id) const {
  for (const RuleResult& r : rules) {
    if (r.id == id)
      return &r;
  }
  return nullptr;
}

std::vector<std::string> ContractArgKeys() {
  return {std::string(kLaunchIdArg)};
}

std::string NsText(int64_t ns) {
  return std::to_string(ns) + " ns";
}

void CheckOneProcessName(const trace::Trace& trace, RuleSink sink) {
  for (const trace::ProcessRow& row : trace.processes) {
    if (row.other_names.empty())
      continue;
    std::string names = "\"" + row.name + "\"";
    for (const std::string& other : row.other_names)
      names += ", \"" + other + "\"";
    sink.Violation("pid " + std::to_string(row.pid) + " has " +
                   std::to_string(row.other_names.size() + 1) +
                   " different process_name rows: " + names + " (a viewer shows only one)");
  }
  if (trace.processes.empty())
    sink.NotApplicable("0 process rows");
}

void CheckDeviceInsideWindow(const index::TraceIndex& index, bool window_known, RuleSink sink) {
  const trace::Trace& trace = index.trace();
  const WindowOverrun overrun = FindWindowOverrun(index, window_known);
  for (size_t i : overrun.late) {
    const Event& e = trace.events[i];
    sink.Violation(
        e, "ends " + NsText(e.end_ns() - overrun.window_end_ns) + " after the capture window");
  }
  if (!window_known) {
    sink.NotApplicable("the trace records no capture window");
  } else if (overrun.device_work == 0) {
    sink.NotApplicable("0 device activities");
  }
}

void CheckCAbiContract(const index::TraceIndex& index,
                       const CheckOptions& options,
                       CheckReport* report) {
  ContractChecker(index, options, report).Run();
}

CheckReport CheckContract(const index::TraceIndex& index, const CheckOptions& options) {
  const trace::Trace& trace = index.trace();
  CheckReport report;
  report.sync = options.sync;
  report.base_time_ns = trace.base_time_ns;
  report.contract_forced = options.contract.has_value();
  report.contract = options.contract.value_or(index.dialect());
  if (report.contract == Dialect::kCurrent) {
    CheckCurrentContract(index, options, &report);
  } else if (index.dialect() == Dialect::kCAbi) {
    CheckCAbiContract(index, options, &report);
  } else {
    // A current trace checked against the c-abi contract: its launch table must hold rbln_run
    // markers. The trace was indexed once already, so indexing it again cannot fail.
    StatusOr<index::TraceIndex> c_abi = index::TraceIndex::Build(trace, Dialect::kCAbi);
    CheckCAbiContract(*c_abi, options, &report);
  }
  for (const RuleResult& r : report.rules)
    report.passed = report.passed && r.passed;
  return report;
}

CheckReport CheckContract(const trace::Trace& trace, const CheckOptions& options) {
  const Dialect dialect = options.contract.value_or(DetectDialect(trace));
  StatusOr<index::TraceIndex> index = index::TraceIndex::Build(trace, dialect);
  if (index.ok())
    return CheckContract(*index, options);
  // Too large to index: no rule could run, and a report that passed would hide it.
  CheckReport report;
  report.contract = dialect;
  report.contract_forced = options.contract.has_value();
  report.passed = false;
  RuleSink(&report, options.max_examples, "trace-index", "the trace can be indexed")
      .Violation(index.status().message());
  return report;
}

}  // namespace rblnsim::analysis
