// A consumer of the runtime activity API, written against the public headers the way
// torch-rbln's current Kineto plugin uses them (flags::kProfiler.value(), Activities,
// Activity::kind/device/name/start_ns/end_ns/launch, Launch::id/ns/pid/tid), linked against
// librblnsim_runtime.so. Built twice: for <rbln/runtime/...> (stage F) and, with
// RBLNSIM_REBEL_V2, for <rebel/v2/runtime/...> (stage E).
//
//   activity_consumer emitter     one session turned into the current dialect's rows, markers
//                                 and flow ids, checked against the contract's rules
//   activity_consumer sessions    4 sessions: every activity and launch inside its window, no
//                                 drift, launches on this thread
//   activity_consumer flag        RBLN_PROFILER read at begin: off -> empty, on -> recorded
//   activity_consumer misuse      end without begin, begin twice: empty results, no crash
//   activity_consumer clock_sim   (RBLNSIM_CLOCK=sim) nothing recorded
//   activity_consumer trace OUT OP  one session inside this thread's own host op OP, written as
//                                 torch.profiler + the current plugin would write it (for
//                                 `rblnsim check`); the JSON goes through rblnsim's writer
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "profiler/trace/chrome_trace_writer.h"
#include "profiler/trace/trace.h"

#ifdef RBLNSIM_REBEL_V2
#include <rebel/v2/runtime/activity.h>
#include <rebel/v2/runtime/flags.h>
namespace rt = ::rebel::v2::runtime;
#else
#include <rbln/runtime/activity.h>
#include <rbln/runtime/flags.h>
namespace rt = ::rbln::runtime;
#endif

namespace {

int failures = 0;

void Check(bool ok, const std::string& what, long long detail = 0) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s (%lld)\n", what.c_str(), detail);
    ++failures;
  }
}

int64_t SteadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Window {
  int64_t begin_ns = 0;
  int64_t end_called_ns = 0;
  int64_t end_ns = 0;
  rt::Activities result;
};

Window RunSession() {
  Window w;
  w.begin_ns = SteadyNs();
  rt::beginActivities();
  w.end_called_ns = SteadyNs();
  w.result = rt::endActivities();
  w.end_ns = SteadyNs();
  return w;
}

const char* const kLaneNames[] = {"compute", "copy", "host", "collective"};

// What the current dialect makes of one session, with the rules of the current contract that
// can be checked without a host trace.
void Emitter() {
  Check(rt::flags::kProfiler.value(), "flags::kProfiler.value() is off");
  const Window w = RunSession();
  const rt::Activities& got = w.result;
  std::set<std::pair<uint32_t, int64_t>> lanes;  // (device, kind as lane id)
  std::map<uint64_t, size_t> launch_index;       // launch id -> flow id offset
  for (size_t i = 0; i < got.launches.size(); ++i) {
    const rt::Launch& launch = got.launches[i];
    Check(launch_index.emplace(launch.id, i).second, "launch id repeated", launch.id);
    Check(launch.id != 0, "launch id 0");
  }
  std::map<uint64_t, int> per_launch;
  std::set<uint64_t> launches_with_kernel;
  std::map<std::string, int> per_category;
  for (const rt::Activity& a : got.activities) {
    const auto lane = static_cast<int64_t>(a.kind);
    Check(lane >= 0 && lane <= 3, "kind outside the four lanes", lane);
    lanes.insert({a.device, lane});
    Check(a.end_ns >= a.start_ns, "activity ends before it starts");
    switch (a.kind) {
      case rt::Activity::Kind::kDevice:
        ++per_category["kernel"];
        break;
      case rt::Activity::Kind::kCopy:
        ++per_category["gpu_memcpy"];
        break;
      case rt::Activity::Kind::kCollective:
        ++per_category["privateuse1_driver"];
        break;
      case rt::Activity::Kind::kHost:
        ++per_category["privateuse1_runtime"];
        break;
    }
    auto found = launch_index.find(a.launch);
    Check(found != launch_index.end(), "activity of an unknown launch " + std::to_string(a.launch));
    if (found == launch_index.end())
      continue;
    const rt::Launch& launch = got.launches[found->second];
    Check(a.start_ns >= launch.ns,
          "activity starts before its launch " + std::to_string(launch.id));
    ++per_launch[a.launch];
    if (a.kind == rt::Activity::Kind::kDevice)
      launches_with_kernel.insert(a.launch);
  }
  int with_kernel_flows = 0;  // launches that get a marker and arrows
  for (const auto& [id, index] : launch_index) {
    const uint64_t flow_id = 0xF0000000ull + index;
    Check(flow_id < 0xF1000000ull, "flow id outside the block");
    Check(per_launch[id] > 0, "launch without activity " + std::to_string(id));
    if (per_launch[id] > 0)
      ++with_kernel_flows;
  }
  std::printf("NPU rows:");
  std::set<uint32_t> devices;
  for (const auto& [device, lane] : lanes)
    devices.insert(device);
  for (uint32_t d : devices)
    std::printf(" \"NPU %u\"", d);
  std::printf("\nlanes:");
  for (const auto& [device, lane] : lanes)
    std::printf(" %u/%s", device, kLaneNames[lane]);
  std::printf("\nlaunches=%zu markers=%d launches_with_kernel=%zu activities=%zu",
              got.launches.size(), with_kernel_flows, launches_with_kernel.size(),
              got.activities.size());
  for (const auto& [category, n] : per_category)
    std::printf(" %s=%d", category.c_str(), n);
  std::printf("\nfirst:");
  for (size_t i = 0; i < got.activities.size() && i < 4; ++i) {
    std::printf(" %s(launch_id=%s)", got.activities[i].name.c_str(),
                std::to_string(got.activities[i].launch).c_str());
  }
  std::printf("\n");
  Check(devices == std::set<uint32_t>{0}, "the card is not one NPU 0");
  Check(got.launches.size() == 3, "seed launches", static_cast<long long>(got.launches.size()));
  Check(per_category["kernel"] + per_category["gpu_memcpy"] == 18, "seed device activities");
}

void Sessions() {
  const auto pid = static_cast<int32_t>(getpid());
  const auto tid = static_cast<int32_t>(syscall(SYS_gettid));
  std::vector<Window> all;
  int64_t max_lo = INT64_MIN, min_hi = INT64_MAX;
  for (int k = 0; k < 4; ++k) {
    all.push_back(RunSession());
    const Window& w = all.back();
    const rt::Activities& got = w.result;
    Check(!got.activities.empty() && !got.launches.empty(), "empty session", k);
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const rt::Activity& a : got.activities) {
      Check(a.start_ns >= w.begin_ns, "activity before the begin call", w.begin_ns - a.start_ns);
      Check(a.end_ns <= w.end_ns, "activity after endActivities returned", a.end_ns - w.end_ns);
      first = std::min(first, a.start_ns);
      last = std::max(last, a.end_ns);
    }
    for (const rt::Launch& l : got.launches) {
      Check(l.ns >= w.begin_ns && l.ns <= w.end_ns, "launch outside the window", l.ns - w.begin_ns);
      Check(l.pid == pid, "launch not on this process", l.pid);
      Check(l.tid == tid, "launch not on this thread", l.tid);
    }
    std::printf(
        "session %d: activities=%zu launches=%zu first=+%.3fms last=+%.3fms end_call=+%.3fms "
        "end_return=+%.3fms\n",
        k + 1, got.activities.size(), got.launches.size(), (first - w.begin_ns) / 1e6,
        (last - w.begin_ns) / 1e6, (w.end_called_ns - w.begin_ns) / 1e6,
        (w.end_ns - w.begin_ns) / 1e6);
    if (k > 0) {
      Check(first - w.begin_ns < 20'000'000, "device work far from its begin call",
            first - w.begin_ns);
      // No drift, robust to a preempted begin call: the simulated offset of the first activity
      // lies in [first - begin return, first - begin call]; sessions 2..4 run the same window,
      // so these intervals must share it. A drift of D per session moves them D apart.
      max_lo = std::max(max_lo, first - w.end_called_ns);
      min_hi = std::min(min_hi, first - w.begin_ns);
      Check(got.activities.size() == all[0].result.activities.size(), "activity count differs");
    }
  }
  Check(max_lo <= min_hi + 50'000, "drift across sessions", max_lo - min_hi);
}

void SetProfiler(const char* value) {
  if (value == nullptr) {
    unsetenv("RBLN_PROFILER");
  } else {
    setenv("RBLN_PROFILER", value, 1);
  }
}

void FlagAtBegin() {
  // The scenario says RBLN_PROFILER 0 and the process does not set it: off.
  SetProfiler(nullptr);
  Check(!rt::flags::kProfiler.value(), "profiler on without RBLN_PROFILER");
  Window off = RunSession();
  Check(off.result.activities.empty() && off.result.launches.empty(), "recorded while off");
  // Turned on just before the session, as the current test does with monkeypatch.
  SetProfiler("1");
  Check(rt::flags::kProfiler.value(), "profiler off with RBLN_PROFILER=1");
  Window on = RunSession();
  Check(on.result.activities.size() == 18, "not recorded when turned on at begin",
        static_cast<long long>(on.result.activities.size()));
  SetProfiler("0");
  Window off_again = RunSession();
  Check(off_again.result.activities.empty(), "recorded after RBLN_PROFILER=0");
  std::printf("flag: off=%zu on=%zu off_again=%zu\n", off.result.activities.size(),
              on.result.activities.size(), off_again.result.activities.size());
}

void Misuse() {
  rt::Activities none = rt::endActivities();
  Check(none.activities.empty() && none.launches.empty(), "end without begin returned records");
  rt::beginActivities();
  rt::beginActivities();  // refused; the first session stays open
  rt::Activities first = rt::endActivities();
  Check(first.activities.size() == 18, "the session begun first was lost",
        static_cast<long long>(first.activities.size()));
  rt::Activities again = rt::endActivities();
  Check(again.activities.empty(), "a second end returned records");
  Window after = RunSession();
  Check(after.result.activities.size() == 18, "a correct session afterwards");
  std::printf("misuse: first=%zu again=%zu after=%zu\n", first.activities.size(),
              again.activities.size(), after.result.activities.size());
}

void ClockSim() {
  Window w = RunSession();
  Check(w.result.activities.empty() && w.result.launches.empty(),
        "recorded with RBLNSIM_CLOCK=sim");
  std::printf("clock_sim: activities=%zu\n", w.result.activities.size());
}

int64_t SystemNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

using rblnsim::trace::Category;

Category CategoryOf(rt::Activity::Kind kind) {
  switch (kind) {
    case rt::Activity::Kind::kDevice:
      return Category::kKernel;
    case rt::Activity::Kind::kCopy:
      return Category::kGpuMemcpy;
    case rt::Activity::Kind::kCollective:
      return Category::kPrivateUse1Driver;
    case rt::Activity::Kind::kHost:
    default:
      return Category::kPrivateUse1Runtime;
  }
}

// One profiled region as torch.profiler records it with the current plugin: this thread's own
// host op around the session (the "Torch-Compiled Region" of graph mode, or an eager op), one
// "NPU <id>" row per device with a lane per kind, the activities with their launch_id, and per
// launch that ran something a zero-length "rbln launch" marker with an arrow to each activity.
void WriteTrace(const std::string& path, const std::string& host_op) {
  namespace tr = rblnsim::trace;
  const int64_t pid = getpid();
  const auto tid = static_cast<int64_t>(syscall(SYS_gettid));
  const int64_t anchor_steady = SteadyNs();
  const int64_t offset = SystemNs() - anchor_steady;  // the adapter's (system - steady) anchor
  Check(rt::flags::kProfiler.value(), "flags::kProfiler.value() is off");
  rt::beginActivities();
  const rt::Activities got = rt::endActivities();
  const int64_t op_end = SteadyNs();

  tr::Trace trace;
  trace.capture_start_ns = anchor_steady + offset;
  trace.capture_end_ns = op_end + offset;
  trace.base_time_ns = tr::KinetoBaseTimeNs(trace.capture_start_ns);
  trace.processes.push_back({pid, "python3", "", pid});
  trace.threads.push_back({pid, tid, "thread " + std::to_string(tid) + " (python3)", tid});
  tr::Event op;
  op.category = Category::kCpuOp;
  op.name = host_op;
  op.pid = pid;
  op.tid = tid;
  op.ts_ns = trace.capture_start_ns;
  op.dur_ns = op_end - anchor_steady;
  trace.events.push_back(op);

  std::set<uint32_t> devices;
  std::set<std::pair<uint32_t, int64_t>> lanes;
  for (const rt::Activity& a : got.activities) {
    devices.insert(a.device);
    lanes.insert({a.device, static_cast<int64_t>(a.kind)});
  }
  for (uint32_t device : devices)
    trace.processes.push_back({device, "NPU " + std::to_string(device), "", 5000000 + device});
  for (const auto& [device, lane] : lanes)
    trace.threads.push_back({device, lane, kLaneNames[lane], lane});

  std::map<uint64_t, uint64_t> flow_of;  // launch id -> flow id
  for (size_t i = 0; i < got.launches.size() && i < 0x01000000u; ++i)
    flow_of.emplace(got.launches[i].id, 0xF0000000ull + i);
  std::set<uint64_t> ran;
  for (const rt::Activity& a : got.activities) {
    tr::Event e;
    e.category = CategoryOf(a.kind);
    e.name = a.name;
    e.pid = a.device;
    e.tid = static_cast<int64_t>(a.kind);
    e.ts_ns = a.start_ns + offset;
    e.dur_ns = a.end_ns - a.start_ns;
    if (a.launch != 0)
      e.args.push_back({"launch_id", static_cast<int64_t>(a.launch)});
    auto flow = flow_of.find(a.launch);
    if (flow != flow_of.end()) {
      e.flow_id = flow->second;
      e.flow_role = tr::FlowRole::kFinish;
      ran.insert(a.launch);
    }
    trace.events.push_back(std::move(e));
  }
  for (const rt::Launch& launch : got.launches) {
    if (ran.count(launch.id) == 0)
      continue;  // no marker for a launch that ran nothing: no arrow dangles
    tr::Event marker;
    marker.category = Category::kPrivateUse1Runtime;
    marker.name = "rbln launch";
    marker.pid = launch.pid;
    marker.tid = launch.tid;
    marker.ts_ns = launch.ns + offset;
    marker.args.push_back({"launch_id", static_cast<int64_t>(launch.id)});
    marker.flow_id = flow_of.at(launch.id);
    marker.flow_role = tr::FlowRole::kStart;
    trace.events.push_back(std::move(marker));
  }
  const rblnsim::Status written = tr::WriteChromeTrace(trace, path);
  Check(written.ok(), "write " + path + ": " + written.message());
  std::printf("trace: %zu launches, %zu activities, host op '%s' -> %s\n", got.launches.size(),
              got.activities.size(), host_op.c_str(), path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "trace") {
    WriteTrace(argv[2], argv[3]);
    std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
  }
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: activity_consumer emitter|sessions|flag|misuse|clock_sim|trace OUT OP\n");
    return 2;
  }
  const std::string mode = argv[1];
  if (mode == "emitter") {
    Emitter();
  } else if (mode == "sessions") {
    Sessions();
  } else if (mode == "flag") {
    FlagAtBegin();
  } else if (mode == "misuse") {
    Misuse();
  } else if (mode == "clock_sim") {
    ClockSim();
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
