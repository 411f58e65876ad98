#include "profiler/diff/trace_summary.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "profiler/analysis/fallback_detect.h"
#include "profiler/report/key_averages.h"

namespace rblnsim::diff {

namespace {

void AddOpTotals(const index::TraceIndex& index, TraceSummary* summary) {
  // Device rows are the commands: the device section holds them by family.
  const report::KeyAverages averages = report::ComputeKeyAverages(
      index, report::Attribution::kAttributed, report::KeyAverageRows::kHostOnly);
  for (const report::KeyAverage& row : averages.rows) {
    summary->op_names.emplace_back(row.name);
    OpTotals totals;
    totals.calls = row.count;
    totals.self_cpu_ns = row.self_cpu_ns;
    totals.cpu_total_ns = row.cpu_total_ns;
    totals.device_ns = row.self_device_ns;
    summary->ops.push_back(totals);
  }
}

void AddOpLaunches(const analysis::LatencyReport& latency, TraceSummary* summary) {
  std::unordered_map<std::string, size_t> position;
  for (size_t i = 0; i < summary->op_names.size(); ++i)
    position.emplace(summary->op_names[i], i);
  std::vector<int64_t> launches_per_name(latency.op_names.size(), 0);
  std::vector<int64_t> slices_per_name(latency.op_names.size(), 0);
  for (const analysis::LaunchLatency& launch : latency.launches) {
    ++launches_per_name[launch.op];
    slices_per_name[launch.op] += launch.device_slices;
  }
  for (size_t n = 0; n < latency.op_names.size(); ++n) {
    if (launches_per_name[n] == 0)
      continue;
    auto found = position.find(latency.op_names[n]);
    if (found == position.end()) {
      // Launches made outside any op: a row of their own, so none go uncounted.
      found = position.emplace(latency.op_names[n], summary->op_names.size()).first;
      summary->op_names.push_back(latency.op_names[n]);
      summary->ops.emplace_back();
    }
    summary->ops[found->second].launches = launches_per_name[n];
    summary->ops[found->second].device_slices = slices_per_name[n];
  }
}

void AddLaunches(const analysis::LatencyReport& latency, TraceSummary* summary) {
  summary->launches = static_cast<int64_t>(latency.launches.size());
  summary->launches_without_device = latency.launches_without_device;
  summary->submission = latency.submission;
  summary->launch_delay = latency.launch_delay;
  for (const analysis::OpLatency& op : latency.per_op)
    summary->per_op_launches[op.op] = {op.submission, op.launch_delay};
  for (const analysis::LaunchLatency& launch : latency.launches) {
    if (launch.has_device())
      summary->submission_sorted_ns.push_back(launch.submission_latency_ns());
  }
  std::sort(summary->submission_sorted_ns.begin(), summary->submission_sorted_ns.end());
  summary->queue_max = latency.queue_max;
  summary->idle = latency.idle;
}

void AddHidden(const index::TraceIndex& index, TraceSummary* summary) {
  const analysis::OverheadReport overhead = analysis::DetectOverhead(index);
  summary->wall_ns = overhead.wall_ns;
  summary->host_ns = overhead.host_ns;
  for (const analysis::DetectedFallback& fb : overhead.fallbacks)
    ++summary->hidden[{HiddenKind::kFallback, fb.op, analysis::FallbackCauseName(fb.cause)}];
  for (const analysis::DetectedRecompile& rc : overhead.recompiles) {
    ++summary->hidden[{HiddenKind::kRecompile, rc.op,
                       rc.failed         ? "failed"
                       : rc.eviction     ? "eviction"
                       : rc.new_instance ? "new instance"
                                         : "compile"}];
  }
  for (const analysis::DetectedRoundTrip& rt : overhead.round_trips) {
    ++summary->hidden[{HiddenKind::kRoundTrip, rt.op,
                       std::string(rt.to_host ? "to host, " : "to device, ") +
                           analysis::BounceCauseName(rt.cause)}];
  }
  for (const auto& [op, count] : overhead.scans_by_op)
    summary->hidden[{HiddenKind::kScan, op, ""}] += count;
  summary->fallbacks = static_cast<int64_t>(overhead.fallbacks.size());
  summary->recompiles = static_cast<int64_t>(overhead.recompiles.size());
  summary->round_trips = static_cast<int64_t>(overhead.round_trips.size());
  summary->scans = overhead.scans;
}

void AddDevice(const index::TraceIndex& index, TraceSummary* summary) {
  const trace::Trace& trace = index.trace();
  const index::EventColumns& columns = index.events();
  // Sums per (row, category) and per name first: millions of slices share a few rows and names,
  // so the string-keyed maps are filled once per row and name, not once per slice.
  constexpr size_t kCategories = static_cast<size_t>(trace::Category::kOther) + 1;
  std::vector<DeviceTotals> by_row(index.rows().size() * kCategories);
  std::vector<DeviceTotals> by_name(index.names().size());
  std::vector<std::string_view> row_class(by_row.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!columns.Has(i, index::kDeviceWork))
      continue;
    const trace::Event& e = index.event(i);
    const size_t slot = columns.row[i] * kCategories + static_cast<size_t>(e.category);
    if (by_row[slot].slices == 0) {
      // The class: the current dialect's lane kind, else the one the category names.
      std::string_view cls = "other";
      if (const std::optional<trace::LaneKind> lane = index.LaneOf(i))
        cls = trace::LaneName(static_cast<int64_t>(*lane));
      else if (const std::optional<int64_t> tid = trace::LaneForCategory(e.category))
        cls = trace::LaneName(*tid);
      row_class[slot] = cls;
    }
    for (DeviceTotals* totals : {&by_row[slot], &by_name[columns.name[i]], &summary->device}) {
      ++totals->slices;
      totals->ns += e.dur_ns;
    }
  }
  const auto add = [](DeviceTotals* to, const DeviceTotals& from) {
    to->slices += from.slices;
    to->ns += from.ns;
  };
  for (size_t slot = 0; slot < by_row.size(); ++slot) {
    if (by_row[slot].slices == 0)
      continue;
    const std::string cls(row_class[slot]);
    const auto [pid, tid] = index.rows()[slot / kCategories];
    const trace::ThreadRow* thread = trace.FindThread(pid, tid);
    const std::string_view lane_name =
        thread != nullptr ? trace::LaneClassName(thread->name) : std::string_view();
    const std::string lane = lane_name.empty() ? cls : std::string(lane_name);
    add(&summary->device_classes[cls], by_row[slot]);
    add(&summary->device_lanes[lane], by_row[slot]);
  }
  // Device command names are often distinct per launch: fold them by view, then copy each
  // family's name once.
  std::unordered_map<std::string_view, DeviceTotals> families;
  for (size_t name = 0; name < by_name.size(); ++name) {
    if (by_name[name].slices > 0)
      add(&families[CommandFamilyOf(index.names().text(name))], by_name[name]);
  }
  for (const auto& [family, totals] : families)
    summary->device_families[std::string(family)] = totals;
}

void AddSequence(const index::TraceIndex& index,
                 const analysis::LatencyReport& latency,
                 TraceSummary* summary) {
  std::unordered_map<int64_t, int64_t> latency_of;  // launch id -> submission latency
  for (const analysis::LaunchLatency& launch : latency.launches)
    latency_of.emplace(launch.launch_id, launch.has_device() ? launch.submission_latency_ns() : -1);
  const index::HostForest& forest = index.forest();
  // Sequence ids follow the index's name ids, so interning is one array lookup per node.
  std::vector<uint32_t> id_of(index.names().size(), index::kNone);
  summary->sequence_names.emplace_back(kLaunchElement);
  summary->sequence.reserve(forest.size());
  for (uint32_t node = 0; node < forest.size(); ++node) {
    if (forest.kind[node] == index::HostKind::kAnnotation)
      continue;
    if (forest.kind[node] == index::HostKind::kMarker) {
      summary->sequence.push_back(0);
      const std::optional<int64_t> id = index.LaunchId(forest.event[node]);
      const auto found = id ? latency_of.find(*id) : latency_of.end();
      summary->sequence_launch_latency_ns.push_back(found == latency_of.end() ? -1 : found->second);
      continue;
    }
    uint32_t& id = id_of[forest.name[node]];
    if (id == index::kNone) {
      id = static_cast<uint32_t>(summary->sequence_names.size());
      summary->sequence_names.emplace_back(index.names().text(forest.name[node]));
    }
    summary->sequence.push_back(id);
  }
}

}  // namespace

const char* HiddenKindName(HiddenKind kind) {
  switch (kind) {
    case HiddenKind::kFallback:
      return "fallback";
    case HiddenKind::kRecompile:
      return "recompile";
    case HiddenKind::kRoundTrip:
      return "round trip";
    case HiddenKind::kScan:
      return "nan/inf scan";
  }
  return "fallback";
}

std::string CommandFamily(std::string_view name) {
  return std::string(CommandFamilyOf(name));
}

std::string_view CommandFamilyOf(std::string_view name) {
  std::string_view key = trace::CommandKey(name);
  // Drop "_<digits>" groups from the end: "args_0_2" -> "args", "mm_1" -> "mm".
  while (true) {
    const size_t underscore = key.rfind('_');
    if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == key.size())
      break;
    const std::string_view tail = key.substr(underscore + 1);
    if (!std::all_of(tail.begin(), tail.end(), [](char c) { return c >= '0' && c <= '9'; }))
      break;
    key = key.substr(0, underscore);
  }
  return key;
}

TraceSummary Summarize(const index::TraceIndex& index, const analysis::LatencyOptions& options) {
  TraceSummary summary;
  summary.dialect = index.dialect();
  summary.events = static_cast<int64_t>(index.trace().events.size());
  // One analysis at a time where they need not coexist: the key_averages tree and the detectors'
  // arrays are freed before the latency report is built, so a large trace's peak is the trace,
  // its index and the largest of them, not their sum.
  AddOpTotals(index, &summary);
  AddHidden(index, &summary);
  AddDevice(index, &summary);
  const analysis::LatencyReport latency = analysis::AnalyzeLaunchLatency(index, options);
  AddOpLaunches(latency, &summary);
  AddLaunches(latency, &summary);
  AddSequence(index, latency, &summary);
  return summary;
}

}  // namespace rblnsim::diff
