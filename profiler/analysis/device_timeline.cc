// The device-side views of a launch report: queue length over time, HTA-style idle breakdown and
// device busy per time bucket. Each is one sort of compact rows plus a linear sweep.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "base/sorted_runs.h"
#include "profiler/analysis/launch_latency.h"

namespace rblnsim::analysis {

namespace {

using trace::Event;

constexpr int64_t kNoMarker = std::numeric_limits<int64_t>::min();

struct DeviceRow {
  int64_t pid;
  int64_t start_ns;
  int64_t end_ns;
  int64_t marker_start_ns;  // of the slice's launch; kNoMarker when it has none
  // A total order, so that SortAlmostSorted gives the one result std::sort would: of slices with
  // equal spans, the one whose launch was marked first is met first.
  bool operator<(const DeviceRow& o) const {
    return std::tie(pid, start_ns, end_ns, marker_start_ns) <
           std::tie(o.pid, o.start_ns, o.end_ns, o.marker_start_ns);
  }
};

}  // namespace

void FillQueueSeries(LatencyReport* report) {
  std::vector<std::pair<int64_t, int32_t>> steps;  // (ts, +1 / -1)
  for (const LaunchLatency& l : report->launches) {
    if (!l.has_device())
      continue;  // never picked up: it would stay queued forever
    steps.emplace_back(l.marker_start_ns, +1);
    steps.emplace_back(l.first_device_start_ns, -1);
  }
  std::sort(steps.begin(), steps.end());  // -1 sorts before +1 at equal ts
  report->queue.clear();
  report->queue_max = 0;
  int32_t length = 0;
  for (const auto& [ts, delta] : steps) {
    length += delta;
    if (!report->queue.empty() && report->queue.back().ts_ns == ts) {
      report->queue.back().length = length;
    } else {
      report->queue.push_back({ts, length});
    }
    if (length > report->queue_max) {
      report->queue_max = length;
      report->queue_max_at_ns = ts;
    }
  }
  const auto& q = report->queue;
  report->queue_mean = 0.0;
  if (q.size() >= 2 && q.back().ts_ns > q.front().ts_ns) {
    double area = 0.0;
    for (size_t i = 0; i + 1 < q.size(); ++i) {
      area += static_cast<double>(q[i].length) * static_cast<double>(q[i + 1].ts_ns - q[i].ts_ns);
    }
    report->queue_mean = area / static_cast<double>(q.back().ts_ns - q.front().ts_ns);
  }
}

std::vector<std::pair<int64_t, int64_t>> MarkerStartsById(
    const std::vector<LaunchLatency>& launches) {
  std::vector<std::pair<int64_t, int64_t>> marker_by_id;
  marker_by_id.reserve(launches.size());
  for (const LaunchLatency& l : launches)
    marker_by_id.emplace_back(l.launch_id, l.marker_start_ns);
  if (!std::is_sorted(marker_by_id.begin(), marker_by_id.end()))
    std::sort(marker_by_id.begin(), marker_by_id.end());
  return marker_by_id;
}

IdleBreakdown ComputeIdleBreakdown(const index::TraceIndex& index,
                                   const std::vector<LaunchLatency>& launches,
                                   int64_t back_to_back_ns) {
  return ComputeIdleBreakdown(index, MarkerStartsById(launches), back_to_back_ns);
}

IdleBreakdown ComputeIdleBreakdown(const index::TraceIndex& index,
                                   const std::vector<std::pair<int64_t, int64_t>>& marker_by_id,
                                   int64_t back_to_back_ns) {
  const index::EventColumns& columns = index.events();
  // Counted first: grown by doubling, the array of a trace's every device slice was the largest
  // allocation of an analysis, old and new copies alive together.
  size_t device_slices = 0;
  for (size_t i = 0; i < columns.size(); ++i)
    device_slices += columns.Has(i, index::kDeviceSlice) ? 1 : 0;
  std::vector<DeviceRow> rows;
  rows.reserve(device_slices);
  auto last = marker_by_id.end();
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!columns.Has(i, index::kDeviceSlice))
      continue;
    const Event& e = index.event(i);
    int64_t marker = kNoMarker;
    if (std::optional<int64_t> id = index.LaunchId(i)) {
      // A launch's slices come together, and launches in id order: the last launch looked up,
      // or the one after it, is almost always the one; only a miss pays for a search.
      if (last == marker_by_id.end() || last->first != *id) {
        if (last != marker_by_id.end() && last + 1 != marker_by_id.end() &&
            (last + 1)->first == *id) {
          ++last;
        } else {
          last = std::lower_bound(marker_by_id.begin(), marker_by_id.end(),
                                  std::make_pair(*id, std::numeric_limits<int64_t>::min()));
        }
      }
      if (last != marker_by_id.end() && last->first == *id)
        marker = last->second;
    }
    rows.push_back({e.pid, e.ts_ns, e.end_ns(), marker});
  }
  // Slices come in start order per device, so this is one pass in the usual case.
  SortAlmostSorted(&rows);
  IdleBreakdown idle;
  int64_t idle_total = 0;
  for (size_t i = 0; i < rows.size();) {
    // One device (pid): gaps between the union of its slices.
    const int64_t first_start = rows[i].start_ns;
    int64_t prev_end = rows[i].end_ns;
    size_t j = i + 1;
    for (; j < rows.size() && rows[j].pid == rows[i].pid; ++j) {
      const DeviceRow& r = rows[j];
      const int64_t gap = r.start_ns - prev_end;
      if (gap > 0) {
        ++idle.gaps;
        idle_total += gap;
        if (r.marker_start_ns != kNoMarker && r.marker_start_ns > prev_end) {
          idle.host_wait_ns += gap;
        } else if (gap < back_to_back_ns) {
          idle.device_wait_ns += gap;
        } else {
          idle.other_ns += gap;
        }
      }
      prev_end = std::max(prev_end, r.end_ns);
    }
    idle.span_ns += prev_end - first_start;
    i = j;
  }
  idle.busy_ns = idle.span_ns - idle_total;
  return idle;
}

BusySeries DeviceBusyOverTime(const trace::Trace& trace,
                              int64_t window_start_ns,
                              int64_t window_end_ns,
                              int buckets) {
  BusySeries series;
  if (buckets <= 0 || window_end_ns <= window_start_ns)
    return series;
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const Event& e : trace.events) {
    if (IsDeviceSlice(e) && e.dur_ns > 0)
      spans.emplace_back(e.ts_ns, e.end_ns());
  }
  std::sort(spans.begin(), spans.end());
  const double width = static_cast<double>(window_end_ns - window_start_ns) / buckets;
  std::vector<double> covered(static_cast<size_t>(buckets), 0.0);
  // Adds [a, b) (ns relative to the window start) to the buckets it overlaps.
  auto add = [&](double a, double b) {
    a = std::max(a, 0.0);
    b = std::min(b, width * buckets);
    for (int k = static_cast<int>(a / width); a < b && k < buckets; ++k) {
      const double bucket_end = width * (k + 1);
      covered[static_cast<size_t>(k)] += std::min(b, bucket_end) - a;
      a = bucket_end;
    }
  };
  bool open = false;
  int64_t cur_start = 0;
  int64_t cur_end = 0;
  for (const auto& [start, end] : spans) {
    if (open && start <= cur_end) {
      cur_end = std::max(cur_end, end);
      continue;
    }
    if (open)
      add(cur_start - window_start_ns, cur_end - window_start_ns);
    open = true;
    cur_start = start;
    cur_end = end;
  }
  if (open)
    add(cur_start - window_start_ns, cur_end - window_start_ns);
  for (int k = 0; k < buckets; ++k) {
    series.x_ms.push_back(width * k / 1e6);
    series.busy_fraction.push_back(std::min(1.0, covered[static_cast<size_t>(k)] / width));
  }
  return series;
}

}  // namespace rblnsim::analysis
