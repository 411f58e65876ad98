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
  // The submission and delay values grouped by op (a counting sort): each op's run is sorted for
  // its percentiles, then the whole array for the overall ones. Two arrays of one value per
  // launch, and nothing grown by doubling: a 10^6-launch trace has a million of each.
  std::vector<size_t> op_begin(report->op_names.size() + 1, 0);
  for (const LaunchLatency& l : launches) {
    if (l.has_device())
      ++op_begin[l.op + 1];
  }
  for (size_t op = 1; op < op_begin.size(); ++op)
    op_begin[op] += op_begin[op - 1];
  const size_t with_device = op_begin.back();
  std::vector<int64_t> submission(with_device);
  std::vector<int64_t> delay(with_device);
  {
    std::vector<size_t> next(op_begin.begin(), op_begin.end() - 1);
    for (const LaunchLatency& l : launches) {
      if (!l.has_device())
        continue;
      const size_t at = next[l.op]++;
      submission[at] = l.submission_latency_ns();
      delay[at] = l.launch_delay_ns();
    }
  }
  for (size_t op = 0; op + 1 < op_begin.size(); ++op) {
    const size_t begin = op_begin[op];
    const size_t count = op_begin[op + 1] - begin;
    if (count == 0)
      continue;
    std::sort(submission.begin() + begin, submission.begin() + begin + count);
    std::sort(delay.begin() + begin, delay.begin() + begin + count);
    report->per_op.push_back({report->op_names[op], PercentilesOfSorted(&submission[begin], count),
                              PercentilesOfSorted(&delay[begin], count)});
  }
  report->submission = ComputePercentiles(&submission);
  report->launch_delay = ComputePercentiles(&delay);
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
  std::sort(values->begin(), values->end());
  return PercentilesOfSorted(values->data(), values->size());
}

Percentiles PercentilesOfSorted(const int64_t* sorted, size_t count) {
  Percentiles p;
  if (count == 0)
    return p;
  p.count = static_cast<int64_t>(count);
  p.p50_ns = sorted[RankIndex(count, 50)];
  p.p90_ns = sorted[RankIndex(count, 90)];
  p.p99_ns = sorted[RankIndex(count, 99)];
  p.max_ns = sorted[count - 1];
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
  FillQueueSeries(&report, options.keep_queue_series);
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
