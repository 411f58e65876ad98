#include "profiler/analysis/launch_latency.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "base/concurrent_task.h"
#include "base/sorted_runs.h"
#include "profiler/analysis/dialect_rules.h"

namespace rblnsim::analysis {

namespace {

using trace::Category;
using trace::Event;

// Nearest rank of percentile |p| (1..100) among |n| sorted values, as a 0-based index.
size_t RankIndex(size_t n, size_t p) {
  const size_t rank = (p * n + 99) / 100;  // ceil(p/100 * n) in integers: no rounding surprises
  return rank == 0 ? 0 : rank - 1;
}

// From this many launches on, the idle breakdown is computed on a second thread.
constexpr size_t kLaunchesForIdleThread = 4096;

struct SliceRef {
  int64_t launch_id;
  int64_t start_ns;
  int64_t end_ns;
  // Total, for SortAlmostSorted; a launch's first start and last end do not depend on it.
  bool operator<(const SliceRef& o) const {
    return std::tie(launch_id, start_ns, end_ns) < std::tie(o.launch_id, o.start_ns, o.end_ns);
  }
};

// Markers become launches with their launching op; a second marker of one launch_id is counted
// and dropped (the contract checks report it as a rule violation).
void CollectLaunches(const index::TraceIndex& index, LatencyReport* report) {
  const trace::Trace& trace = index.trace();
  const index::HostForest& forest = index.forest();
  std::vector<uint32_t> op_of_name(index.names().size(), index::kNone);
  report->op_names.assign(1, "(no launching op)");
  // One record per launch, reserved once: a long capture has hundreds of thousands.
  report->launches.reserve(static_cast<size_t>(
      std::count(forest.kind.begin(), forest.kind.end(), index::HostKind::kMarker)));
  for (uint32_t pos = 0; pos < forest.size(); ++pos) {
    if (forest.kind[pos] != index::HostKind::kMarker)
      continue;
    const Event& e = trace.events[forest.event[pos]];
    const std::optional<int64_t> id = index.LaunchId(forest.event[pos]);
    if (!id) {
      ++report->markers_without_launch_id;
      continue;
    }
    LaunchLatency l;
    l.launch_id = *id;
    l.marker_start_ns = e.ts_ns;
    l.marker_end_ns = e.end_ns();
    l.op_start_ns = e.ts_ns;
    const uint32_t launcher = forest.Launcher(pos);
    if (launcher != index::kNone) {
      uint32_t& op = op_of_name[forest.name[launcher]];
      if (op == index::kNone) {
        op = static_cast<uint32_t>(report->op_names.size());
        report->op_names.emplace_back(index.names().text(forest.name[launcher]));
      }
      l.op = op;
      l.op_start_ns = trace.events[forest.event[launcher]].ts_ns;
    }
    report->launches.push_back(l);
  }
  auto& launches = report->launches;
  std::sort(launches.begin(), launches.end(), [](const LaunchLatency& a, const LaunchLatency& b) {
    return std::tie(a.launch_id, a.marker_start_ns) < std::tie(b.launch_id, b.marker_start_ns);
  });
  const size_t before = launches.size();
  launches.erase(std::unique(launches.begin(), launches.end(),
                             [](const LaunchLatency& a, const LaunchLatency& b) {
                               return a.launch_id == b.launch_id;
                             }),
                 launches.end());
  report->duplicate_markers = static_cast<int64_t>(before - launches.size());
}

// Joins device slices to launches (both sorted by launch_id) for first start / last end.
void JoinDeviceSlices(const index::TraceIndex& index, LatencyReport* report) {
  const index::EventColumns& columns = index.events();
  auto joined = [&columns](size_t i) {
    return columns.Has(i, index::kDeviceSlice) && columns.Has(i, index::kHasLaunchId);
  };
  // Only the launch ids' order matters (a launch's first start and last end do not depend on
  // the order of its slices), and launches that do not overlap leave their slices in launch
  // order: then the events are read where they are, without a sorted copy of every slice (six
  // million in a 10^6-launch run, beside the idle breakdown's own rows).
  size_t count = 0;
  bool in_launch_order = true;
  int64_t last_id = std::numeric_limits<int64_t>::min();
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!joined(i))
      continue;
    ++count;
    in_launch_order = in_launch_order && columns.id[i] >= last_id;
    last_id = columns.id[i];  // the launch id: joined(i)
  }
  // Slices in launch-id order against the launches (in id order, one each): a launch passed by
  // the slices is done.
  auto launch = report->launches.begin();
  const auto launches_end = report->launches.end();
  auto add = [&](const SliceRef& slice) {
    for (; launch != launches_end && launch->launch_id < slice.launch_id; ++launch)
      report->launches_without_device += launch->has_device() ? 0 : 1;
    if (launch == launches_end || launch->launch_id != slice.launch_id) {
      ++report->slices_without_marker;
      return;
    }
    if (launch->device_slices == 0 || slice.start_ns < launch->first_device_start_ns)
      launch->first_device_start_ns = slice.start_ns;
    if (launch->device_slices == 0 || slice.end_ns > launch->last_device_end_ns)
      launch->last_device_end_ns = slice.end_ns;
    ++launch->device_slices;
  };
  auto ref_of = [&](size_t i) {
    const Event& e = index.event(i);
    return SliceRef{columns.id[i], e.ts_ns, e.end_ns()};
  };
  if (in_launch_order) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (joined(i))
        add(ref_of(i));
    }
  } else {
    std::vector<SliceRef> slices;
    slices.reserve(count);
    for (size_t i = 0; i < columns.size(); ++i) {
      if (joined(i))
        slices.push_back(ref_of(i));
    }
    SortAlmostSorted(&slices);
    for (const SliceRef& slice : slices)
      add(slice);
  }
  for (; launch != launches_end; ++launch)
    report->launches_without_device += launch->has_device() ? 0 : 1;
}

void Summarize(const LatencyOptions& options, LatencyReport* report) {
  const auto& launches = report->launches;
  std::vector<int64_t> submission;
  std::vector<int64_t> delay;
  // (op, submission, delay) rows grouped by op with one sort.
  std::vector<std::tuple<uint32_t, int64_t, int64_t>> by_op;
  for (const LaunchLatency& l : launches) {
    if (!l.has_device())
      continue;
    submission.push_back(l.submission_latency_ns());
    delay.push_back(l.launch_delay_ns());
    by_op.emplace_back(l.op, l.submission_latency_ns(), l.launch_delay_ns());
  }
  report->submission = ComputePercentiles(&submission);
  report->launch_delay = ComputePercentiles(&delay);
  std::sort(by_op.begin(), by_op.end());
  for (size_t i = 0; i < by_op.size();) {
    size_t j = i;
    std::vector<int64_t> sub;
    std::vector<int64_t> del;
    for (; j < by_op.size() && std::get<0>(by_op[j]) == std::get<0>(by_op[i]); ++j) {
      sub.push_back(std::get<1>(by_op[j]));
      del.push_back(std::get<2>(by_op[j]));
    }
    report->per_op.push_back({report->op_names[std::get<0>(by_op[i])], ComputePercentiles(&sub),
                              ComputePercentiles(&del)});
    i = j;
  }
  std::sort(
      report->per_op.begin(), report->per_op.end(), [](const OpLatency& a, const OpLatency& b) {
        return a.submission.count != b.submission.count ? a.submission.count > b.submission.count
                                                        : a.op < b.op;
      });

  report->outlier_threshold_is_p99 = !options.outlier_threshold_ns.has_value();
  report->outlier_threshold_ns = options.outlier_threshold_ns.value_or(report->submission.p99_ns);
  std::vector<size_t> slow;
  for (size_t i = 0; i < launches.size(); ++i) {
    if (launches[i].has_device() &&
        launches[i].submission_latency_ns() > report->outlier_threshold_ns) {
      slow.push_back(i);
    }
  }
  std::sort(slow.begin(), slow.end(), [&](size_t a, size_t b) {
    return std::make_tuple(-launches[a].submission_latency_ns(), launches[a].marker_start_ns) <
           std::make_tuple(-launches[b].submission_latency_ns(), launches[b].marker_start_ns);
  });
  report->outlier_count = static_cast<int64_t>(slow.size());
  if (slow.size() > options.max_outliers)
    slow.resize(options.max_outliers);
  report->outliers = std::move(slow);
}

}  // namespace

std::vector<std::string> LatencyArgKeys() {
  return {std::string(kLaunchIdArg)};
}

Percentiles ComputePercentiles(std::vector<int64_t>* values) {
  Percentiles p;
  if (values->empty())
    return p;
  std::sort(values->begin(), values->end());
  const size_t n = values->size();
  p.count = static_cast<int64_t>(n);
  p.p50_ns = (*values)[RankIndex(n, 50)];
  p.p90_ns = (*values)[RankIndex(n, 90)];
  p.p99_ns = (*values)[RankIndex(n, 99)];
  p.max_ns = values->back();
  return p;
}

LatencyReport AnalyzeLaunchLatency(const index::TraceIndex& index, const LatencyOptions& options) {
  const trace::Trace& trace = index.trace();
  LatencyReport report;
  report.window_start_ns = trace.capture_start_ns;
  report.window_end_ns = trace.capture_end_ns;
  report.marker_name = MarkerNameOf(index.DetectedDialect());
  CollectLaunches(index, &report);
  // The idle breakdown needs only each launch's marker (launches are in id order here), so on a
  // large trace it is computed on a second thread while the rest of the report is.
  const std::vector<std::pair<int64_t, int64_t>> marker_by_id = MarkerStartsById(report.launches);
  ConcurrentTask idle;
  idle.StartIf(marker_by_id.size() >= kLaunchesForIdleThread, [&] {
    report.idle = ComputeIdleBreakdown(index, marker_by_id, options.back_to_back_ns);
  });
  JoinDeviceSlices(index, &report);
  std::sort(report.launches.begin(), report.launches.end(),
            [](const LaunchLatency& a, const LaunchLatency& b) {
              return std::tie(a.marker_start_ns, a.launch_id) <
                     std::tie(b.marker_start_ns, b.launch_id);
            });
  Summarize(options, &report);
  FillQueueSeries(&report);
  idle.Wait();
  if (report.window_end_ns <= report.window_start_ns) {
    // No capture window in the trace: the span of its events stands in.
    bool any = false;
    for (const Event& e : trace.events) {
      if (!any || e.ts_ns < report.window_start_ns)
        report.window_start_ns = e.ts_ns;
      if (!any || e.end_ns() > report.window_end_ns)
        report.window_end_ns = e.end_ns();
      any = true;
    }
  }
  return report;
}

}  // namespace rblnsim::analysis
