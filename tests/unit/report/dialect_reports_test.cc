// The reports read both trace dialects alike: one recorded session, converted by the c-abi bridge
// (chiplet/engine rows, an rbln_run marker with the submit call's duration) and by the
// runtime-activities bridge (NPU rows, kind lanes, a zero-length rbln launch marker), under the
// same host ops, gives the same key_averages table and the same device-events line.
#include <gtest/gtest.h>
#include <rbln/runtime/activity.h>

#include <string>
#include <utility>
#include <vector>

#include "profiler/bridge/activity_converter.h"
#include "profiler/bridge/slice_converter.h"
#include "profiler/index/trace_index.h"
#include "profiler/report/device_events.h"
#include "profiler/report/key_averages.h"
#include "profiler/trace/dialect.h"

namespace rblnsim::report {
namespace {

// ComputeKeyAverages over a fresh index of |trace|.
// The rows view the trace's names: the trace must outlive them.
KeyAverages KeyAveragesOf(trace::Trace&& trace, Attribution attribution) = delete;
KeyAverages KeyAveragesOf(const trace::Trace& trace, Attribution attribution) {
  auto index = index::TraceIndex::Build(trace);
  EXPECT_TRUE(index.ok());
  return ComputeKeyAverages(*index, attribution);
}

using rbln::runtime::Activity;
using trace::Category;
using trace::Dialect;
using trace::Event;
using trace::Trace;

constexpr int64_t kUs = 1000;
constexpr int64_t kSteadyNs = 50'000'000;
constexpr int64_t kSystemNs = 1'743'521'598'000'000'000;
constexpr int64_t kWindowNs = 10'000 * kUs;
constexpr int32_t kHostPid = 4321;
constexpr int64_t kSubmitNs = 9 * kUs;  // the c-abi marker spans the submit call

// One device activity of the recorded session, |start|/|end| relative to the session start.
struct Work {
  Activity::Kind kind;
  std::string name;
  int64_t start;
  int64_t end;
};

// Three profiled (x @ x).cpu() calls, as in the seed: per call a launch at 100 µs into the call
// with three args copies, three mm kernels and one sync on the device; per call on the host
// aten::matmul > aten::mm > (NaN/Inf scan ops, the launch) and then the .cpu() download chain.
constexpr int64_t kCallNs = 1'000 * kUs;
int64_t CallStart(int call) {
  return 200 * kUs + call * kCallNs;
}
int64_t LaunchAt(int call) {
  return CallStart(call) + 100 * kUs;
}
std::vector<Work> DeviceWork(int call) {
  const int64_t t = LaunchAt(call) + 20 * kUs;
  std::vector<Work> work;
  for (int i = 0; i < 3; ++i) {
    work.push_back({Activity::Kind::kCopy,
                    "i1_" + std::to_string(call) + "_W0_args_0_" + std::to_string(i),
                    t + i * 2 * kUs, t + i * 2 * kUs + 1'210 + i * 300});
  }
  for (int i = 0; i < 3; ++i) {
    work.push_back({Activity::Kind::kDevice,
                    "i1_" + std::to_string(call) + "_W0_mm_" + std::to_string(i),
                    t + 10 * kUs + i * 3 * kUs, t + 10 * kUs + i * 3 * kUs + 2'084 + i * 17});
  }
  work.push_back(
      {Activity::Kind::kCollective, "sync_" + std::to_string(call), t + 25 * kUs, t + 26 * kUs});
  return work;
}

Event HostOp(std::string name, int64_t start, int64_t dur) {
  Event event;
  event.category = Category::kCpuOp;
  event.name = name;
  event.pid = kHostPid;
  event.tid = kHostPid;
  event.ts_ns = kSystemNs + start;
  event.dur_ns = dur;
  return event;
}

Trace HostTrace() {
  Trace trace;
  trace.capture_start_ns = kSystemNs;
  trace.capture_end_ns = kSystemNs + kWindowNs;
  trace.base_time_ns = trace::KinetoBaseTimeNs(kSystemNs);
  trace.processes.push_back({kHostPid, "python3", "", kHostPid});
  trace.threads.push_back({kHostPid, kHostPid, "thread 4321 (python3)", kHostPid});
  for (int call = 0; call < 3; ++call) {
    const int64_t t = CallStart(call);
    trace.events.push_back(HostOp("aten::matmul", t, 400 * kUs));
    trace.events.push_back(HostOp("aten::mm", t + 5 * kUs, 390 * kUs));
    trace.events.push_back(HostOp("aten::abs", t + 10 * kUs, 30 * kUs));
    trace.events.push_back(HostOp("aten::isinf", t + 45 * kUs, 20 * kUs));
    trace.events.push_back(HostOp("aten::to", t + 500 * kUs, 200 * kUs));
    trace.events.push_back(HostOp("aten::_to_copy", t + 505 * kUs, 190 * kUs));
    trace.events.push_back(HostOp("aten::copy_", t + 510 * kUs, 180 * kUs));
  }
  return trace;
}

bridge::ConvertWindow Window() {
  bridge::ConvertWindow window;
  window.offset_ns = kSystemNs - kSteadyNs;
  window.capture_start_ns = kSystemNs;
  window.capture_end_ns = kSystemNs + kWindowNs;
  return window;
}

// The session as the runtime activity API hands it over.
bridge::BridgeResult CurrentDevice() {
  rbln::runtime::Activities in;
  for (int call = 0; call < 3; ++call) {
    const uint64_t launch_id = static_cast<uint64_t>(call) + 2;
    in.launches.push_back({launch_id, kSteadyNs + LaunchAt(call), kHostPid, kHostPid});
    for (const Work& w : DeviceWork(call))
      in.activities.push_back(
          {w.kind, 0, w.name, kSteadyNs + w.start, kSteadyNs + w.end, launch_id});
  }
  return bridge::ConvertActivities(std::move(in), Window());
}

// The same session as an rbln_kineto C-ABI export: chiplet 0 with engine lanes, the host
// process exported as a row too (as the c-abi producer does), and one rbln_run per launch.
bridge::BridgeResult CAbiDevice() {
  constexpr int32_t kChiplet = 100;
  bridge::CopiedExport exp;
  exp.devices = {{kChiplet, "rbln0 chiplet 0 (RBLN-CR13)"}, {kHostPid, "python3"}};
  exp.lanes = {{kChiplet, 1, "Neural Engine Clusters"},
               {kChiplet, 9, "Neural DMA 0"},
               {kChiplet, 41, "Device Sync"},
               {kHostPid, kHostPid, "thread 4321"}};
  for (int call = 0; call < 3; ++call) {
    const std::string launch_id = std::to_string(call + 2);
    bridge::CopiedSlice marker;
    marker.device_pid = kHostPid;
    marker.resource_tid = kHostPid;
    marker.name = exp.Keep(trace::kCAbiMarkerName);
    marker.kind = RBLN_KINETO_KIND_RUNTIME;
    marker.start_steady_ns = kSteadyNs + LaunchAt(call);
    marker.end_steady_ns = marker.start_steady_ns + kSubmitNs;
    exp.AddAnnotation(&marker, "launch_id", launch_id, 0);
    marker.corr_id = call + 2;
    exp.slices.push_back(marker);
    for (const Work& w : DeviceWork(call)) {
      bridge::CopiedSlice slice;
      slice.device_pid = kChiplet;
      switch (w.kind) {
        case Activity::Kind::kDevice:
          slice.kind = RBLN_KINETO_KIND_COMPUTE;
          slice.resource_tid = 1;
          break;
        case Activity::Kind::kCopy:
          slice.kind = RBLN_KINETO_KIND_DMA;
          slice.resource_tid = 9;
          break;
        default:
          slice.kind = RBLN_KINETO_KIND_SYNC;
          slice.resource_tid = 41;
          break;
      }
      slice.name = exp.Keep(w.name);
      slice.start_steady_ns = kSteadyNs + w.start;
      slice.end_steady_ns = kSteadyNs + w.end;
      exp.AddAnnotation(&slice, "launch_id", launch_id, 0);
      slice.corr_id = call + 2;
      exp.slices.push_back(slice);
    }
  }
  return bridge::ConvertExport(exp, Window());
}

Trace TraceIn(Dialect dialect) {
  Trace trace = HostTrace();
  bridge::BridgeResult device = dialect == Dialect::kCurrent ? CurrentDevice() : CAbiDevice();
  EXPECT_EQ(device.stats.launches, 3u);
  EXPECT_EQ(device.stats.dropped_out_of_window, 0u);
  std::move(device).AppendTo(&trace);
  return trace;
}

std::string Table(const Trace& trace, Attribution attribution, int row_limit) {
  TableOptions options;
  options.sort_by = "cpu_time_total";
  options.row_limit = row_limit;
  options.attribution = attribution;
  StatusOr<std::string> table = FormatKeyAveragesTable(trace, options);
  EXPECT_TRUE(table.ok()) << table.status().message();
  return table.ok() ? *table : std::string();
}

TEST(DialectReports, TheTwoTracesReallyAreTheTwoDialects) {
  const Trace c_abi = TraceIn(Dialect::kCAbi);
  const Trace current = TraceIn(Dialect::kCurrent);
  EXPECT_EQ(trace::DetectDialect(c_abi), Dialect::kCAbi);
  EXPECT_EQ(trace::DetectDialect(current), Dialect::kCurrent);
  int c_abi_markers = 0;
  int current_markers = 0;
  for (const Event& e : c_abi.events)
    c_abi_markers += trace::IsLaunchMarker(e, Dialect::kCAbi) && e.dur_ns == kSubmitNs;
  for (const Event& e : current.events)
    current_markers += trace::IsLaunchMarker(e, Dialect::kCurrent) && e.dur_ns == 0;
  EXPECT_EQ(c_abi_markers, 3);
  EXPECT_EQ(current_markers, 3);
  ASSERT_NE(current.FindProcess(0), nullptr);
  EXPECT_EQ(current.FindProcess(0)->name, "NPU 0");
  // The host row keeps its own name in both.
  EXPECT_EQ(c_abi.FindProcess(kHostPid)->name, "python3");
  EXPECT_EQ(current.FindProcess(kHostPid)->name, "python3");
}

TEST(DialectReports, SameTableInBothDialects) {
  const Trace c_abi = TraceIn(Dialect::kCAbi);
  const Trace current = TraceIn(Dialect::kCurrent);
  for (Attribution attribution : {Attribution::kReleased, Attribution::kAttributed}) {
    for (int row_limit : {10, -1}) {
      const std::string expected = Table(c_abi, attribution, row_limit);
      ASSERT_FALSE(expected.empty());
      EXPECT_EQ(Table(current, attribution, row_limit), expected)
          << "attribution " << static_cast<int>(attribution) << ", row_limit " << row_limit;
      // Neither marker is a row in either dialect.
      EXPECT_EQ(expected.find("rbln_run"), std::string::npos);
      EXPECT_EQ(Table(current, attribution, row_limit).find("rbln launch"), std::string::npos);
    }
  }
}

TEST(DialectReports, MarkersAreNeitherCpuOpsNorDeviceTime) {
  for (Dialect dialect : {Dialect::kCAbi, Dialect::kCurrent}) {
    const trace::Trace trace = TraceIn(dialect);
    const KeyAverages averages = KeyAveragesOf(trace, Attribution::kReleased);
    int64_t self_device_ns = 0;
    for (const KeyAverage& row : averages.rows) {
      EXPECT_FALSE(row.name == trace::kCAbiMarkerName || row.name == trace::kCurrentMarkerName);
      if (row.is_device)
        self_device_ns += row.self_device_ns;
      if (row.name == "aten::mm") {
        // 390 µs minus the two scan ops only; the c-abi marker's 9 µs are not taken off.
        EXPECT_EQ(row.self_cpu_ns, 3 * (390 - 30 - 20) * kUs) << trace::DialectName(dialect);
      }
      if (row.name.starts_with("sync_")) {
        // privateuse1_driver maps to the CPU: a row without device time, as torch shows it.
        EXPECT_FALSE(row.is_device);
        EXPECT_EQ(row.self_device_ns, 0);
      }
    }
    // Self RBLN total: the 9 copies and 9 kernels, nothing else.
    int64_t expected_ns = 0;
    for (int call = 0; call < 3; ++call) {
      for (const Work& w : DeviceWork(call)) {
        if (w.kind == Activity::Kind::kDevice || w.kind == Activity::Kind::kCopy)
          expected_ns += w.end - w.start;
      }
    }
    EXPECT_EQ(self_device_ns, expected_ns) << trace::DialectName(dialect);
    EXPECT_EQ(averages.stats.device_events, 18) << trace::DialectName(dialect);
  }
}

TEST(DialectReports, AttributionFindsTheLaunchingOpThroughEitherMarker) {
  for (Dialect dialect : {Dialect::kCAbi, Dialect::kCurrent}) {
    const trace::Trace trace = TraceIn(dialect);
    const KeyAverages averages = KeyAveragesOf(trace, Attribution::kAttributed);
    EXPECT_EQ(averages.stats.device_events, 18) << trace::DialectName(dialect);
    EXPECT_EQ(averages.stats.attributed, 18) << trace::DialectName(dialect);
    EXPECT_EQ(averages.stats.unattributed(), 0) << trace::DialectName(dialect);
  }
}

// The trace's index; the caller keeps |trace| alive while it is used.
index::TraceIndex Indexed(const trace::Trace& trace) {
  return *index::TraceIndex::Build(trace);
}

TEST(DialectReports, SameDeviceEventsLineInBothDialects) {
  const std::string expected =
      "18 device events, for example: ['i1_0_W0_args_0_0', 'i1_0_W0_args_0_1', "
      "'i1_0_W0_args_0_2', 'i1_0_W0_mm_0']";
  EXPECT_EQ(FormatDeviceEventsLine(DeviceEvents(Indexed(TraceIn(Dialect::kCAbi)))), expected);
  EXPECT_EQ(FormatDeviceEventsLine(DeviceEvents(Indexed(TraceIn(Dialect::kCurrent)))), expected);
}

}  // namespace
}  // namespace rblnsim::report
