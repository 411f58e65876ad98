#include "bench/synthetic_trace.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/dialect.h"

namespace rblnsim::bench {

namespace {

using trace::Arg;
using trace::Category;
using trace::Event;
using trace::RawJson;

constexpr int64_t kHostPid = 4242;
constexpr int64_t kHostTid = 4242;
constexpr int64_t kDevicePid = 100;  // the simulator's first chiplet row
constexpr int64_t kDmaTid = 1;
constexpr int64_t kComputeTid = 2;
// An arbitrary wall-clock start (2026) so the written times look like a real capture's.
constexpr int64_t kStartNs = 1'780'000'000'000'000'000;
// Per launch: the op, the marker inside it, then device work; launches 25 µs apart.
constexpr int64_t kLaunchPeriodNs = 25'000;
constexpr int64_t kOpDurNs = 20'000;
constexpr int64_t kMarkerOffsetNs = 5'000;
constexpr int64_t kMarkerDurNs = 8'000;
constexpr int64_t kDeviceOffsetNs = 12'000;
constexpr int64_t kSliceDurNs = 3'000;

// Counts bytes without keeping them: sizes a trace without holding its text.
class CountingSink final : public trace::OutputSink {
 public:
  void Append(std::string_view bytes) override { bytes_ += bytes.size(); }
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_ = 0;
};

Event HostOp(int64_t launch, int64_t ts_ns) {
  Event e;
  e.category = Category::kCpuOp;
  e.name = "aten::mm";
  e.pid = kHostPid;
  e.tid = kHostTid;
  e.ts_ns = ts_ns;
  e.dur_ns = kOpDurNs;
  e.args = {
      Arg{"External id", int64_t{launch * 4 + 1}},
      Arg{"Record function id", int64_t{0}},
      Arg{"Ev Idx", int64_t{launch * 4}},
      Arg{"Input Dims", RawJson{"[[512, 512], [512, 512]]"}},
      Arg{"Input type", RawJson{"[\"c10::Half\", \"c10::Half\"]"}},
      Arg{"Input Strides", RawJson{"[[512, 1], [512, 1]]"}},
      Arg{"Concrete Inputs", RawJson{"[\"\", \"\"]"}},
  };
  return e;
}

Event Marker(int64_t launch, int64_t ts_ns) {
  Event e;
  e.category = Category::kPrivateUse1Runtime;
  e.name = std::string(trace::kCAbiMarkerName);
  e.pid = kHostPid;
  e.tid = kHostTid;
  e.ts_ns = ts_ns;
  e.dur_ns = kMarkerDurNs;
  e.args = {Arg{"launch_id", launch}, Arg{"correlation", launch}};
  e.flow_id = static_cast<uint64_t>(launch);
  e.flow_role = trace::FlowRole::kStart;
  return e;
}

Event DeviceSlice(int64_t launch, int slice, int64_t ts_ns) {
  const bool compute = slice == 1;
  Event e;
  e.category = compute ? Category::kKernel : Category::kGpuMemcpy;
  e.name = compute ? "mm_i0_c0" : (slice == 0 ? "args_0_dma_in" : "out_0_dma_out");
  e.pid = kDevicePid;
  e.tid = compute ? kComputeTid : kDmaTid;
  e.ts_ns = ts_ns;
  e.dur_ns = kSliceDurNs;
  e.args = {
      Arg{"categories", std::string(compute ? "tensor_engine,chiplet 0" : "dma,chiplet 0")},
      Arg{"device", kDevicePid},
      Arg{"stream", e.tid},
      Arg{"correlation", launch},
      Arg{"launch_id", launch},
  };
  e.flow_id = static_cast<uint64_t>(launch);
  e.flow_role = trace::FlowRole::kFinish;
  return e;
}

}  // namespace

trace::Trace MakeSyntheticTrace(int64_t launches) {
  trace::Trace t;
  t.base_time_ns = trace::KinetoBaseTimeNs(kStartNs);
  t.capture_start_ns = kStartNs;
  t.capture_end_ns = kStartNs + (launches + 1) * kLaunchPeriodNs;
  t.device_properties.push_back(RawJson{"{\"id\": 0, \"name\": \"RBLN-CA25\"}"});
  t.metadata.emplace_back("distributedInfo", RawJson{"{\"backend\": \"rbln\", \"rank\": 0}"});
  t.processes.push_back({kHostPid, "python3", "", kHostPid});
  t.processes.push_back({kDevicePid, "rbln0 chiplet 0 (RBLN-CA25)", "", 5'000'000 + kDevicePid});
  t.threads.push_back({kHostPid, kHostTid, "thread 4242 (python3)", kHostTid});
  t.threads.push_back({kDevicePid, kDmaTid, "dma", kDmaTid});
  t.threads.push_back({kDevicePid, kComputeTid, "tensor_engine", kComputeTid});
  // Kineto's logging order: host activities first, then the device's.
  t.events.reserve(static_cast<size_t>(launches) * (2 + kSlicesPerLaunch));
  for (int64_t l = 1; l <= launches; ++l) {
    const int64_t op_ns = kStartNs + l * kLaunchPeriodNs - kLaunchPeriodNs / 2;
    t.events.push_back(HostOp(l, op_ns));
    t.events.push_back(Marker(l, op_ns + kMarkerOffsetNs));
  }
  for (int64_t l = 1; l <= launches; ++l) {
    const int64_t device_ns =
        kStartNs + l * kLaunchPeriodNs - kLaunchPeriodNs / 2 + kDeviceOffsetNs;
    for (int s = 0; s < kSlicesPerLaunch; ++s)
      t.events.push_back(DeviceSlice(l, s, device_ns + s * kSliceDurNs));
  }
  t.trace_name = "synthetic";
  return t;
}

uint64_t ChromeTraceBytes(int64_t launches) {
  CountingSink sink;
  (void)trace::WriteChromeTrace(MakeSyntheticTrace(launches), sink);
  return sink.bytes();
}

int64_t LaunchesForBytes(uint64_t bytes) {
  // Two sizes cancel the fixed header and closing events; 2% margin for longer numbers later on.
  constexpr int64_t kSmall = 1000;
  constexpr int64_t kLarge = 11000;
  const uint64_t small = ChromeTraceBytes(kSmall);
  const uint64_t large = ChromeTraceBytes(kLarge);
  const double per_launch = static_cast<double>(large - small) / (kLarge - kSmall);
  return static_cast<int64_t>(static_cast<double>(bytes) * 1.02 / per_launch) + 1;
}

abi::ProducerCapture MakeSyntheticCapture(int64_t slices) {
  abi::ProducerCapture c;
  c.devices.push_back({static_cast<int32_t>(kHostPid), "python3"});
  c.devices.push_back({static_cast<int32_t>(kDevicePid), "rbln0 chiplet 0 (RBLN-CA25)"});
  c.lanes.push_back({static_cast<int32_t>(kHostPid), static_cast<int32_t>(kHostTid), "thread"});
  c.lanes.push_back({static_cast<int32_t>(kDevicePid), static_cast<int32_t>(kDmaTid), "dma"});
  c.lanes.push_back(
      {static_cast<int32_t>(kDevicePid), static_cast<int32_t>(kComputeTid), "tensor_engine"});
  c.names = {"args_0_dma_in", "mm_i0_c0", "out_0_dma_out"};
  c.category_sets = {{"dma", "chiplet 0"}, {"tensor_engine", "chiplet 0"}};
  // Device cycles at 1 GHz, counted from 0; steady ns start at 1 s. Two sync points pin the fit.
  constexpr int64_t kSteadyStartNs = 1'000'000'000;
  const int64_t launches = (slices + kSlicesPerLaunch - 1) / kSlicesPerLaunch;
  c.slices.reserve(static_cast<size_t>(slices));
  c.markers.reserve(static_cast<size_t>(launches));
  for (int64_t i = 0; i < slices; ++i) {
    const int64_t launch = i / kSlicesPerLaunch + 1;
    const int s = static_cast<int>(i % kSlicesPerLaunch);
    const int64_t start = launch * kLaunchPeriodNs + kDeviceOffsetNs + s * kSliceDurNs;
    abi::DeviceSliceRecord r;
    r.device_pid = static_cast<int32_t>(kDevicePid);
    r.resource_tid = static_cast<int32_t>(s == 1 ? kComputeTid : kDmaTid);
    r.name_id = static_cast<uint32_t>(s);
    r.category_id = s == 1 ? 1 : 0;
    r.start_cycles = start;
    r.end_cycles = start + kSliceDurNs;
    r.launch_id = launch;
    r.kind = s == 1 ? abi::SliceKind::kCompute : abi::SliceKind::kDma;
    c.slices.push_back(r);
    if (s == 0) {
      const int64_t marker_ns = kSteadyStartNs + launch * kLaunchPeriodNs + kMarkerOffsetNs;
      c.markers.push_back({static_cast<int32_t>(kHostPid), static_cast<int32_t>(kHostTid),
                           marker_ns, marker_ns + kMarkerDurNs, launch});
    }
  }
  const int64_t end_cycles = (launches + 2) * kLaunchPeriodNs;
  c.sync_points = {{0, kSteadyStartNs}, {end_cycles, kSteadyStartNs + end_cycles}};
  return c;
}

void ReadIntoPageCache(const std::string& path) {
  const int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0)
    return;
  std::vector<char> chunk(size_t{1} << 20);
  while (::read(in, chunk.data(), chunk.size()) > 0) {
  }
  ::close(in);
}

std::string WriteSyntheticTraceFile(int64_t launches) {
  const char* dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/rblnsim_bench_XXXXXX.json";
  const int fd = ::mkstemps(path.data(), 5);
  if (fd < 0)
    return "";
  ::close(fd);
  const Status written = trace::WriteChromeTrace(MakeSyntheticTrace(launches), path);
  if (!written.ok()) {
    ::unlink(path.c_str());
    return "";
  }
  // Most of a large file was written past the page cache (O_DIRECT, atomic_file.h). The benches
  // time parsing, and pair it with walks that must see the same file: every one of them finds it
  // cached.
  ReadIntoPageCache(path);
  return path;
}

}  // namespace rblnsim::bench
