// The device-side views of a launch report: queue length over time, HTA-style idle breakdown and
// device busy per time bucket. Each is one sort of compact rows plus a linear sweep.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
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

void FillQueueSeries(LatencyReport* report, bool keep_series) {
  // The +1 steps (marker starts) and the -1 steps (first device starts), each sorted, merged in
  // one pass: no array of all steps, and the series itself only when it is kept.
  std::vector<int64_t> starts;
  std::vector<int64_t> picked;
  for (const LaunchLatency& l : report->launches) {
    if (!l.has_device())
      continue;  // never picked up: it would stay queued forever
    starts.push_back(l.marker_start_ns);
    picked.push_back(l.first_device_start_ns);
  }
  SortAlmostSorted(&starts);
  SortAlmostSorted(&picked);
  report->queue.clear();
  report->queue_points = 0;
  report->queue_max = 0;
  report->queue_mean = 0.0;
  // A point is (ts, the length once every step at ts is applied).
  int64_t first_ts = 0;
  int64_t point_ts = 0;
  int32_t point_length = 0;
  double area = 0.0;
  auto add_point = [&](int64_t ts, int32_t length) {
    if (report->queue_points == 0)
      first_ts = ts;
    else
      area += static_cast<double>(point_length) * static_cast<double>(ts - point_ts);
    ++report->queue_points;
    point_ts = ts;
    point_length = length;
    if (keep_series)
      report->queue.push_back({ts, length});
    // Within one ts the -1 steps come first, so the length is highest once all are applied.
    if (length > report->queue_max) {
      report->queue_max = length;
      report->queue_max_at_ns = ts;
    }
  };
  int32_t length = 0;
  size_t s = 0;
  size_t p = 0;
  while (s < starts.size() || p < picked.size()) {
    // At equal timestamps a start of device work is applied before a new marker.
    const bool pick = p < picked.size() && (s == starts.size() || picked[p] <= starts[s]);
    const int64_t ts = pick ? picked[p] : starts[s];
    length += pick ? -1 : +1;
    pick ? ++p : ++s;
    const bool more_at_ts =
        (p < picked.size() && picked[p] == ts) || (s < starts.size() && starts[s] == ts);
    if (!more_at_ts)
      add_point(ts, length);
  }
  if (report->queue_points >= 2 && point_ts > first_ts)
    report->queue_mean = area / static_cast<double>(point_ts - first_ts);
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

namespace {

// Above this many devices the rows are read all at once rather than one device at a time.
constexpr size_t kDevicesOneAtATime = 16;

// Visits the device slices of |pid| (all of them when null) in event order as rows, each with
// its launch's marker start.
template <typename Fn>
void ForEachDeviceRow(const index::TraceIndex& index,
                      const std::vector<std::pair<int64_t, int64_t>>& marker_by_id,
                      const int64_t* pid,
                      Fn&& fn) {
  const index::EventColumns& columns = index.events();
  auto last = marker_by_id.end();
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!columns.Has(i, index::kDeviceSlice))
      continue;
    const Event& e = index.event(i);
    if (pid != nullptr && e.pid != *pid)
      continue;
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
    fn(DeviceRow{e.pid, e.ts_ns, e.end_ns(), marker});
  }
}

// The gaps between the union of each device's slices, fed rows sorted by (pid, start, end,
// marker).
class IdleAccumulator {
 public:
  explicit IdleAccumulator(int64_t back_to_back_ns) : back_to_back_ns_(back_to_back_ns) {}

  void Add(const DeviceRow& r) {
    if (!open_ || r.pid != pid_) {
      CloseDevice();
      open_ = true;
      pid_ = r.pid;
      first_start_ = r.start_ns;
      prev_end_ = r.end_ns;
      return;
    }
    const int64_t gap = r.start_ns - prev_end_;
    if (gap > 0) {
      ++idle_.gaps;
      idle_total_ += gap;
      if (r.marker_start_ns != kNoMarker && r.marker_start_ns > prev_end_) {
        idle_.host_wait_ns += gap;
      } else if (gap < back_to_back_ns_) {
        idle_.device_wait_ns += gap;
      } else {
        idle_.other_ns += gap;
      }
    }
    prev_end_ = std::max(prev_end_, r.end_ns);
  }

  IdleBreakdown Finish() {
    CloseDevice();
    idle_.busy_ns = idle_.span_ns - idle_total_;
    return idle_;
  }

 private:
  void CloseDevice() {
    if (open_)
      idle_.span_ns += prev_end_ - first_start_;
    open_ = false;
  }

  int64_t back_to_back_ns_;
  IdleBreakdown idle_;
  int64_t idle_total_ = 0;
  bool open_ = false;
  int64_t pid_ = 0;
  int64_t first_start_ = 0;
  int64_t prev_end_ = 0;
};

// Feeds the rows of |pid| (all when null) to |idle| in sorted order. A device's slices usually
// come in start order already: they are then fed as they are read, in one pass, to a copy of
// the sums that replaces |idle| at the end. Only rows out of order are copied and sorted (six
// million rows were 192 MB beside the latency join in a 10^6-launch run).
void AddDeviceRows(const index::TraceIndex& index,
                   const std::vector<std::pair<int64_t, int64_t>>& marker_by_id,
                   const int64_t* pid,
                   IdleAccumulator* idle) {
  IdleAccumulator in_order = *idle;
  size_t count = 0;
  bool sorted = true;
  DeviceRow previous{};
  ForEachDeviceRow(index, marker_by_id, pid, [&](const DeviceRow& row) {
    sorted = sorted && (count == 0 || !(row < previous));
    if (sorted)
      in_order.Add(row);
    previous = row;
    ++count;
  });
  if (sorted) {
    *idle = in_order;
    return;
  }
  std::vector<DeviceRow> rows;
  rows.reserve(count);
  ForEachDeviceRow(index, marker_by_id, pid, [&](const DeviceRow& row) { rows.push_back(row); });
  SortAlmostSorted(&rows);
  for (const DeviceRow& row : rows)
    idle->Add(row);
}

}  // namespace

IdleBreakdown ComputeIdleBreakdown(const index::TraceIndex& index,
                                   const std::vector<std::pair<int64_t, int64_t>>& marker_by_id,
                                   int64_t back_to_back_ns) {
  const index::EventColumns& columns = index.events();
  // A card has a few devices (chiplets): their rows are read one device at a time, in pid order
  // as one sort of all rows would give them, so that each device's come in start order.
  std::set<int64_t> pids;
  for (size_t i = 0; i < columns.size() && pids.size() <= kDevicesOneAtATime; ++i) {
    if (columns.Has(i, index::kDeviceSlice))
      pids.insert(index.event(i).pid);
  }
  IdleAccumulator idle(back_to_back_ns);
  if (pids.size() > kDevicesOneAtATime) {
    AddDeviceRows(index, marker_by_id, nullptr, &idle);
  } else {
    for (const int64_t pid : pids)
      AddDeviceRows(index, marker_by_id, &pid, &idle);
  }
  return idle.Finish();
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
