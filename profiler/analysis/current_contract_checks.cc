// The current contract (shared/reference/rbln-runtime-activities.md §4), read the way torch-rbln's
// newest alignment test reads the exported trace: slices are grouped by their launch_id arg, the
// slice named "rbln launch" in a group is its marker and the others are its activities; only ac2g
// flows with ids in the rbln block count, since ids outside it belong to other producers.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/release_memory.h"
#include "profiler/analysis/contract_rules.h"
#include "profiler/analysis/window_overrun.h"
#include "profiler/index/grouped.h"

namespace rblnsim::analysis {

namespace {

using trace::Category;
using trace::Event;
using trace::FlowRole;

std::string FlowText(uint64_t id) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llX", static_cast<unsigned long long>(id));
  return text;
}

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

// Views into CurrentChecker::launch_events_, each in trace order.
struct Launch {
  std::span<const size_t> markers;
  std::span<const size_t> activities;
};

// One end of an in-block flow: anchored on an event of the trace, or on none (the importer's
// orphans, kept in CheckOptions::unanchored_flows).
struct FlowEnd {
  const Event* flow = nullptr;  // the anchoring event, or the unanchored flow itself
  bool anchored = false;
  std::optional<int64_t> launch_id;  // starts: of the marker they sit on; finishes: of the slice
  bool on_marker = false;            // starts: sits on an "rbln launch" marker with a launch_id
};

class CurrentChecker {
 public:
  CurrentChecker(const index::TraceIndex& index, const CheckOptions& options, CheckReport* report)
      : index_(index),
        trace_(index.trace()),
        events_(trace_.events),
        options_(options),
        report_(*report) {
    const trace::Trace& trace = trace_;
    for (const trace::ProcessRow& row : trace.processes) {
      if (IsNpuProcess(row))
        npu_pids_.insert(row.pid);
    }
    for (const trace::ThreadRow& row : trace.threads) {
      if (npu_pids_.count(row.pid) > 0)
        lanes_[{row.pid, row.tid}] = row.name;
    }
    for (size_t i = 0; i < events_.size(); ++i) {
      const Event& e = events_[i];
      if (e.phase != trace::Phase::kComplete)
        continue;
      const std::optional<int64_t> id = index_.LaunchId(i);
      const bool marker = e.name == kCurrentMarkerName;
      if (marker)
        markers_.push_back(i);
      if (id)
        launch_members_.emplace_back(*id, !marker, i);
      if (e.flow_role != FlowRole::kNone && InFlowBlock(e.flow_id))
        AddFlow(e, /*anchored=*/true, id, marker && id.has_value());
    }
    for (const Event& f : options.unanchored_flows) {
      if (f.flow_role != FlowRole::kNone && InFlowBlock(f.flow_id))
        AddFlow(f, /*anchored=*/false, std::nullopt, false);
    }
    GroupLaunches();
    starts_.Seal();
    finishes_.Seal();
    MatchUnanchoredStarts();
  }

  void Run() {
    const std::string n = std::to_string(options_.min_launches);
    NpuRow(Rule("npu-row", "at least one process row is named \"NPU <id>\""));
    MinLaunches(Rule("min-launches", "at least " + n + " launch" +
                                         (options_.min_launches == 1 ? "" : "es") +
                                         " (distinct launch_id on slices)"));
    OneMarkerPerLaunch(Rule("one-marker-per-launch",
                            "every launch has exactly one \"rbln launch\" marker, and every "
                            "marker an integer launch_id"));
    MarkerInsideHostOp(Rule("marker-inside-host-op",
                            options_.launcher_contains.empty()
                                ? "every marker lies inside a host slice (dur > 0) on its own "
                                  "pid/tid"
                                : "every marker lies inside a slice named *" +
                                      options_.launcher_contains +
                                      "* (dur > 0) on its own pid/tid"));
    ActivityBesidesMarker(Rule("activity-besides-marker",
                               "every launch with a marker has at least one other activity"));
    ActivityOnMatchingLane(
        Rule("activity-on-matching-lane",
             "every activity sits on an NPU lane named after its cat (kernel: compute, "
             "gpu_memcpy: copy, privateuse1_runtime: host, privateuse1_driver: collective)"));
    ActivityAfterMarker(
        Rule("activity-after-marker", "activities start no earlier than their launch's marker"));
    KernelLaunches(Rule("kernel-launches", "at least " + n + " launch" +
                                               (options_.min_launches == 1 ? "" : "es") +
                                               " ran a kernel activity"));
    FlowStartAtMarker(Rule("flow-start-at-marker",
                           "every marker carries one ac2g flow start of the rbln id block at its "
                           "pid/tid/ts, and no other event does"));
    FlowIdsUnique(Rule("flow-ids-unique", "no two flow starts of the block share an id"));
    FlowFinishOnLaunch(Rule("flow-finish-on-launch",
                            "every finish of a started flow lands on a slice of the start's "
                            "launch"));
    FlowFinishCount(Rule("flow-finish-count",
                         "each flow start has as many finishes as its launch has activities"));
    NoOrphanFinish(Rule("no-orphan-finish", "no flow finish of the block without a start"));
    CheckOneProcessName(trace_, Rule("one-process-name", "every pid has exactly one process_name"));
    CheckDeviceInsideWindow(
        index_, HasCaptureWindow(trace_, options_.window_from_events),
        Rule("capture-window", "device work ends by the end of the capture window"));
  }

 private:
  RuleSink Rule(std::string id, std::string description) {
    return RuleSink(&report_, options_.max_examples, std::move(id), std::move(description));
  }

  // |launch_id|: the anchoring event's.
  void AddFlow(const Event& e, bool anchored, std::optional<int64_t> launch_id, bool on_marker) {
    FlowEnd end;
    end.flow = &e;
    end.anchored = anchored;
    end.launch_id = launch_id;
    end.on_marker = on_marker;
    (e.flow_role == FlowRole::kStart ? starts_ : finishes_).Add(e.flow_id, end);
  }

  // Launches by launch_id, markers before activities, each in trace order: one sort of
  // (id, is activity, event) triples, which events were added in the order of.
  void GroupLaunches() {
    std::sort(launch_members_.begin(), launch_members_.end());
    launch_events_.reserve(launch_members_.size());
    for (const auto& member : launch_members_)
      launch_events_.push_back(std::get<2>(member));
    for (size_t begin = 0; begin < launch_members_.size();) {
      const int64_t id = std::get<0>(launch_members_[begin]);
      size_t split = begin;
      while (split < launch_members_.size() && std::get<0>(launch_members_[split]) == id &&
             !std::get<1>(launch_members_[split]))
        ++split;
      size_t end = split;
      while (end < launch_members_.size() && std::get<0>(launch_members_[end]) == id)
        ++end;
      const std::span<const size_t> events(launch_events_);
      launches_.emplace_back(
          id, Launch{events.subspan(begin, split - begin), events.subspan(split, end - split)});
      begin = end;
    }
    ReleaseMemory(launch_members_);
  }

  const Launch* FindLaunch(int64_t id) const {
    auto it = std::lower_bound(launches_.begin(), launches_.end(), id,
                               [](const auto& entry, int64_t key) { return entry.first < key; });
    return it != launches_.end() && it->first == id ? &it->second : nullptr;
  }

  // The test matches a start to a marker within 1 ns on its pid/tid; the importer anchors flows
  // only at the exact ts, so an unanchored start near a marker without one still counts as its.
  void MatchUnanchoredStarts() {
    // (pid, tid, ts, event) of the markers that could take one, built only when needed.
    std::vector<std::tuple<int64_t, int64_t, int64_t, size_t>> free_markers;
    for (auto& [id, list] : starts_) {
      for (FlowEnd& start : list) {
        if (start.anchored)
          continue;
        if (free_markers.empty()) {
          for (size_t m : markers_) {
            const Event& e = events_[m];
            if (index_.LaunchId(m) && !HasBlockStart(e))
              free_markers.emplace_back(e.pid, e.tid, e.ts_ns, m);
          }
          std::sort(free_markers.begin(), free_markers.end());
        }
        const Event& f = *start.flow;
        auto it = std::lower_bound(free_markers.begin(), free_markers.end(),
                                   std::make_tuple(f.pid, f.tid, f.ts_ns - 1, size_t{0}));
        for (; it != free_markers.end() && std::get<0>(*it) == f.pid && std::get<1>(*it) == f.tid &&
               std::get<2>(*it) <= f.ts_ns + 1;
             ++it) {
          const size_t m = std::get<3>(*it);
          if (matched_markers_.insert(m).second) {
            start.launch_id = index_.LaunchId(m);
            start.on_marker = true;
            break;
          }
        }
      }
    }
  }

  static bool HasBlockStart(const Event& e) {
    return e.flow_role == FlowRole::kStart && InFlowBlock(e.flow_id);
  }

  void NpuRow(RuleSink sink) {
    if (npu_pids_.empty())
      sink.Violation("no process_name starts with \"NPU \": the trace has no device row");
  }

  void MinLaunches(RuleSink sink) {
    const auto count = static_cast<int64_t>(launches_.size());
    if (count < options_.min_launches) {
      sink.Violation(std::to_string(count) + " launch" + (count == 1 ? "" : "es") +
                     " (distinct launch_id on slices), at least " +
                     std::to_string(options_.min_launches) + " expected");
    }
  }

  void OneMarkerPerLaunch(RuleSink sink) {
    for (size_t m : markers_) {
      if (!index_.LaunchId(m))
        sink.Violation(events_[m], "marker has no integer launch_id");
    }
    for (const auto& [id, launch] : launches_) {
      if (launch.markers.empty()) {
        sink.Violation(events_[launch.activities.front()], "launch has no \"rbln launch\" marker");
      }
      for (size_t k = 1; k < launch.markers.size(); ++k) {
        sink.Violation(events_[launch.markers[k]],
                       "launch has " + std::to_string(launch.markers.size()) + " markers");
      }
    }
    if (launches_.empty() && markers_.empty())
      sink.NotApplicable("0 launches, 0 markers");
  }

  // Per row holding markers, a sweep over its host slices by start keeps the furthest end seen,
  // so a marker is enclosed when that end reaches it: one sort per row, however many markers.
  void MarkerInsideHostOp(RuleSink sink) {
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> spans;
    for (size_t m : markers_)
      spans.try_emplace({events_[m].pid, events_[m].tid});
    for (size_t i = 0; i < events_.size(); ++i) {
      const Event& e = events_[i];
      if (e.phase != trace::Phase::kComplete || e.dur_ns <= 0 || e.name == kCurrentMarkerName)
        continue;
      if (!options_.launcher_contains.empty() &&
          e.name.find(options_.launcher_contains) == std::string::npos) {
        continue;
      }
      auto row = spans.find({e.pid, e.tid});
      if (row != spans.end())
        row->second.emplace_back(e.ts_ns, e.end_ns());
    }
    std::vector<size_t> order = markers_;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::tie(events_[a].pid, events_[a].tid, events_[a].ts_ns, a) <
             std::tie(events_[b].pid, events_[b].tid, events_[b].ts_ns, b);
    });
    for (auto& [row, list] : spans)
      std::sort(list.begin(), list.end());
    std::pair<int64_t, int64_t> row{};
    size_t next = 0;
    int64_t furthest_end = 0;
    bool any = false;
    for (size_t k = 0; k < order.size(); ++k) {
      const Event& m = events_[order[k]];
      if (k == 0 || row != std::pair<int64_t, int64_t>(m.pid, m.tid)) {
        row = {m.pid, m.tid};
        next = 0;
        any = false;
      }
      const auto& list = spans[row];
      for (; next < list.size() && list[next].first <= m.ts_ns; ++next) {
        furthest_end = any ? std::max(furthest_end, list[next].second) : list[next].second;
        any = true;
      }
      if (!any || furthest_end < m.ts_ns)
        sink.Violation(m, options_.launcher_contains.empty()
                              ? "no host slice with dur > 0 on its pid/tid encloses it"
                              : "no slice named *" + options_.launcher_contains +
                                    "* with dur > 0 on its pid/tid encloses it");
    }
    if (markers_.empty())
      sink.NotApplicable("0 markers");
  }

  void ActivityBesidesMarker(RuleSink sink) {
    size_t checked = 0;
    for (const auto& [id, launch] : launches_) {
      if (launch.markers.empty())
        continue;
      ++checked;
      if (launch.activities.empty())
        sink.Violation(events_[launch.markers.front()],
                       "launch has no activity besides its marker");
    }
    if (checked == 0)
      sink.NotApplicable("0 launches with a marker");
  }

  void ActivityOnMatchingLane(RuleSink sink) {
    size_t checked = 0;
    for (const auto& [id, launch] : launches_) {
      for (size_t i : launch.activities) {
        ++checked;
        const Event& e = events_[i];
        const std::optional<LaneKind> want = LaneOfCategory(e.category);
        auto lane = lanes_.find({e.pid, e.tid});
        if (lane == lanes_.end()) {
          sink.Violation(e, npu_pids_.count(e.pid) > 0
                                ? "its lane " + std::to_string(e.pid) + "/" +
                                      std::to_string(e.tid) + " has no thread_name"
                                : "not on an NPU row");
        } else if (!want) {
          sink.Violation(e, "cat " + Quoted(e.cat()) + " belongs in no NPU lane");
        } else if (lane->second != LaneName(*want)) {
          sink.Violation(e, "sits in lane " + Quoted(lane->second) + ", its cat belongs in " +
                                Quoted(LaneName(*want)));
        }
      }
    }
    if (checked == 0)
      sink.NotApplicable("0 activities");
  }

  void ActivityAfterMarker(RuleSink sink) {
    size_t checked = 0;
    for (const auto& [id, launch] : launches_) {
      if (launch.markers.empty())
        continue;  // one-marker-per-launch reports it
      const int64_t marker_ts = events_[launch.markers.front()].ts_ns;
      for (size_t i : launch.activities) {
        ++checked;
        if (events_[i].ts_ns < marker_ts) {
          sink.Violation(events_[i],
                         "starts " + NsText(marker_ts - events_[i].ts_ns) + " before its marker");
        }
      }
    }
    if (checked == 0)
      sink.NotApplicable("0 activities of a launch with a marker");
  }

  void KernelLaunches(RuleSink sink) {
    int64_t with_kernel = 0;
    for (const auto& [id, launch] : launches_) {
      with_kernel += std::any_of(launch.activities.begin(), launch.activities.end(), [&](size_t i) {
        return events_[i].category == Category::kKernel;
      });
    }
    if (with_kernel < options_.min_launches) {
      sink.Violation(std::to_string(with_kernel) + " launch" + (with_kernel == 1 ? "" : "es") +
                     " ran a kernel activity, at least " + std::to_string(options_.min_launches) +
                     " expected");
    }
  }

  void FlowStartAtMarker(RuleSink sink) {
    for (size_t m : markers_) {
      const Event& e = events_[m];
      if (!index_.LaunchId(m)) {
        if (HasBlockStart(e))
          sink.Violation(e, "flow start " + FlowText(e.flow_id) + " on a marker without launch_id");
        continue;  // one-marker-per-launch reports the marker itself
      }
      if (HasBlockStart(e) || matched_markers_.count(m) > 0)
        continue;
      if (e.flow_role == FlowRole::kStart) {
        sink.Violation(e, "its flow start " + FlowText(e.flow_id) +
                              " lies outside the rbln block [" + FlowText(kFlowBlockBegin) + ", " +
                              FlowText(kFlowBlockEnd) + ")");
      } else if (e.flow_role == FlowRole::kFinish) {
        sink.Violation(e, "marker carries a flow finish instead of a start");
      } else {
        sink.Violation(e, "marker has no ac2g flow start");
      }
    }
    for (const auto& [id, list] : starts_) {
      for (const FlowEnd& start : list) {
        if (start.on_marker || (start.anchored && start.flow->name == kCurrentMarkerName))
          continue;
        sink.Violation(*start.flow, "flow start " + FlowText(id) +
                                        (start.anchored ? " on an event that is not a marker"
                                                        : " is anchored on no event"));
      }
    }
    if (markers_.empty() && starts_.empty())
      sink.NotApplicable("0 markers, 0 flow starts in the rbln block");
  }

  void FlowIdsUnique(RuleSink sink) {
    for (const auto& [id, list] : starts_) {
      for (size_t k = 1; k < list.size(); ++k) {
        sink.Violation(*list[k].flow, "flow id " + FlowText(id) + " has " +
                                          std::to_string(list.size()) + " starts");
      }
    }
    if (starts_.empty())
      sink.NotApplicable("0 flow starts in the rbln block");
  }

  // The launch a flow id starts from: its first start, when that sits on a marker.
  std::optional<int64_t> LaunchOfFlow(uint64_t id) const {
    auto it = starts_.find(id);
    if (it == starts_.end() || !it->second.front().on_marker)
      return std::nullopt;
    return it->second.front().launch_id;
  }

  void FlowFinishOnLaunch(RuleSink sink) {
    size_t checked = 0;
    for (const auto& [id, list] : finishes_) {
      const std::optional<int64_t> want = LaunchOfFlow(id);
      if (!want)
        continue;  // no-orphan-finish / flow-start-at-marker report it
      for (const FlowEnd& finish : list) {
        ++checked;
        if (!finish.anchored) {
          sink.Violation(*finish.flow, "finish of flow " + FlowText(id) + " lands on no slice");
        } else if (finish.launch_id != want) {
          sink.Violation(*finish.flow,
                         "finish of flow " + FlowText(id) + " lands on launch " +
                             (finish.launch_id ? std::to_string(*finish.launch_id) : "(none)") +
                             ", its start is on launch " + std::to_string(*want));
        }
      }
    }
    if (checked == 0)
      sink.NotApplicable("0 finishes of a flow started on a marker");
  }

  void FlowFinishCount(RuleSink sink) {
    size_t checked = 0;
    for (const auto& [id, list] : starts_) {
      const std::optional<int64_t> launch_id = LaunchOfFlow(id);
      if (!launch_id)
        continue;
      ++checked;
      const Launch* launch = FindLaunch(*launch_id);
      const size_t want = launch == nullptr ? 0 : launch->activities.size();
      auto finishes = finishes_.find(id);
      const size_t got = finishes == finishes_.end() ? 0 : finishes->second.size();
      if (got != want) {
        sink.Violation(*list.front().flow, "flow " + FlowText(id) + " has " + std::to_string(got) +
                                               " finish" + (got == 1 ? "" : "es") + " for " +
                                               std::to_string(want) + " activities of launch " +
                                               std::to_string(*launch_id));
      }
    }
    if (checked == 0)
      sink.NotApplicable("0 flow starts on a marker");
  }

  void NoOrphanFinish(RuleSink sink) {
    for (const auto& [id, list] : finishes_) {
      if (starts_.count(id) > 0)
        continue;
      for (const FlowEnd& finish : list)
        sink.Violation(*finish.flow, "finish of flow " + FlowText(id) + " has no start");
    }
    if (finishes_.empty())
      sink.NotApplicable("0 flow finishes in the rbln block");
  }

  const index::TraceIndex& index_;
  const trace::Trace& trace_;
  const std::vector<Event>& events_;
  const CheckOptions& options_;
  CheckReport& report_;
  std::set<int64_t> npu_pids_;
  std::map<std::pair<int64_t, int64_t>, std::string> lanes_;       // NPU (pid, tid) -> thread_name
  std::vector<size_t> markers_;                                    // "rbln launch" slices
  std::vector<std::tuple<int64_t, bool, size_t>> launch_members_;  // until GroupLaunches
  std::vector<size_t> launch_events_;                              // what the launches' spans view
  std::vector<std::pair<int64_t, Launch>> launches_;               // by launch_id, ascending
  index::Grouped<uint64_t, FlowEnd> starts_;                       // in-block flows by id
  index::Grouped<uint64_t, FlowEnd> finishes_;
  std::set<size_t> matched_markers_;  // markers whose start the importer left unanchored
};

}  // namespace

void CheckCurrentContract(const index::TraceIndex& index,
                          const CheckOptions& options,
                          CheckReport* report) {
  CurrentChecker(index, options, report).Run();
}

}  // namespace rblnsim::analysis
