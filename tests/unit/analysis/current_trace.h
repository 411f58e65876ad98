// Builds, in memory, a trace in the current dialect as today's torch-rbln bridge lays it out
// (shared/reference/rbln-runtime-activities.md §3): a host process with one thread running an
// ATen op per launch, a zero-length "rbln launch" marker inside it carrying the launch_id and an
// ac2g flow start of the rbln block, and an "NPU 0" row (pid 0) whose lanes are named by kind,
// each activity carrying the launch_id and a flow finish. Every rule of the current contract
// holds on it; tests break one thing at a time.
#ifndef RBLNSIM_TESTS_UNIT_ANALYSIS_CURRENT_TRACE_H_
#define RBLNSIM_TESTS_UNIT_ANALYSIS_CURRENT_TRACE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "profiler/trace/trace.h"

namespace rblnsim::testing {

struct CurrentTrace {
  static constexpr int64_t kHostPid = 4321;
  static constexpr int64_t kNpuPid = 0;
  static constexpr int64_t kStartNs = 1'764'547'200'000'000'000;  // the capture start
  static constexpr int64_t kLaunchPeriodNs = 50'000;
  static constexpr uint64_t kFlowBase = 0xF0000000u;

  // The names of launch |i|'s events (launch_id i + 1, flow kFlowBase + i).
  static std::string Op(int i) { return "aten::linear#" + std::to_string(i); }
  static std::string Copy(int i) { return "i1_" + std::to_string(i) + "_W0_args_0_0"; }
  static std::string Kernel(int i) { return "i1_" + std::to_string(i) + "_W0_mm_0"; }
  static std::string HostStep(int i) { return "prepare_io_" + std::to_string(i); }
};

inline trace::Event CurrentEvent(trace::Category cat,
                                 std::string name,
                                 int64_t pid,
                                 int64_t tid,
                                 int64_t ts_ns,
                                 int64_t dur_ns) {
  trace::Event e;
  e.category = cat;
  e.name = name;
  e.pid = pid;
  e.tid = tid;
  e.ts_ns = ts_ns;
  e.dur_ns = dur_ns;
  return e;
}

// |launches| launches, 50 µs apart: per launch an op of 20 µs, its marker 5 µs in, then a copy
// (lane copy), a host step (lane host) and a kernel (lane compute), all inside the op. Host ops are
// logged first, then the device activities, as Kineto does.
inline trace::Trace ValidCurrentTrace(int launches) {
  using C = CurrentTrace;
  trace::Trace t;
  t.capture_start_ns = C::kStartNs;
  t.capture_end_ns = C::kStartNs + launches * C::kLaunchPeriodNs + 10'000;
  t.base_time_ns = trace::KinetoBaseTimeNs(C::kStartNs);
  t.processes.push_back({C::kHostPid, "python3", "", 0, {}});
  t.processes.push_back({C::kNpuPid, "NPU 0", "", 5000000, {}});
  t.threads.push_back({C::kHostPid, C::kHostPid, "thread 4321 (python3)", 0});
  t.threads.push_back({C::kNpuPid, 0, "compute", 0});
  t.threads.push_back({C::kNpuPid, 1, "copy", 1});
  t.threads.push_back({C::kNpuPid, 2, "host", 2});
  auto with_launch = [](trace::Event e, int i, trace::FlowRole role) {
    e.args.push_back({"launch_id", int64_t{i + 1}});
    e.flow_id = C::kFlowBase + static_cast<uint64_t>(i);
    e.flow_role = role;
    return e;
  };
  for (int i = 0; i < launches; ++i) {
    const int64_t ts = C::kStartNs + 1'000 + i * C::kLaunchPeriodNs;
    t.events.push_back(
        CurrentEvent(trace::Category::kCpuOp, C::Op(i), C::kHostPid, C::kHostPid, ts, 20'000));
    t.events.push_back(with_launch(CurrentEvent(trace::Category::kPrivateUse1Runtime, "rbln launch",
                                                C::kHostPid, C::kHostPid, ts + 5'000, 0),
                                   i, trace::FlowRole::kStart));
  }
  for (int i = 0; i < launches; ++i) {
    const int64_t ts = C::kStartNs + 1'000 + i * C::kLaunchPeriodNs;
    t.events.push_back(with_launch(
        CurrentEvent(trace::Category::kGpuMemcpy, C::Copy(i), C::kNpuPid, 1, ts + 6'000, 2'000), i,
        trace::FlowRole::kFinish));
    t.events.push_back(with_launch(CurrentEvent(trace::Category::kPrivateUse1Runtime,
                                                C::HostStep(i), C::kNpuPid, 2, ts + 6'500, 1'000),
                                   i, trace::FlowRole::kFinish));
    t.events.push_back(with_launch(
        CurrentEvent(trace::Category::kKernel, C::Kernel(i), C::kNpuPid, 0, ts + 9'000, 5'000), i,
        trace::FlowRole::kFinish));
  }
  return t;
}

inline trace::Event& FindEvent(trace::Trace& t, const std::string& name) {
  auto it = std::find_if(t.events.begin(), t.events.end(),
                         [&](const trace::Event& e) { return e.name == name; });
  if (it == t.events.end()) {
    ADD_FAILURE() << "no event named " << name;
    return t.events.front();
  }
  return *it;
}

// The marker of launch |i| (the i-th "rbln launch" in event order).
inline trace::Event& CurrentMarker(trace::Trace& t, int i) {
  int seen = 0;
  for (trace::Event& e : t.events) {
    if (e.name == "rbln launch" && seen++ == i)
      return e;
  }
  return t.events.front();
}

}  // namespace rblnsim::testing

#endif  // RBLNSIM_TESTS_UNIT_ANALYSIS_CURRENT_TRACE_H_
